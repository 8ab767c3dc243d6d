#!/usr/bin/env bash
# The linters (tools/lint/: eslint + typescript-eslint + prettier, with their own lockfile, so the
# TypeScript JS API they need never meets the project's native typescript 7):
#   scripts/lint.sh                 eslint on the whole repository (import boundaries included)
#   scripts/lint.sh --format        prettier --write (width 120, .prettierrc.json)
#   scripts/lint.sh --format-check  prettier --check
# Installs tools/lint's packages first when they are missing or older than its lockfile.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/node-env.sh
tools=tools/lint
if [ ! -f "$tools/node_modules/.package-lock.json" ] || [ "$tools/package-lock.json" -nt "$tools/node_modules/.package-lock.json" ]; then
  echo "lint: installing the linters (npm ci in $tools)" >&2
  npm ci --prefix "$tools" --no-audit --no-fund --loglevel=error >&2
fi
case "${1:-}" in
  --format) exec "$tools/node_modules/.bin/prettier" --write --log-level warn . ;;
  --format-check) exec "$tools/node_modules/.bin/prettier" --check --log-level warn . ;;
  "") exec "$tools/node_modules/.bin/eslint" --max-warnings 0 . ;;
  *) echo "usage: scripts/lint.sh [--format | --format-check]" >&2; exit 2 ;;
esac
