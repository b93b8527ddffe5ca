#!/usr/bin/env bash
# Runs the server integration suite and the engine's PostgreSQL-backend tests once against a real
# PostgreSQL server, started here on loopback in a throwaway folder and stopped afterwards.
# Arguments (test files) run just those: `KYFW_TEST_PG_PORT=54337 bash scripts/test-pg.sh a.test.ts`.
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
if [ $# -gt 0 ]; then
  vitest run --project integration --project unit "$@"
else
  # The unit tests that read DATABASE_URL (the engine's and the db package's PostgreSQL backends);
  # the rest of the unit project does not touch a database and ran in the PGlite pass.
  mapfile -t pg_unit < <(grep -rl --include='*.test.ts' --exclude-dir=node_modules DATABASE_URL packages scripts | sort)
  vitest run --project integration
  vitest run --project unit "${pg_unit[@]}"
fi
