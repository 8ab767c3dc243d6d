#!/usr/bin/env bash
# PostgreSQL for the test suites: 127.0.0.1:5432, user postgres without a password (trust, local
# connections only) and a database named `test` (BRABO_TEST_POSTGRES_URL overrides the URL the
# tests use). Starts the cluster when it is not answering (the machine usually starts it; CI may
# find it stopped), configures a freshly installed Debian cluster, creates the database.
set -euo pipefail
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  if pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then exit 0; fi
  echo "services-up: PostgreSQL is not answering on 127.0.0.1:5432 and this is not a Debian cluster; start one (user postgres, trust on 127.0.0.1, database test)"
  exit 1
fi
version="$(ls /etc/postgresql | sort -V | tail -1)"
hba="/etc/postgresql/$version/main/pg_hba.conf"
# A fresh Debian cluster uses peer/scram; the tests connect as postgres over TCP with no password.
if ! grep -Eq '^host[[:space:]]+all[[:space:]]+all[[:space:]]+127\.0\.0\.1/32[[:space:]]+trust' "$hba"; then
  echo "services-up: trusting local TCP connections in $hba (test machine)"
  { echo "host all all 127.0.0.1/32 trust"; echo "local all all trust"; cat "$hba"; } >"$hba.new" && mv "$hba.new" "$hba"
  pg_ctlcluster --skip-systemctl-redirect "$version" main reload 2>/dev/null || true
fi
if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  echo "services-up: starting PostgreSQL $version"
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
fi
pg_isready -h 127.0.0.1 -p 5432 -q || { echo "services-up: PostgreSQL is not answering on 127.0.0.1:5432 (see /var/log/postgresql/)"; exit 1; }
if ! psql -h 127.0.0.1 -U postgres -d test -Atqc 'select 1' >/dev/null 2>&1; then
  echo "services-up: creating database test"
  psql -h 127.0.0.1 -U postgres -d postgres -qc 'create database test' >/dev/null
fi
# The suites run on two workers beside three-node clusters, chaos loads and their pools: Debian's
# default of 100 connections runs out ("too many clients already"). Raise it once; it needs a restart.
want=400
have="$(psql -h 127.0.0.1 -U postgres -d test -Atqc 'show max_connections' 2>/dev/null || echo 0)"
if [ "${have:-0}" -lt "$want" ]; then
  echo "services-up: raising PostgreSQL max_connections from $have to $want (restart)"
  psql -h 127.0.0.1 -U postgres -d postgres -qc "alter system set max_connections = $want" >/dev/null
  pg_ctlcluster --skip-systemctl-redirect "$version" main restart
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
  pg_isready -h 127.0.0.1 -p 5432 -q || { echo "services-up: PostgreSQL did not come back after the restart (see /var/log/postgresql/)"; exit 1; }
fi
