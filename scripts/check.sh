#!/usr/bin/env bash
# Static checks: ruff, mypy --strict on src, and the layer contracts (import-linter).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --dev
.venv/bin/ruff check src tests benchmarks examples setup.py build_backend
.venv/bin/mypy --strict src
.venv/bin/lint-imports
