#!/usr/bin/env bash
# Everything CI runs (`npm test`): lint, types, unit + web + integration tests on embedded PGlite,
# real-browser journeys, then the integration suite once more against a real PostgreSQL server.
# The web build the journeys need runs beside lint and typecheck (two processes on two cores); each
# step's time is printed at the end, also when a step fails.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

timings=()
current=''
started=$SECONDS
suite_started=$SECONDS
step() {
  if [ -n "$current" ]; then timings+=("$(printf '%6ss  %s' $((SECONDS - started)) "$current")"); fi
  current=$1
  started=$SECONDS
  [ -n "$current" ] && printf '\n== %s ==\n' "$current"
  return 0
}
summary() {
  local status=$?
  step ''
  printf '\n== step times ==\n'
  printf '%s\n' "${timings[@]}"
  printf '%6ss  total (exit %s)\n' $((SECONDS - suite_started)) "$status"
}
trap summary EXIT

build_log=$(mktemp /tmp/kyfw-build.XXXXXX)
build_started=$SECONDS
( bash scripts/ensure-chromium.sh && npm run --silent build ) >"$build_log" 2>&1 &
build_pid=$!

step "lint";          biome check . && node scripts/server-boundaries.ts
step "typecheck";     npm run --silent typecheck
step "web build (started beside lint)"
if ! wait "$build_pid"; then cat "$build_log"; exit 1; fi
tail -n 3 "$build_log"; rm -f "$build_log"
echo "build took $((SECONDS - build_started)) s from the start"
step "unit, web and integration (PGlite)"; vitest run --project unit --project web --project integration
step "end-to-end (Chromium)"; KYFW_WEB_BUILT=1 bash scripts/test-e2e.sh
step "integration (PostgreSQL server)"; bash scripts/test-pg.sh
