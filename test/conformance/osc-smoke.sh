#!/usr/bin/env bash
# Smoke test of the REST facade with the real OpenStack client: python3-osc-placement (Debian,
# plus python3-openstackclient) pointed at berth in noauth2 mode (token 'admin', no Keystone)
# creates a provider, sets inventory, lists providers, shows usages, lists allocation candidates,
# writes and reads an allocation. Usage: npm run conformance:osc
# Environment: CONFORMANCE_PG, CONFORMANCE_DB (berth_conformance), OSC_SMOKE_PORT (8789),
# CONFORMANCE_NO_BUILD=1 to skip `npm run build`. The server runs at the default /placement mount.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
PG="${CONFORMANCE_PG:-postgres://postgres@127.0.0.1:5432}"
DB="${CONFORMANCE_DB:-berth_conformance}"
PORT="${OSC_SMOKE_PORT:-8789}"
LOG="${OSC_SMOKE_LOG:-$ROOT/dist/osc-smoke-server.log}"
export DATABASE_URL="$PG/$DB"
# One process: the client reads its own writes at once (workers learn of each other's writes
# through NOTIFY, a few milliseconds later).
export BERTH_WORKERS=1

if ! command -v openstack >/dev/null; then
  echo "openstack client missing: apt-get install -y python3-openstackclient python3-osc-placement" >&2
  exit 1
fi
if [ "${CONFORMANCE_NO_BUILD:-0}" != "1" ]; then
  npm run build --silent
fi
mkdir -p "$(dirname "$LOG")"

node -e '
  const { Client } = require("pg");
  const c = new Client({ connectionString: process.argv[1] + "/postgres" });
  const db = process.argv[2];
  c.connect()
    .then(() => c.query("SELECT 1 FROM pg_database WHERE datname = $1", [db]))
    .then((r) => (r.rowCount ? null : c.query(`CREATE DATABASE "${db}"`)))
    .then(() => c.end())
    .catch((e) => { console.error(e.message); process.exit(1); });
' "$PG" "$DB"
node bin/berth.js migrate >/dev/null
node bin/berth.js db reset --yes >/dev/null

BERTH_REST_AUTH=noauth2 PORT="$PORT" BERTH_HOST=127.0.0.1 LOG_LEVEL=warn \
  node bin/berth.js serve >"$LOG" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true' EXIT

ENDPOINT="http://127.0.0.1:$PORT/placement"
for _ in $(seq 1 150); do
  if curl -fs -o /dev/null "$ENDPOINT/"; then
    break
  fi
  sleep 0.2
done

osc() {
  openstack --os-auth-type admin_token --os-token admin --os-endpoint "$ENDPOINT" \
    --os-placement-api-version 1.39 "$@" -f json
}

# check 'DESCRIPTION' 'PYTHON EXPRESSION over j (the parsed JSON on stdin)'
check() {
  python3 -c '
import json, sys
j = json.load(sys.stdin)
if not eval(sys.argv[2]):
    sys.exit("FAIL: %s: %s" % (sys.argv[1], json.dumps(j)))
print("ok   %s" % sys.argv[1])
' "$1" "$2"
}

RP=$(osc resource provider create osc-smoke-rp | python3 -c 'import json,sys; print(json.load(sys.stdin)["uuid"])')
echo "ok   resource provider create ($RP)"

osc resource provider inventory set "$RP" --resource VCPU=8 --resource MEMORY_MB=4096 \
  --resource VCPU:allocation_ratio=4.0 |
  check 'resource provider inventory set' \
    '{i["resource_class"]: (i["total"], i["allocation_ratio"]) for i in j} == {"VCPU": (8, 4.0), "MEMORY_MB": (4096, 1.0)}'

osc resource provider list |
  check 'resource provider list' \
    "[(p['uuid'], p['name'], p['generation']) for p in j] == [('$RP', 'osc-smoke-rp', 1)]"

osc resource provider usage show "$RP" |
  check 'resource provider usage show' \
    '{u["resource_class"]: u["usage"] for u in j} == {"VCPU": 0, "MEMORY_MB": 0}'

osc allocation candidate list --resource VCPU=2 --resource MEMORY_MB=512 |
  check 'allocation candidate list' \
    "len(j) == 1 and j[0]['resource provider'] == '$RP' and j[0]['inventory used/capacity'] == 'VCPU=0/32,MEMORY_MB=0/4096'"

CONSUMER=6f1b0a54-2c6f-4f0e-9d0a-5b3f1f3c9a11
osc resource provider allocation set "$CONSUMER" --allocation "rp=$RP,VCPU=2,MEMORY_MB=512" \
  --project-id smoke-project --user-id smoke-user --consumer-type INSTANCE |
  check 'resource provider allocation set' \
    "j[0]['resource_provider'] == '$RP' and j[0]['resources'] == {'VCPU': 2, 'MEMORY_MB': 512}"

osc resource provider usage show "$RP" |
  check 'resource provider usage show after allocation' \
    '{u["resource_class"]: u["usage"] for u in j} == {"VCPU": 2, "MEMORY_MB": 512}'

osc allocation candidate list --resource VCPU=2 --resource MEMORY_MB=512 |
  check 'allocation candidate list after allocation' \
    "j[0]['inventory used/capacity'] == 'VCPU=2/32,MEMORY_MB=512/4096'"

echo "osc-placement smoke test passed against $ENDPOINT"
