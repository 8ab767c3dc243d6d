#!/usr/bin/env bash
# Makes sure a Docker engine answers on /var/run/docker.sock (installs docker.io and busybox-static
# from Debian's packages when missing) and that the local test image brabo-test-busybox exists.
set -euo pipefail
need=()
command -v dockerd >/dev/null 2>&1 || need+=(docker.io)
dpkg -s busybox-static >/dev/null 2>&1 || need+=(busybox-static)
if [ ${#need[@]} -gt 0 ]; then
  echo "docker-up: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
fi
if ! docker version >/dev/null 2>&1; then
  echo "docker-up: starting dockerd"
  mkdir -p /var/log
  (setsid dockerd >/var/log/dockerd.log 2>&1 &)
  for _ in $(seq 1 60); do docker version >/dev/null 2>&1 && break; sleep 1; done
  docker version >/dev/null 2>&1 || { echo "docker-up: dockerd did not come up"; tail -50 /var/log/dockerd.log; exit 1; }
fi
# The test image: FROM scratch + static busybox (no registry here).
if ! docker image inspect brabo-test-busybox:latest >/dev/null 2>&1; then
  ctx=$(mktemp -d)
  cp "$(command -v busybox)" "$ctx/busybox"
  cat > "$ctx/Dockerfile" <<'DOCKERFILE'
FROM scratch
COPY busybox /bin/busybox
RUN ["/bin/busybox", "--install", "-s", "/bin"]
DOCKERFILE
  docker build -q -t brabo-test-busybox:latest "$ctx" >/dev/null
  rm -rf "$ctx"
fi
# A dynamically linked busybox copied by mistake builds fine and fails at run time: check now.
if ! docker run --rm --network none brabo-test-busybox:latest sh -c 'pwd -P >/dev/null && setsid true' >/dev/null 2>&1; then
  echo "docker-up: image brabo-test-busybox:latest does not run (is $(command -v busybox) static?); remove it and install busybox-static"
  exit 1
fi
echo "docker-up: engine $(docker version --format '{{.Server.Version}}'), image brabo-test-busybox ready"
