#!/usr/bin/env bash
# Makes sure Debian's Chromium (and a CJK font, so Chinese pages render and screenshots are
# readable) is installed, and poppler-utils (pdftotext, pdftoppm: the journeys read the downloaded
# PDF report), and LibreOffice Writer without a GUI (soffice: the AI-writing journey converts the
# .docx to PDF). Never downloads a browser build: only Debian's packages.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v pdftotext >/dev/null 2>&1 && command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
command -v soffice >/dev/null 2>&1 || need+=(libreoffice-writer-nogui)
if ! fc-list 2>/dev/null | grep -qi "noto.*cjk\|wqy\|droid.*fallback"; then need+=(fonts-wqy-microhei); fi
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != "0" ]; then
  echo "缺少 ${need[*]}：请以 root 运行 apt-get install -y ${need[*]}" >&2
  exit 1
fi
echo "installing ${need[*]} from Debian's packages…" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null
apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${need[@]}" >/dev/null
command -v chromium >/dev/null
command -v pdftotext >/dev/null
command -v soffice >/dev/null
