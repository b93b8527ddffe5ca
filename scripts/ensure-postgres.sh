#!/usr/bin/env bash
# Makes sure a PostgreSQL server binary is installed (Debian's postgresql package) and prints the
# folder holding initdb / pg_ctl.
set -euo pipefail
find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
bin=$(find_bin || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  if [ "$(id -u)" != "0" ]; then
    echo "缺少 PostgreSQL：请以 root 运行 apt-get install -y postgresql" >&2
    exit 1
  fi
  echo "installing postgresql from Debian's packages…" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends postgresql >/dev/null
  bin=$(find_bin)
fi
echo "$bin"
