# brabo-gateway server image: the built JavaScript (npm run build) on Node 24, run as the
# unprivileged node user (1000:1000) with its data (SQLite store, generated admin token) in /data.
#   docker build -t brabo-gateway .
#   docker run -d -p 4000:4000 -v brabo-data:/data brabo-gateway
# BASE must provide node and npm. Without a registry, build one from this machine's files with
# scripts/image-base.sh and pass --build-arg BASE=<its tag> (scripts/image-test.sh does).
ARG BASE=node:24-bookworm-slim

FROM ${BASE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error
COPY tsconfig.json tsconfig.build.json ./
COPY runner-protocol ./runner-protocol
COPY gateway ./gateway
COPY broker ./broker
COPY src ./src
COPY console ./console
RUN npm run build && npm prune --omit=dev --no-audit --no-fund --loglevel=error

FROM ${BASE}
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY bin/brabo.js ./bin/brabo.js
# The volume's mount point belongs to the runtime user: a fresh named volume is created with
# this owner, so the store and the token can be written.
RUN mkdir -p /data && chown 1000:1000 /data
USER 1000:1000
VOLUME ["/data"]
EXPOSE 4000
# Ready = the store answers (and Docker, when the broker is on): /readyz, not just a live process.
HEALTHCHECK --interval=5s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:4000/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "bin/brabo.js"]
CMD ["serve", "--host", "0.0.0.0", "--port", "4000", "--data-dir", "/data"]
