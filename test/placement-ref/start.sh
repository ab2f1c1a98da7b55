#!/usr/bin/env bash
# A throw-away reference OpenStack Placement 8.0 (Debian's placement-api, served by uWSGI on
# loopback, noauth2) against a database of its own, for berth's migration tests and scripts.
#
# Usage:
#   eval "$(test/placement-ref/start.sh <port> <db-url> [--fresh|--sync-only])"
#       <db-url>: postgresql+psycopg2://postgres@127.0.0.1/<db> or mysql+pymysql://root@127.0.0.1/<db>
#       The database is created when missing; --fresh drops and re-creates it first.
#       `placement-manage db sync` runs every time (idempotent). --sync-only stops after it
#       (no server): the state a `berth export placement --to` target must be in.
#   curl -H 'X-Auth-Token: admin' -H 'OpenStack-API-Version: placement 1.39' $PLACEMENT_REF_URL/
#   test/placement-ref/stop.sh <port>                    # or: stop.sh "$PLACEMENT_REF_DIR"
#
# PLACEMENT_REF_POLICY=<policy.yaml>: Placement's policy file (e.g. docs/placement-read-only-policy.yaml).
# Never touches /etc/placement/placement.conf: the config is $PLACEMENT_REF_DIR/placement.conf
# (PLACEMENT_REF_DIR, default /tmp/berth-placement-ref-<port>; wiped first).
# Prints `export` lines: PLACEMENT_REF_URL, PLACEMENT_REF_DIR, PLACEMENT_REF_PID, PLACEMENT_REF_DB.
# Exits 77 when Placement is not installed (or the database driver for <db-url> is missing, or
# the database server does not answer), 1 on any other failure.
set -euo pipefail

port="${1:?usage: start.sh <port> <db-url> [--fresh|--sync-only]}"
db_url="${2:?usage: start.sh <port> <db-url> [--fresh|--sync-only]}"
mode="${3:-}"
dir="${PLACEMENT_REF_DIR:-/tmp/berth-placement-ref-$port}"
here="$(cd "$(dirname "$0")" && pwd)"
url="http://127.0.0.1:$port"

if ! command -v placement-manage >/dev/null || ! command -v uwsgi_python3 >/dev/null; then
  echo "placement is not installed (apt-get install -y placement-api python3-placement" \
    "python3-psycopg2 python3-pymysql uwsgi-plugin-python3 uwsgi-core)" >&2
  exit 77
fi

db_name="${db_url##*/}"
db_name="${db_name%%\?*}"
case "$db_url" in
  postgresql*)
    /usr/bin/python3 -c 'import psycopg2' 2>/dev/null ||
      { echo "python3-psycopg2 is not installed" >&2; exit 77; }
    hostpart="${db_url#*://}"; hostpart="${hostpart%%/*}"; host="${hostpart#*@}"; user="${hostpart%@*}"
    sql() { psql -h "${host%%:*}" -U "$user" -d postgres -qtAc "$1"; }
    sql 'SELECT 1' >/dev/null 2>&1 || { echo "PostgreSQL does not answer at $host" >&2; exit 77; }
    if [ "$mode" = --fresh ]; then sql "DROP DATABASE IF EXISTS \"$db_name\" WITH (FORCE)" >/dev/null 2>&1; fi
    sql "SELECT 1 FROM pg_database WHERE datname = '$db_name'" | grep -q 1 ||
      sql "CREATE DATABASE \"$db_name\"" >/dev/null
    ;;
  mysql*)
    /usr/bin/python3 -c 'import pymysql' 2>/dev/null ||
      { echo "python3-pymysql is not installed" >&2; exit 77; }
    hostpart="${db_url#*://}"; hostpart="${hostpart%%/*}"; host="${hostpart#*@}"; user="${hostpart%@*}"
    sql() { mysql -h "${host%%:*}" -u "$user" -N -e "$1"; }
    sql 'SELECT 1' >/dev/null 2>&1 || { echo "MariaDB/MySQL does not answer at $host" >&2; exit 77; }
    if [ "$mode" = --fresh ]; then sql "DROP DATABASE IF EXISTS \`$db_name\`"; fi
    sql "CREATE DATABASE IF NOT EXISTS \`$db_name\`"
    ;;
  *) echo "unsupported database url: $db_url (postgresql+psycopg2://… or mysql+pymysql://…)" >&2; exit 1 ;;
esac

if [ -f "$dir/uwsgi.pid" ]; then
  "$here/stop.sh" "$dir" >/dev/null 2>&1 || true
fi
rm -rf "$dir"
mkdir -p "$dir"
conf="$dir/placement.conf"
cat >"$conf" <<CONF
[DEFAULT]
log_file = $dir/placement.log
debug = false
[api]
auth_strategy = noauth2
[placement_database]
connection = $db_url
CONF
if [ -n "${PLACEMENT_REF_POLICY:-}" ]; then
  printf '[oslo_policy]\npolicy_file = %s\n' "$(readlink -f "$PLACEMENT_REF_POLICY")" >>"$conf"
fi

placement-manage --config-file "$conf" db sync >>"$dir/manage.log" 2>&1 ||
  { echo "placement-manage db sync failed (see $dir/manage.log)" >&2; exit 1; }

if [ "$mode" != --sync-only ]; then
  OS_PLACEMENT_CONFIG_DIR="$dir" uwsgi_python3 --http-socket "127.0.0.1:$port" \
    --wsgi-file /usr/bin/placement-api --master --processes 1 --threads 4 --lazy-apps \
    --die-on-term --enable-threads --buffer-size 65535 --add-header "Connection: close" \
    --pidfile "$dir/uwsgi.pid" --daemonize "$dir/uwsgi.log"
  for _ in $(seq 1 120); do
    if curl -fsS -o /dev/null "$url/" 2>/dev/null; then break; fi
    sleep 0.25
  done
  if ! curl -fsS -o /dev/null "$url/"; then
    echo "placement did not answer on $url (see $dir/uwsgi.log, $dir/placement.log)" >&2
    exit 1
  fi
fi

cat <<ENV
export PLACEMENT_REF_URL=$url
export PLACEMENT_REF_DIR=$dir
export PLACEMENT_REF_PID=$(cat "$dir/uwsgi.pid" 2>/dev/null || true)
export PLACEMENT_REF_DB=$db_url
ENV
