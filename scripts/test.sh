#!/usr/bin/env bash
# Set up (if needed) and run the whole test suite, including the doctests and the worked
# cases of ../shared/cases. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --dev
exec .venv/bin/python -m pytest "$@"
