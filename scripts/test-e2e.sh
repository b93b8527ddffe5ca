#!/usr/bin/env bash
# Real-browser journeys: Debian's Chromium driven by playwright-core against the built app.
# KYFW_WEB_BUILT=1 (scripts/test.sh, which builds beside lint) skips the build. Arguments go to
# vitest: `bash scripts/test-e2e.sh apps/e2e/tests/accounts.test.ts` runs one journey file.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
if [ "${KYFW_WEB_BUILT:-}" != "1" ]; then
  bash scripts/ensure-chromium.sh
  npm run --silent build
fi
vitest run --project e2e "$@"
