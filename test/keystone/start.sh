#!/usr/bin/env bash
# A throw-away Keystone (Debian's `keystone` package, sqlite, served by uWSGI on loopback) for
# berth's tests and for shell scripts that need a real OpenStack identity service.
#
# Usage:
#   eval "$(test/keystone/start.sh <port> <berth-url>)"   # e.g. 35357 http://127.0.0.1:8080/placement
#   ...                                                   # use the variables below
#   test/keystone/stop.sh <port>                          # or: test/keystone/stop.sh "$KEYSTONE_DIR"
#
# Environment (optional): KEYSTONE_TOKEN_EXPIRATION (seconds, default 3600), KEYSTONE_DIR
# (state directory, default /tmp/berth-keystone-<port>; wiped first).
#
# It runs keystone-manage db_sync / fernet_setup / credential_setup / bootstrap (admin user and
# project, region RegionOne, identity endpoint), then creates (test/keystone/setup.py, then the
# `openstack` commands of docs/openstack.md):
#   role `service`, project `service`: user `berth` and user `nova`, both role `service`;
#   projects `alpha` (user `alpha-member`, role member) and `beta` (user `beta-reader`, role
#   reader); role `observer` held by user `alpha-observer` in alpha (a role berth refuses);
#   catalog service `placement` (type placement) with a public endpoint at <berth-url>.
# The first start with a given Keystone version and version of this script keeps a snapshot of
# that state (/tmp/berth-keystone-state-*); later starts copy it and change the two addresses
# in the catalog (seconds instead of most of a minute). Remove the snapshot to set up anew.
# Every password is `<user>-secret` (admin: `admin-secret`). Test use only.
#
# Prints (stdout, `export NAME=value` lines): KEYSTONE_URL, KEYSTONE_DIR, KEYSTONE_PID,
# OS_AUTH_URL, OS_IDENTITY_API_VERSION, OS_USER_DOMAIN_NAME, OS_PROJECT_DOMAIN_NAME,
# OS_REGION_NAME, the admin user as OS_USERNAME / OS_PASSWORD / OS_PROJECT_NAME, and the
# credentials of the other users as KEYSTONE_<USER>_USERNAME / _PASSWORD / _PROJECT (NOVA, BERTH,
# ALPHA_MEMBER, BETA_READER, ALPHA_OBSERVER); plus BERTH_KEYSTONE_* for a berth service using it.
# Exits 77 when Keystone is not installed (apt-get install keystone), 1 on any other failure.
set -euo pipefail

port="${1:?usage: start.sh <port> <berth-url>}"
berth_url="${2:?usage: start.sh <port> <berth-url>}"
here="$(cd "$(dirname "$0")" && pwd)"
dir="${KEYSTONE_DIR:-/tmp/berth-keystone-$port}"
expiration="${KEYSTONE_TOKEN_EXPIRATION:-3600}"
url="http://127.0.0.1:$port"

if ! command -v keystone-manage >/dev/null || ! command -v uwsgi_python3 >/dev/null; then
  echo "keystone is not installed (apt-get install -y keystone)" >&2
  exit 77
fi
if [ -f "$dir/uwsgi.pid" ]; then
  "$here/stop.sh" "$dir" >/dev/null 2>&1 || true
fi
rm -rf "$dir"
mkdir -p "$dir/fernet-keys" "$dir/credential-keys"
conf="$dir/keystone.conf"
cat >"$conf" <<CONF
[DEFAULT]
log_file = $dir/keystone.log
[database]
connection = sqlite:///$dir/keystone.db
[token]
provider = fernet
expiration = 3600
[fernet_tokens]
key_repository = $dir/fernet-keys
[credential]
key_repository = $dir/credential-keys
[cache]
# In the one uWSGI process's memory: without a cache every request rebuilds its token's roles and
# catalog (about a second of CPU for a validation). Keystone invalidates what revocation changes.
enabled = true
backend = dogpile.cache.memory
[identity]
# bcrypt's cheapest cost: every password authentication hashes (12 rounds by default, a second
# of CPU on a busy machine). A test identity service, not a store of real passwords.
password_hash_algorithm = bcrypt
password_hash_rounds = 4
CONF

manage() { keystone-manage --config-file "$conf" "$@" >>"$dir/manage.log" 2>&1; }
version="$(dpkg-query -W -f='${Version}' keystone 2>/dev/null || echo unknown)"
user="$(id -un)"
group="$(id -gn)"

serve() {
  # uWSGI's --http-socket closes the connection after each answer: the Connection: close header
  # says so, or a client reusing its connection (keystoneauth, requests) races the close under load.
  OS_KEYSTONE_CONFIG_DIR="$dir" OS_KEYSTONE_CONFIG_FILES="$conf" \
    uwsgi_python3 --http-socket "127.0.0.1:$port" --wsgi-file /usr/bin/keystone-wsgi-public \
    --master --processes 1 --threads 1 --lazy-apps --die-on-term --buffer-size 65535 \
    --add-header "Connection: close" \
    --pidfile "$dir/uwsgi.pid" --daemonize "$dir/uwsgi.log"

  for _ in $(seq 1 120); do
    if curl -fsS -o /dev/null "$url/v3" 2>/dev/null; then
      break
    fi
    sleep 0.25
  done
  if ! curl -fsS -o /dev/null "$url/v3"; then
    echo "keystone did not answer on $url (see $dir/uwsgi.log, $dir/keystone.log)" >&2
    exit 1
  fi
}

# The set-up below (keystone-manage, setup.py, the `openstack` session) is a dozen python
# start-ups: most of a minute on a busy machine. Its result is kept once per Keystone version and
# version of this script and setup.py, and later starts begin from a copy of it, with the two
# addresses that belong to one start (Keystone's own endpoint and berth's) changed in the catalog.
snapshot="/tmp/berth-keystone-state-$version-$(cat "$0" "$here/setup.py" | sha256sum | cut -c1-16)"
if [ -f "$snapshot/urls" ]; then
  cp -a "$snapshot/keystone.db" "$snapshot/fernet-keys" "$snapshot/credential-keys" "$dir/"
  read -r old_url old_berth_url <"$snapshot/urls"
  /usr/bin/python3 - "$dir/keystone.db" "$old_url/v3" "$url/v3" "$old_berth_url" "$berth_url" <<'PY' ||
import sqlite3, sys
db, old_ks, new_ks, old_berth, new_berth = sys.argv[1:]
c = sqlite3.connect(db)
c.execute('pragma journal_mode=wal')
c.execute('update endpoint set url = ? where url = ?', (new_ks, old_ks))
c.execute('update endpoint set url = ? where url = ?', (new_berth, old_berth))
c.commit()
urls = sorted(u for (u,) in c.execute('select url from endpoint'))
if urls != sorted([new_ks] * 3 + [new_berth]):
    sys.exit(f'catalog after the copy: {urls}')
PY
    { echo "keystone: the copied state's catalog is not as expected (remove $snapshot)" >&2; exit 1; }
  sed -i "s/^expiration = 3600$/expiration = $expiration/" "$conf"
  serve
else
  # db_sync is the slowest step (~all migrations): reuse a migrated database of this version.
  template="/tmp/berth-keystone-template-$version.db"
  if [ -f "$template" ]; then
    cp "$template" "$dir/keystone.db"
  else
    manage db_sync
    cp "$dir/keystone.db" "$template.$$" && mv "$template.$$" "$template"
  fi
  # WAL: Keystone holds a read transaction open on one connection while it writes on another,
  # which a rollback-journal sqlite database refuses ("database is locked").
  /usr/bin/python3 -c 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute("pragma journal_mode=wal")' \
    "$dir/keystone.db"
  manage fernet_setup --keystone-user "$user" --keystone-group "$group"
  manage credential_setup --keystone-user "$user" --keystone-group "$group"
  manage bootstrap --bootstrap-password admin-secret --bootstrap-username admin \
    --bootstrap-project-name admin --bootstrap-role-name admin \
    --bootstrap-service-name keystone --bootstrap-region-id RegionOne \
    --bootstrap-admin-url "$url/v3" --bootstrap-public-url "$url/v3" \
    --bootstrap-internal-url "$url/v3"
  serve
  /usr/bin/python3 "$here/setup.py" "$url/v3" "$berth_url" >>"$dir/manage.log" 2>&1 ||
    { echo "keystone setup failed (see $dir/manage.log)" >&2; exit 1; }
  # berth's service user, Nova's, and the catalog entry: the commands of docs/openstack.md, as an
  # operator types them (one `openstack` session reading them from stdin).
  OS_AUTH_URL=$url/v3 OS_IDENTITY_API_VERSION=3 OS_USERNAME=admin OS_PASSWORD=admin-secret \
    OS_PROJECT_NAME=admin OS_USER_DOMAIN_NAME=Default OS_PROJECT_DOMAIN_NAME=Default \
    openstack >>"$dir/manage.log" 2>&1 <<COMMANDS ||
user create --domain default --password berth-secret berth
role add --project service --user berth service
user create --domain default --password nova-secret nova
role add --project service --user nova service
service create --name placement --description berth placement
endpoint create --region RegionOne placement public $berth_url
COMMANDS
    { echo "keystone catalog setup failed (see $dir/manage.log)" >&2; exit 1; }
  if ! grep -q "public.*$berth_url" <(OS_AUTH_URL=$url/v3 OS_IDENTITY_API_VERSION=3 OS_USERNAME=admin \
    OS_PASSWORD=admin-secret OS_PROJECT_NAME=admin OS_USER_DOMAIN_NAME=Default \
    OS_PROJECT_DOMAIN_NAME=Default openstack endpoint list --service placement -f value 2>>"$dir/manage.log"); then
    echo "keystone catalog setup failed: no placement endpoint (see $dir/manage.log)" >&2
    exit 1
  fi
  # The snapshot: sqlite's online backup (consistent while Keystone runs), the keys, the URLs.
  mkdir "$snapshot.$$"
  /usr/bin/python3 -c 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).backup(sqlite3.connect(sys.argv[2]))' \
    "$dir/keystone.db" "$snapshot.$$/keystone.db"
  cp -a "$dir/fernet-keys" "$dir/credential-keys" "$snapshot.$$/"
  echo "$url $berth_url" >"$snapshot.$$/urls"
  mv -T "$snapshot.$$" "$snapshot" 2>/dev/null || rm -rf "$snapshot.$$"

  if [ "$expiration" != 3600 ]; then
    # Short-lived tokens only after the setup (which needs its admin token for longer): reload.
    sed -i "s/^expiration = 3600$/expiration = $expiration/" "$conf"
    stop_pid="$(cat "$dir/uwsgi.pid")"
    kill -INT "$stop_pid"
    for _ in $(seq 1 40); do
      kill -0 "$stop_pid" 2>/dev/null || break
      sleep 0.25
    done
    serve
  fi
fi

cat <<ENV
export KEYSTONE_URL=$url
export KEYSTONE_DIR=$dir
export KEYSTONE_PID=$(cat "$dir/uwsgi.pid")
export OS_AUTH_URL=$url/v3
export OS_IDENTITY_API_VERSION=3
export OS_USER_DOMAIN_NAME=Default
export OS_PROJECT_DOMAIN_NAME=Default
export OS_REGION_NAME=RegionOne
export OS_USERNAME=admin
export OS_PASSWORD=admin-secret
export OS_PROJECT_NAME=admin
export KEYSTONE_ADMIN_USERNAME=admin
export KEYSTONE_ADMIN_PASSWORD=admin-secret
export KEYSTONE_ADMIN_PROJECT=admin
export KEYSTONE_NOVA_USERNAME=nova
export KEYSTONE_NOVA_PASSWORD=nova-secret
export KEYSTONE_NOVA_PROJECT=service
export KEYSTONE_BERTH_USERNAME=berth
export KEYSTONE_BERTH_PASSWORD=berth-secret
export KEYSTONE_BERTH_PROJECT=service
export KEYSTONE_ALPHA_MEMBER_USERNAME=alpha-member
export KEYSTONE_ALPHA_MEMBER_PASSWORD=alpha-member-secret
export KEYSTONE_ALPHA_MEMBER_PROJECT=alpha
export KEYSTONE_BETA_READER_USERNAME=beta-reader
export KEYSTONE_BETA_READER_PASSWORD=beta-reader-secret
export KEYSTONE_BETA_READER_PROJECT=beta
export KEYSTONE_ALPHA_OBSERVER_USERNAME=alpha-observer
export KEYSTONE_ALPHA_OBSERVER_PASSWORD=alpha-observer-secret
export KEYSTONE_ALPHA_OBSERVER_PROJECT=alpha
export BERTH_KEYSTONE_URL=$url
export BERTH_KEYSTONE_USERNAME=berth
export BERTH_KEYSTONE_PASSWORD=berth-secret
export BERTH_KEYSTONE_PROJECT=service
ENV
