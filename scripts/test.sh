#!/usr/bin/env bash
# Set up (if needed) and run the whole test suite, including the doctests and the worked
# cases of ../shared/cases. Extra arguments go to pytest.
#
# Also installs the Debian packages the tests need (scripts/system-deps.sh), makes sure a
# PostgreSQL server runs for the storage tests (scripts/postgres-test.sh, unless
# ERQISHI_TEST_POSTGRES_URL is set) and sets ERQISHI_REQUIRE_ALL=1: tests that lack what they
# need fail instead of being skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --dev
bash scripts/system-deps.sh || echo "test.sh: warning: scripts/system-deps.sh failed; continuing" >&2
if [ -z "${ERQISHI_TEST_POSTGRES_URL:-}" ]; then
  if url=$(bash scripts/postgres-test.sh); then
    export ERQISHI_TEST_POSTGRES_URL=$url
  else
    echo "test.sh: warning: no PostgreSQL for the tests (scripts/postgres-test.sh failed); its tests will fail" >&2
  fi
fi
export ERQISHI_REQUIRE_ALL=1
exec .venv/bin/python -m pytest "$@"
