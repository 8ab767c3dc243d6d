#!/usr/bin/env bash
# Builds the Node base image brabo's Dockerfile can start from when no image registry is
# reachable (as on the CI machines): FROM scratch plus files already on this machine.
#   - Node (the same build scripts/node-env.sh installs; the npm registry package), with the
#     shared libraries it links against, copied from this machine;
#   - npm from this machine (the Dockerfile's build stage runs `npm ci`), its CA certificates;
#   - a static busybox as /bin/sh (RUN steps, debugging);
#   - /etc/passwd and /etc/group with root and node (1000:1000), /tmp, /home/node.
# Usage: scripts/image-base.sh [TAG]   (default brabo-node-base:<node version>-<recipe hash>); prints the tag.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/node-env.sh >&2
node_bin="$(readlink -f "$(command -v node)")"
version="$(node -p process.versions.node)"
# The tag names this script's content too: a changed recipe builds a new base, never reuses a stale one.
recipe="$(sha256sum "$0" | cut -c1-8)"
tag="${1:-brabo-node-base:$version-$recipe}"
if docker image inspect "$tag" >/dev/null 2>&1; then echo "$tag"; exit 0; fi
npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
[ -f "$npm_dir/package.json" ] || { echo "image-base: npm not found next to $(command -v npm)" >&2; exit 1; }
busybox="$(command -v busybox || true)"
[ -n "$busybox" ] && ! ldd "$busybox" >/dev/null 2>&1 || { echo "image-base: a static busybox is needed (apt-get install busybox-static)" >&2; exit 1; }

ctx="$(mktemp -d)"
trap 'rm -rf "$ctx"' EXIT
root="$ctx/rootfs"
mkdir -p "$root/usr/local/bin" "$root/usr/local/lib/node_modules" "$root/bin" "$root/usr/bin" "$root/etc/ssl/certs" "$root/tmp" "$root/home/node" "$root/root"
cp "$node_bin" "$root/usr/local/bin/node"
# Every library node links against, at the same path (and the loader), plus the rest of glibc's
# usual set: native addons (rolldown, esbuild, cpu-features) link librt, and npm's DNS lookups
# need libresolv and the nss modules.
extra_libs="$(for name in librt.so.1 libresolv.so.2 libnss_dns.so.2 libnss_files.so.2 libutil.so.1 libz.so.1; do
  ldconfig -p | awk -v n="$name" '$1 == n && /x86-64|x86_64|AArch64|aarch64/ { print $NF; exit }'
done)"
{ ldd "$node_bin" | grep -oE '/[^ ]+'; printf '%s\n' $extra_libs; } | sort -u | while read -r lib; do
  mkdir -p "$root$(dirname "$lib")"
  cp -L "$lib" "$root$lib"
done
cp -r "$npm_dir" "$root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
cp "$busybox" "$root/bin/busybox"
for tool in sh ls cat mkdir chown rm cp mv env id; do ln -s busybox "$root/bin/$tool"; done
ln -s ../../bin/busybox "$root/usr/bin/env"
printf 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000:node:/home/node:/bin/sh\n' >"$root/etc/passwd"
printf 'root:x:0:\nnode:x:1000:\n' >"$root/etc/group"
printf 'hosts: files dns\n' >"$root/etc/nsswitch.conf"
chmod 1777 "$root/tmp"
chown 1000:1000 "$root/home/node"
cat >"$ctx/Dockerfile" <<'DOCKERFILE'
FROM scratch
COPY rootfs/ /
ENV PATH=/usr/local/bin:/bin NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt HOME=/root
CMD ["node"]
DOCKERFILE
echo "image-base: building $tag (Node $version from this machine, FROM scratch)" >&2
docker build -q -t "$tag" "$ctx" >/dev/null 2>"$ctx/build.log" || { cat "$ctx/build.log" >&2; exit 1; }
echo "$tag"
