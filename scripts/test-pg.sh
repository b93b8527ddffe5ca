#!/usr/bin/env bash
# Runs the server integration suite and the engine's PostgreSQL-backend tests once against a real
# PostgreSQL server, started here on loopback in a throwaway folder and stopped afterwards. Files
# given as arguments narrow the run to them (bash scripts/test-pg.sh apps/server/test/x.test.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
bin=$(bash scripts/ensure-postgres.sh)
port=${KYFW_TEST_PG_PORT:-54329}
dir=$(mktemp -d /tmp/kyfw-pg.XXXXXX)
run_pg() {
  # PostgreSQL refuses to run as root: use the postgres system user when we are root.
  if [ "$(id -u)" = "0" ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi
}
[ "$(id -u)" = "0" ] && chown postgres "$dir"
cleanup() { run_pg "'$bin/pg_ctl' -D '$dir/data' -m immediate stop" >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap cleanup EXIT
run_pg "'$bin/initdb' -D '$dir/data' -A trust -U kyfw -E UTF8 --locale=C.UTF-8" >/dev/null
run_pg "'$bin/pg_ctl' -D '$dir/data' -l '$dir/log' -w -o \"-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200\" start" >/dev/null
export DATABASE_URL="postgres://kyfw@127.0.0.1:$port/postgres"
echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
vitest run --project integration --project unit "$@"
