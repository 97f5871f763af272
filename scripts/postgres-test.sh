#!/usr/bin/env bash
# Make sure a PostgreSQL server runs on 127.0.0.1 with a role and a database for the tests,
# and print their URL (postgresql://USER:PASSWORD@127.0.0.1:PORT/DB) on stdout, nothing else.
#
# Uses the Debian cluster (pg_lsclusters): starts it when it is down, creates one when there
# is none. The role's password is made on the first run and kept (mode 600) under
# ${XDG_STATE_HOME:-~/.local/state}/erqishi/, never in the project: later runs reuse it while
# it still logs in, so two test runs on one machine do not lock each other out (a run that
# made a new password used to break the one under way). The database is kept (tests make
# their own schemas in it). Run as root, or as postgres.
# Usage: export ERQISHI_TEST_POSTGRES_URL=$(bash scripts/postgres-test.sh)
# Environment: ERQISHI_PG_USER, ERQISHI_PG_DB (default erqishi_test for both).
set -euo pipefail

user=${ERQISHI_PG_USER:-erqishi_test}
db=${ERQISHI_PG_DB:-erqishi_test}

fail() {
  echo "postgres-test.sh: $*" >&2
  exit 1
}

case "$user$db" in
  *[!a-z0-9_]*) fail "ERQISHI_PG_USER and ERQISHI_PG_DB must be lower-case letters, digits and _" ;;
esac
command -v pg_lsclusters >/dev/null || fail "PostgreSQL is not installed (apt-get install postgresql, or scripts/system-deps.sh)"

as_postgres() {
  if [ "$(id -un)" = postgres ]; then
    "$@"
  elif [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    fail "run as root or as postgres (to manage the cluster and create the role)"
  fi
}

cluster=$(pg_lsclusters --no-header 2>/dev/null | head -n 1 || true)
if [ -z "$cluster" ]; then
  version=$({ ls /usr/lib/postgresql 2>/dev/null || true; } | sort -V | tail -n 1)
  [ -n "$version" ] || fail "no PostgreSQL server found under /usr/lib/postgresql"
  echo "postgres-test.sh: creating the PostgreSQL $version cluster main" >&2
  pg_createcluster "$version" main >&2
  cluster=$(pg_lsclusters --no-header | head -n 1)
fi
read -r version name port status _ <<<"$cluster"
if [ "$status" != online ]; then
  echo "postgres-test.sh: starting the PostgreSQL cluster $version/$name on port $port" >&2
  pg_ctlcluster "$version" "$name" start >&2
fi

pg_isready=/usr/lib/postgresql/$version/bin/pg_isready
for _ in $(seq 1 60); do
  "$pg_isready" -q -h 127.0.0.1 -p "$port" && break
  sleep 0.5
done
"$pg_isready" -q -h 127.0.0.1 -p "$port" || fail "the server $version/$name does not answer on 127.0.0.1:$port"

logs_in() {
  PGPASSWORD=$1 PGCONNECT_TIMEOUT=10 psql -X -q -w -h 127.0.0.1 -p "$port" -U "$user" -d "$db" \
    -c 'SELECT 1' >/dev/null 2>&1
}

state_dir=${XDG_STATE_HOME:-${HOME:-/tmp}/.local/state}/erqishi
(umask 077 && mkdir -p "$state_dir") || fail "cannot make $state_dir"
secret=$state_dir/postgres-test-$port-$user-$db
# one run at a time past this point: two first runs must not each set a password
exec 9>"$secret.lock"
if command -v flock >/dev/null; then
  flock -w 120 9 || fail "another run holds $secret.lock"
fi

password=""
if [ -s "$secret" ] && logs_in "$(cat "$secret")"; then
  password=$(cat "$secret")
else
  if command -v openssl >/dev/null; then
    password=$(openssl rand -hex 16)
  else
    password=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
  fi
  # The password goes through standard input, never on a command line.
  as_postgres psql -X -q -v ON_ERROR_STOP=1 -p "$port" -d postgres >/dev/null <<SQL
SELECT format('CREATE ROLE %I LOGIN', '$user') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$user')
\gexec
ALTER ROLE $user WITH LOGIN PASSWORD '$password';
SELECT format('CREATE DATABASE %I OWNER %I', '$db', '$user')
 WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$db')
\gexec
ALTER DATABASE $db OWNER TO $user;
SQL
  # Check what the tests will do: log in over TCP with the password.
  logs_in "$password" || fail "cannot log in as $user to $db on 127.0.0.1:$port (see pg_hba.conf)"
  (umask 077 && printf '%s\n' "$password" >"$secret.new" && mv "$secret.new" "$secret") ||
    fail "cannot keep the password in $secret"
fi

echo "postgresql://$user:$password@127.0.0.1:$port/$db"
