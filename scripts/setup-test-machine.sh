#!/usr/bin/env bash
# Prepares this machine for the test suites, idempotently and quietly: installs the Debian
# packages listed in scripts/test-packages.txt that are missing, starts the Docker engine (and
# builds the local test image) and PostgreSQL. Other teams add packages to that list, and
# start-up steps for new services below.
set -euo pipefail
cd "$(dirname "$0")/.."

mapfile -t wanted < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' scripts/test-packages.txt | grep -v '^$')
missing=()
if command -v dpkg >/dev/null 2>&1; then
  for p in "${wanted[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]} (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
else
  echo "setup: not a Debian machine; install these yourself: ${wanted[*]}"
fi

bash scripts/docker-up.sh
bash scripts/services-up.sh
