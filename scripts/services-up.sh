#!/usr/bin/env bash
# Starts PostgreSQL if it is not answering (the machine starts it before a session; CI may find it
# stopped) and makes sure the database `test` exists.
set -euo pipefail
if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  echo "services-up: starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
fi
pg_isready -h 127.0.0.1 -p 5432 || { echo "services-up: PostgreSQL is not answering on 127.0.0.1:5432"; exit 1; }
