#!/usr/bin/env bash
# Everything CI runs (`npm test`): lint, types, unit + web + integration tests on embedded PGlite,
# real-browser journeys, then the integration suite once more against a real PostgreSQL server.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
step() { printf '\n== %s ==\n' "$1"; }
step "lint";          biome check . && node scripts/server-boundaries.ts
step "typecheck";     npm run --silent typecheck
step "unit, web and integration (PGlite)"; vitest run --project unit --project web --project integration
step "end-to-end (Chromium)"; bash scripts/test-e2e.sh
step "integration (PostgreSQL server)"; bash scripts/test-pg.sh
