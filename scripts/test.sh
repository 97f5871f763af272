#!/usr/bin/env bash
# Set up (if needed) and run the whole test suite, including the doctests and the worked
# cases of ../shared/cases. Extra arguments go to pytest.
#
# Also installs the Debian packages the tests need (scripts/system-deps.sh), makes sure a
# PostgreSQL server runs for the storage tests (scripts/postgres-test.sh, unless
# ERQISHI_TEST_POSTGRES_URL is set) and sets ERQISHI_REQUIRE_ALL=1: tests that lack what they
# need fail instead of being skipped.
#
# ERQISHI_COMPILED=1 runs the same suite on the compiled build, installed in .venv-compiled/
# (or ERQISHI_VENV) by scripts/setup.sh --compiled; the default is the pure build in .venv/.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${ERQISHI_COMPILED:-}" in
  1 | true | yes)
    export ERQISHI_VENV=${ERQISHI_VENV:-.venv-compiled}
    bash scripts/setup.sh --dev --compiled
    export ERQISHI_EXPECT_BUILD=compiled ;;
  *)
    export ERQISHI_VENV=${ERQISHI_VENV:-.venv}
    bash scripts/setup.sh --dev
    export ERQISHI_EXPECT_BUILD=pure ;;
esac
bash scripts/system-deps.sh || echo "test.sh: warning: scripts/system-deps.sh failed; continuing" >&2
if [ -z "${ERQISHI_TEST_POSTGRES_URL:-}" ]; then
  if url=$(bash scripts/postgres-test.sh); then
    export ERQISHI_TEST_POSTGRES_URL=$url
  else
    echo "test.sh: warning: no PostgreSQL for the tests (scripts/postgres-test.sh failed); its tests will fail" >&2
  fi
fi
export ERQISHI_REQUIRE_ALL=1
exec "$ERQISHI_VENV/bin/python" -m pytest "$@"
