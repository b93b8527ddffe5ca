#!/usr/bin/env bash
# Real-browser journeys: Debian's Chromium driven by playwright-core against the built app.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
bash scripts/ensure-chromium.sh
npm run --silent build
vitest run --project e2e
