#!/usr/bin/env bash
# Nova's own report client (nova.scheduler.client.report.SchedulerReportClient, Debian
# python3-nova) through a compute lifecycle against berth: provider tree with NUMA children and a
# sharing provider, allocation candidates, claim, cold migration + confirm, resize, reshape,
# deletes (test/conformance/nova-lifecycle.py). Usage: npm run conformance:nova
#
# Two auth modes, in this order (NOVA_LIFECYCLE_MODES, default "token keystone"):
#   token     BERTH_AUTH=on, a berth API token with role `service`, keystoneauth admin_token plugin
#   keystone  BERTH_AUTH=keystone, test/keystone/start.sh, keystoneauth password plugin (user
#             nova, project service); the client finds berth through the Keystone catalog
# Builds nothing: uses dist/ (npm run build first). Environment: the PostgreSQL server of
# DATABASE_URL (else CONFORMANCE_PG, default postgres://postgres@127.0.0.1:5432) with a database of
# its own, NOVA_LIFECYCLE_DB (default berth_nova_lifecycle; created if missing, reset each mode);
# REDIS_URL if set; ports NOVA_LIFECYCLE_PORT / NOVA_LIFECYCLE_KEYSTONE_PORT (default: free ports).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
PG="${CONFORMANCE_PG:-postgres://postgres@127.0.0.1:5432}"
DB="${NOVA_LIFECYCLE_DB:-berth_nova_lifecycle}"
# Same server as DATABASE_URL, never its database (this script resets the one it uses).
DATABASE_URL="$(node -e '
  const u = new URL(process.argv[1]);
  u.pathname = "/" + encodeURIComponent(process.argv[2]);
  console.log(u.toString());
' "${DATABASE_URL:-$PG}" "$DB")"
export DATABASE_URL
LOG_DIR="${NOVA_LIFECYCLE_LOG_DIR:-$ROOT/dist}"
MODES="${NOVA_LIFECYCLE_MODES:-token keystone}"
# One process: the client reads its own writes at once.
export BERTH_WORKERS=1

if [ ! -f dist/src/cli/main.js ]; then
  echo "dist/ missing: npm run build first" >&2
  exit 1
fi
if ! /usr/bin/python3 -c 'import nova.scheduler.client.report' 2>/dev/null; then
  echo "python3-nova missing: apt-get install -y python3-nova" >&2
  exit 1
fi
free_port() {
  /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
PORT="${NOVA_LIFECYCLE_PORT:-$(free_port)}"
ENDPOINT="http://127.0.0.1:$PORT/placement"

# The database of DATABASE_URL, created if missing (as osc-smoke.sh does).
node -e '
  const { Client } = require("pg");
  const u = new URL(process.argv[1]);
  const db = decodeURIComponent(u.pathname.slice(1));
  u.pathname = "/postgres";
  const c = new Client({ connectionString: u.toString() });
  c.connect()
    .then(() => c.query("SELECT 1 FROM pg_database WHERE datname = $1", [db]))
    .then((r) => (r.rowCount ? null : c.query(`CREATE DATABASE "${db}"`)))
    .then(() => c.end())
    .catch((e) => { console.error(e.message); process.exit(1); });
' "$DATABASE_URL"

SERVER=""
KEYSTONE_STATE=""
cleanup() {
  if [ -n "$SERVER" ]; then
    kill "$SERVER" 2>/dev/null || true
    wait "$SERVER" 2>/dev/null || true
  fi
  if [ -n "$KEYSTONE_STATE" ]; then
    test/keystone/stop.sh "$KEYSTONE_STATE" >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT

# start_berth <mode-name> [VAR=value ...]: reset the database, serve on $PORT, wait for /placement/.
start_berth() {
  local name="$1"
  shift
  node bin/berth.js migrate >/dev/null
  node bin/berth.js db reset --yes >/dev/null
  env "$@" PORT="$PORT" BERTH_HOST=127.0.0.1 LOG_LEVEL=warn \
    node bin/berth.js serve >"$LOG_DIR/nova-lifecycle-$name-server.log" 2>&1 &
  SERVER=$!
  for _ in $(seq 1 150); do
    if curl -fs -o /dev/null "$ENDPOINT/"; then
      return 0
    fi
    kill -0 "$SERVER" 2>/dev/null || break
    sleep 0.2
  done
  echo "berth did not start (see $LOG_DIR/nova-lifecycle-$name-server.log)" >&2
  exit 1
}
stop_berth() {
  kill "$SERVER" 2>/dev/null || true
  wait "$SERVER" 2>/dev/null || true
  SERVER=""
}

mkdir -p "$LOG_DIR"
for mode in $MODES; do
  case "$mode" in
  token)
    echo "== Nova report client, berth token (role service)"
    start_berth token BERTH_AUTH=on BERTH_REST_AUTH=token
    TOKEN="$(node dist/src/cli/main.js token create --role service --name nova-lifecycle 2>/dev/null)"
    NOVA_LIFECYCLE_AUTH=token PLACEMENT_ENDPOINT="$ENDPOINT" BERTH_TOKEN="$TOKEN" \
      /usr/bin/python3 test/conformance/nova-lifecycle.py
    stop_berth
    ;;
  keystone)
    echo "== Nova report client, Keystone password auth (user nova, role service, catalog)"
    if ! grep -q "keystone" dist/src/config/config.js; then
      echo "FAIL: BERTH_AUTH=keystone is not in dist/ (src/config/config.ts; npm run build)" >&2
      exit 1
    fi
    KS_PORT="${NOVA_LIFECYCLE_KEYSTONE_PORT:-$(free_port)}"
    KEYSTONE_STATE="/tmp/berth-keystone-$KS_PORT"
    KS_ENV="$(KEYSTONE_DIR="$KEYSTONE_STATE" test/keystone/start.sh "$KS_PORT" "$ENDPOINT")"
    eval "$KS_ENV"
    start_berth keystone BERTH_AUTH=keystone BERTH_REST_AUTH=token BERTH_KEYSTONE_URL="$BERTH_KEYSTONE_URL" \
      BERTH_KEYSTONE_USERNAME="$BERTH_KEYSTONE_USERNAME" \
      BERTH_KEYSTONE_PASSWORD="$BERTH_KEYSTONE_PASSWORD" \
      BERTH_KEYSTONE_PROJECT="$BERTH_KEYSTONE_PROJECT"
    NOVA_LIFECYCLE_AUTH=keystone PLACEMENT_ENDPOINT="$ENDPOINT" \
      /usr/bin/python3 test/conformance/nova-lifecycle.py
    stop_berth
    test/keystone/stop.sh "$KEYSTONE_STATE" >/dev/null
    KEYSTONE_STATE=""
    ;;
  *)
    echo "unknown mode '$mode' (token, keystone)" >&2
    exit 1
    ;;
  esac
done
echo "Nova report client lifecycle passed ($MODES)"
