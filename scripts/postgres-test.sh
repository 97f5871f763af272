#!/usr/bin/env bash
# Make sure a PostgreSQL server runs on 127.0.0.1 with a role and a database for the tests,
# and print their URL (postgresql://USER:PASSWORD@127.0.0.1:PORT/DB) on stdout, nothing else.
#
# Uses the Debian cluster (pg_lsclusters): starts it when it is down, creates one when there
# is none. The role's password is made on the first run and kept in the postgres user's home
# directory (owned by postgres, mode 600), never in the project: later runs, whoever runs
# them, reuse it while it logs in, so two test runs on one machine do not lock each other
# out (a run that made a new password used to break the one under way). It is made anew only
# when the server refuses the kept one (or the role is gone); any other failure to log in is
# an error. Runs take turns (a lock beside it), from the cluster's start on. The database is
# kept (tests make their own schemas in it). Run as root, or as postgres.
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

# Where the password is kept: the postgres user's home, which only postgres (or root) may
# write, so nobody else can plant a file or a link where this script writes.
pghome=$(getent passwd postgres | cut -d: -f6)
[ -n "$pghome" ] && [ -d "$pghome" ] || fail "the postgres user has no home directory"
read -r owner mode <<<"$(stat -c '%U %a' "$pghome")"
case "$owner" in postgres | root) ;; *) fail "$pghome belongs to $owner, not postgres" ;; esac
(((8#$mode & 8#022) == 0)) || fail "$pghome may be written by others (mode $mode)"
lock=$pghome/erqishi-test.lock
for path in "$lock" "$pghome/erqishi-test-"*; do
  if [ -L "$path" ] || { [ -e "$path" ] && [ ! -f "$path" ]; }; then
    fail "$path is not a plain file"
  fi
done
as_postgres sh -c 'umask 077 && : >>"$1"' sh "$lock" || fail "cannot make $lock"
exec 9<"$lock"
if command -v flock >/dev/null; then  # one run at a time from here on
  flock -w 120 9 || fail "another run holds $lock"
fi

cluster=$(pg_lsclusters --no-header 2>/dev/null | head -n 1 || true)
if [ -z "$cluster" ]; then
  version=$({ ls /usr/lib/postgresql 2>/dev/null || true; } | sort -V | tail -n 1)
  [ -n "$version" ] || fail "no PostgreSQL server found under /usr/lib/postgresql"
  echo "postgres-test.sh: creating the PostgreSQL $version cluster main" >&2
  pg_createcluster "$version" main >&2 9<&-
  cluster=$(pg_lsclusters --no-header | head -n 1)
fi
read -r version name port status _ <<<"$cluster"
if [ "$status" != online ]; then
  echo "postgres-test.sh: starting the PostgreSQL cluster $version/$name on port $port" >&2
  # The server must not inherit the lock's descriptor (9<&-): it would hold the lock for as
  # long as it runs, and every later run would wait for it in vain.
  pg_ctlcluster "$version" "$name" start >&2 9<&-
fi

pg_isready=/usr/lib/postgresql/$version/bin/pg_isready
for _ in $(seq 1 60); do
  "$pg_isready" -q -h 127.0.0.1 -p "$port" && break
  sleep 0.5
done
"$pg_isready" -q -h 127.0.0.1 -p "$port" || fail "the server $version/$name does not answer on 127.0.0.1:$port"

# psql's complaint when $1 does not log in (nothing when it does; the status says which)
login_error() {
  PGPASSWORD=$1 PGCONNECT_TIMEOUT=10 psql -X -q -w -h 127.0.0.1 -p "$port" -U "$user" -d "$db" \
    -c 'SELECT 1' 2>&1 >/dev/null
}

secret=$pghome/erqishi-test-$port-$user-$db
password=""
if [ -s "$secret" ]; then
  kept=$(cat "$secret")
  if why=$(login_error "$kept"); then
    password=$kept
  else
    case "$why" in
      *"password authentication failed"* | *"does not exist"*) ;;  # made anew below
      *) fail "cannot log in as $user to $db on 127.0.0.1:$port with the kept password: $why" ;;
    esac
  fi
fi
if [ -z "$password" ]; then
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
  why=$(login_error "$password") || fail "cannot log in as $user to $db on 127.0.0.1:$port (see pg_hba.conf): $why"
  as_postgres sh -c 'umask 077 && cat >"$1.new" && mv "$1.new" "$1"' sh "$secret" <<<"$password" ||
    fail "cannot keep the password in $secret"
fi

echo "postgresql://$user:$password@127.0.0.1:$port/$db"
