#!/usr/bin/env bash
# Regenerates the two committed fixtures that need a real office suite, from the generated
# sample .docx: test/extract/fixtures/thesis.doc (Word 97–2003) and thesis-libreoffice.pdf (a real
# producer's PDF with an embedded subset CJK font). Run once by hand, not in tests or CI:
#   apt-get install -y --no-install-recommends libreoffice-writer-nogui fonts-wqy-microhei
#   bash packages/simcheck/test/fixtures-src/make-office-fixtures.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../extract/fixtures"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
npx node "$here/write-fixtures.ts" "$work"
soffice --headless --norestore --convert-to 'doc:MS Word 97' "$work/thesis.docx" --outdir "$work/lo" >/dev/null
soffice --headless --norestore --convert-to pdf "$work/thesis.docx" --outdir "$work/lo" >/dev/null
mkdir -p "$out"
cp "$work/lo/thesis.doc" "$out/thesis.doc"
cp "$work/lo/thesis.pdf" "$out/thesis-libreoffice.pdf"
ls -l "$out"
