#!/usr/bin/env bash
# Create a virtual environment at the repository root and install erqishi with its pinned
# dependencies. Idempotent: a second run only re-checks the install.
#
# Usage: bash scripts/setup.sh [--dev] [--compiled]
#   --dev       also the test and check tools, the rl extra (erqishi.rl) and the train extra
#               (examples/train_masked_ppo.py: torch 2.13.0, its CPU build, and sb3-contrib)
#               and the ray extra (erqishi sim --backend ray)
#   --compiled  the compiled build: the engine, analysis, bots and table compiled with mypyc
#               (needs a C compiler and the Python headers; without them the pure build is
#               installed, with a warning). A regular install, not an editable one: after
#               changing the source, run this again to rebuild.
# Environment: PYTHON (default python3), ERQISHI_VENV (default .venv), ERQISHI_COMPILED=1 (as
# --compiled), CC (the C compiler, default cc).
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
venv=${ERQISHI_VENV:-.venv}
dev=0
compiled=0
case "${ERQISHI_COMPILED:-}" in 1 | true | yes) compiled=1 ;; esac
for arg in "$@"; do
  case "$arg" in
    --dev) dev=1 ;;
    --compiled) compiled=1 ;;
    *) echo "setup.sh: unknown option $arg (use --dev, --compiled)" >&2; exit 2 ;;
  esac
done
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "erqishi needs Python 3.11 or newer; $python is $("$python" --version 2>&1)" >&2
  exit 1
fi
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
extra=""
[ "$dev" = 1 ] && extra="[dev,rl,train,ray]"
pip=("$venv/bin/python" -m pip install --quiet --disable-pip-version-check -c constraints.txt)
stamp="$venv/erqishi-compiled.stamp"

if [ "$compiled" = 1 ]; then
  if ! command -v "${CC:-cc}" >/dev/null 2>&1; then
    echo "setup.sh: warning: no C compiler (${CC:-cc}): installing the pure build instead" >&2
    compiled=0
  elif ! "$venv/bin/python" -c 'import os, sysconfig, sys; sys.exit(not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
    echo "setup.sh: warning: no Python headers (Python.h): installing the pure build instead" >&2
    compiled=0
  fi
fi

if [ "$compiled" = 1 ]; then
  # rebuild only when the source (with its package data: the learned bot's weights, the
  # web client, the styles), the build files or the pins changed
  source_id=$( { cat pyproject.toml setup.py build_backend/*.py constraints.txt; echo "$extra"; \
    find src -type f ! -path '*/__pycache__/*' ! -path '*.egg-info/*' ! -name '*.so' -print0 | sort -z \
      | xargs -0 sha256sum; } | sha256sum | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$source_id" ] \
    && "$venv/bin/python" -c 'import erqishi, sys; sys.exit(erqishi.build() != "compiled")' 2>/dev/null; then
    exit 0
  fi
  rm -f "$stamp"
  echo "setup.sh: compiling erqishi with mypyc (a few minutes)" >&2
  ERQISHI_COMPILED=1 "${pip[@]}" ".${extra}"
  "$venv/bin/python" -c 'import erqishi, sys; sys.exit(erqishi.build() != "compiled")' \
    || { echo "setup.sh: the compiled build did not install" >&2; exit 1; }
  echo "$source_id" > "$stamp"
else
  rm -f "$stamp"
  "${pip[@]}" -e ".${extra}"
fi
