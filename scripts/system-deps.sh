#!/usr/bin/env bash
# Install the Debian packages the tests need beyond Python: chromium and a CJK font (browser
# tests), postgresql (storage tests) and redis-server (the tests of several server processes
# start one of their own on loopback). As root with apt-get, installs what is missing;
# otherwise prints what is missing to stderr and exits 0. Fails only when apt-get fails.
set -euo pipefail

packages=(chromium fonts-wqy-microhei postgresql redis-server tmux)
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "system-deps.sh: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq "${missing[@]}" >&2
else
  echo "system-deps.sh: missing Debian packages: ${missing[*]} (as root: apt-get install ${missing[*]});" \
    "the tests that need them will fail or be skipped" >&2
fi
