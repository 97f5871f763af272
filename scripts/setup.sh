#!/usr/bin/env bash
# Create .venv/ at the repository root and install erqishi with its pinned dependencies.
# Idempotent: a second run only re-checks the install. Usage: bash scripts/setup.sh [--dev]
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "erqishi needs Python 3.11 or newer; $python is $("$python" --version 2>&1)" >&2
  exit 1
fi
[ -x .venv/bin/python ] || "$python" -m venv .venv
extra=""
[ "${1:-}" = "--dev" ] && extra="[dev,rl]"  # developers and CI also get the rl extra (erqishi.rl)
.venv/bin/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e ".${extra}"
