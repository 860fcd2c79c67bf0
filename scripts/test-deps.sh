#!/usr/bin/env bash
# What the whole test suite needs beyond the virtual environment, from Debian's
# packages, installed when missing (as root, with apt): PostgreSQL and Redis for
# tests/scaled (they start private servers on loopback), and chromium with
# Japanese fonts for tests/browser (never Playwright's own browser download).
set -euo pipefail

missing=()
{ ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; } || missing+=(postgresql)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
fc-list :lang=ja 2>/dev/null | grep -q . || missing+=(fonts-noto-cjk)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "The tests need these Debian packages: ${missing[*]}" >&2
  echo "Install them (sudo apt-get install ${missing[*]}), then run make test again." >&2
  exit 1
fi
