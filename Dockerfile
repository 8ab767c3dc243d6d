# brabo-gateway server image. Sources run directly under Node 24's type stripping: no build step.
FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY runner-protocol ./runner-protocol
COPY gateway ./gateway
COPY broker ./broker
COPY src ./src
COPY bin ./bin
COPY scripts ./scripts
# Runs as the unprivileged node user; the data dir holds the SQLite store and the admin token.
USER node
VOLUME ["/data"]
EXPOSE 4000
ENTRYPOINT ["node", "src/cli.ts"]
CMD ["serve", "--host", "0.0.0.0", "--port", "4000", "--data-dir", "/data"]
