#!/usr/bin/env bash
# A throw-away reference OpenStack Placement 8.0 (Debian's placement-api, served by uWSGI on
# loopback, noauth2) against a database of its own, for berth's migration tests and scripts.
#
# Usage:
#   eval "$(test/placement-ref/start.sh <port> <db-url> [--fresh|--sync-only])"
#       <db-url>: postgresql+psycopg2://postgres@127.0.0.1/<db> or mysql+pymysql://root@127.0.0.1/<db>
#       The database is created when missing; --fresh drops and re-creates it first.
#       It is then at `placement-manage db sync`'s head: a database made here is a copy of one
#       only `placement-manage db sync` has touched (see "The synced database" below), an existing
#       one is synced unless its alembic_version is already that head (db sync would do nothing).
#       --sync-only stops there (no server): the state a `berth export placement --to` target
#       must be in. The synced copies are kept per Placement version and version of this script
#       (PostgreSQL database berth_placement_ref_synced_<key>, /tmp/berth-placement-ref-synced-
#       <key>-mariadb/); drop or remove them to sync anew.
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
db_base="${db_url%/*}"

if [ -f "$dir/uwsgi.pid" ]; then
  "$here/stop.sh" "$dir" >/dev/null 2>&1 || true
fi
rm -rf "$dir"
mkdir -p "$dir"
# Placement's python start-ups (uWSGI's worker, placement-manage) import eventlet, which imports
# dnspython for a green resolver Placement never uses: a fifth of each start-up's CPU.
export EVENTLET_NO_GREENDNS=yes
write_conf() { # <file> <db-url>
  cat >"$1" <<CONF
[DEFAULT]
log_file = $dir/placement.log
debug = false
[api]
auth_strategy = noauth2
[placement_database]
connection = $2
CONF
}
sync_db() { # <db-url>: placement-manage db sync (a python start-up: seconds of CPU)
  write_conf "$dir/sync.conf" "$1"
  placement-manage --config-file "$dir/sync.conf" db sync >>"$dir/manage.log" 2>&1 ||
    { echo "placement-manage db sync failed (see $dir/manage.log)" >&2; exit 1; }
}

# The synced database: `placement-manage db sync` into an empty database gives the same schema
# and rows every time for one Placement version, so it runs once per Placement version and
# version of this script; later databases are copies of that result (PostgreSQL: a template
# database; MariaDB: a dump of it). The head revision it reached is kept with it: an existing
# database at that revision is one db sync would leave alone.
version="$(dpkg-query -W -f='${Version}' python3-placement 2>/dev/null || echo unknown)"
key="$(printf '%s\n' "$version" | cat - "$0" | sha256sum | cut -c1-12)"
case "$db_url" in
  postgresql*)
    /usr/bin/python3 -c 'import psycopg2' 2>/dev/null ||
      { echo "python3-psycopg2 is not installed" >&2; exit 77; }
    hostpart="${db_url#*://}"; hostpart="${hostpart%%/*}"; host="${hostpart#*@}"; user="${hostpart%@*}"
    sql() { psql -h "${host%%:*}" -U "$user" -d "${2:-postgres}" -v ON_ERROR_STOP=1 -qtAc "$1"; }
    sql 'SELECT 1' >/dev/null 2>&1 || { echo "PostgreSQL does not answer at $host" >&2; exit 77; }
    tpl="berth_placement_ref_synced_$key"
    # Its comment is the head revision; nothing connects to it (a copy needs it unused).
    head="$(sql "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = '$tpl'")"
    if [ -z "$head" ]; then
      tmp="${tpl}_tmp_$$"
      sql "DROP DATABASE IF EXISTS \"$tmp\"" >/dev/null 2>&1
      sql "CREATE DATABASE \"$tmp\"" >/dev/null
      sync_db "$db_base/$tmp"
      head="$(sql 'SELECT version_num FROM alembic_version' "$tmp")"
      sql "COMMENT ON DATABASE \"$tmp\" IS '$head'" >/dev/null
      # Another start may have made it meanwhile: theirs is kept, this one dropped.
      sql "ALTER DATABASE \"$tmp\" RENAME TO \"$tpl\"" >/dev/null 2>&1 ||
        sql "DROP DATABASE IF EXISTS \"$tmp\"" >/dev/null
    fi
    if [ "$mode" = --fresh ]; then sql "DROP DATABASE IF EXISTS \"$db_name\" WITH (FORCE)" >/dev/null 2>&1; fi
    if ! sql "SELECT 1 FROM pg_database WHERE datname = '$db_name'" | grep -q 1; then
      # A concurrent copy of the same template can be refused for a moment ("being accessed").
      for attempt in 1 2 3 4 5 6 7 8 9 10; do
        sql "CREATE DATABASE \"$db_name\" TEMPLATE \"$tpl\"" >/dev/null 2>>"$dir/manage.log" && break
        [ "$attempt" = 10 ] && { echo "could not copy $tpl into $db_name (see $dir/manage.log)" >&2; exit 1; }
        sleep 0.2
      done
    elif [ "$(sql 'SELECT version_num FROM alembic_version' "$db_name" 2>/dev/null || true)" != "$head" ]; then
      sync_db "$db_url"
    fi
    ;;
  mysql*)
    /usr/bin/python3 -c 'import pymysql' 2>/dev/null ||
      { echo "python3-pymysql is not installed" >&2; exit 77; }
    hostpart="${db_url#*://}"; hostpart="${hostpart%%/*}"; host="${hostpart#*@}"; user="${hostpart%@*}"
    sql() { mysql -h "${host%%:*}" -u "$user" -N -e "$1" ${2:+"$2"}; }
    sql 'SELECT 1' >/dev/null 2>&1 || { echo "MariaDB/MySQL does not answer at $host" >&2; exit 77; }
    # The dump (tables and rows, no database name) and its head revision, in a directory made
    # whole by one rename.
    snap="/tmp/berth-placement-ref-synced-$key-mariadb"
    if [ ! -f "$snap/head" ]; then
      tmp="berth_placement_ref_synced_tmp_$$"
      sql "DROP DATABASE IF EXISTS \`$tmp\`"
      sql "CREATE DATABASE \`$tmp\`"
      sync_db "$db_base/$tmp"
      mkdir -p "$snap.$$"
      mysqldump -h "${host%%:*}" -u "$user" --skip-comments --single-transaction "$tmp" >"$snap.$$/dump.sql"
      sql 'SELECT version_num FROM alembic_version' "$tmp" >"$snap.$$/head"
      sql "DROP DATABASE \`$tmp\`"
      mv -T "$snap.$$" "$snap" 2>/dev/null || rm -rf "$snap.$$"
    fi
    head="$(cat "$snap/head")"
    if [ "$mode" = --fresh ]; then sql "DROP DATABASE IF EXISTS \`$db_name\`"; fi
    if [ -z "$(sql "SHOW DATABASES LIKE '$db_name'")" ]; then
      sql "CREATE DATABASE \`$db_name\`"
      mysql -h "${host%%:*}" -u "$user" "$db_name" <"$snap/dump.sql"
    elif [ "$(sql 'SELECT version_num FROM alembic_version' "$db_name" 2>/dev/null || true)" != "$head" ]; then
      sync_db "$db_url"
    fi
    ;;
  *) echo "unsupported database url: $db_url (postgresql+psycopg2://… or mysql+pymysql://…)" >&2; exit 1 ;;
esac

conf="$dir/placement.conf"
write_conf "$conf" "$db_url"
if [ -n "${PLACEMENT_REF_POLICY:-}" ]; then
  printf '[oslo_policy]\npolicy_file = %s\n' "$(readlink -f "$PLACEMENT_REF_POLICY")" >>"$conf"
fi

if [ "$mode" != --sync-only ]; then
  OS_PLACEMENT_CONFIG_DIR="$dir" uwsgi_python3 --http-socket "127.0.0.1:$port" \
    --wsgi-file /usr/bin/placement-api --master --processes 1 --threads 4 --lazy-apps \
    --die-on-term --enable-threads --buffer-size 65535 --add-header "Connection: close" \
    --pidfile "$dir/uwsgi.pid" --daemonize "$dir/uwsgi.log"
  for _ in $(seq 1 600); do
    if curl -fsS -o /dev/null "$url/" 2>/dev/null; then break; fi
    sleep 0.1
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
