#!/usr/bin/env bash
# Runs OpenStack Placement's own gabbi suite (../shared/conformance) against berth's REST facade:
# compiled server on real PostgreSQL (a dedicated database, created if missing), noauth2, reset
# with `berth db reset --yes` before every file. Usage: npm run conformance [-- run-gabbits args]
#
# Mount: by default the facade is served at '/', as upstream runs these files (in-process, no
# SCRIPT_NAME): several tests compare link hrefs with '/resource_providers/...' exactly, which no
# prefixed mount (Placement's or berth's) produces. CONFORMANCE_PREFIX=/placement runs the same
# suite against the default BERTH_REST_PREFIX mount instead; there exactly those href
# comparisons fail (see docs/rest-facade.md).
#
# Environment: CONFORMANCE_PG (server URL, default postgres://postgres@127.0.0.1:5432),
# CONFORMANCE_DB (berth_conformance), CONFORMANCE_PORT (8788), CONFORMANCE_PREFIX (''),
# CONFORMANCE_DIR (../shared/conformance), CONFORMANCE_REPORT (dist/conformance-report.json),
# CONFORMANCE_NO_BUILD=1 to skip `npm run build`.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
PG="${CONFORMANCE_PG:-postgres://postgres@127.0.0.1:5432}"
DB="${CONFORMANCE_DB:-berth_conformance}"
PORT="${CONFORMANCE_PORT:-8788}"
PREFIX="${CONFORMANCE_PREFIX:-}"
SHARED="${CONFORMANCE_DIR:-$ROOT/../shared/conformance}"
REPORT="${CONFORMANCE_REPORT:-$ROOT/dist/conformance-report.json}"
LOG="${CONFORMANCE_LOG:-$ROOT/dist/conformance-server.log}"
export DATABASE_URL="$PG/$DB"
# One process: the gabbits read their own writes at once (workers learn of each other's writes
# through NOTIFY, a few milliseconds later).
export BERTH_WORKERS=1

if [ "${CONFORMANCE_NO_BUILD:-0}" != "1" ]; then
  npm run build --silent
fi
mkdir -p "$(dirname "$REPORT")" "$(dirname "$LOG")"

# Create the dedicated database if it does not exist yet.
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

SERVE=(node bin/berth.js serve)
BERTH_REST_AUTH=noauth2 BERTH_REST_PREFIX="$PREFIX" PORT="$PORT" BERTH_HOST=127.0.0.1 \
  LOG_LEVEL="${CONFORMANCE_LOG_LEVEL:-warn}" "${SERVE[@]}" >"$LOG" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true' EXIT

URL="http://127.0.0.1:$PORT$PREFIX"
ready=0
for _ in $(seq 1 150); do
  if curl -fs -o /dev/null "$URL/"; then
    ready=1
    break
  fi
  if ! kill -0 "$SERVER" 2>/dev/null; then
    break
  fi
  sleep 0.2
done
if [ "$ready" != 1 ]; then
  echo "berth REST facade not answering at $URL/; see $LOG" >&2
  exit 1
fi

SKIPS=(--skip-file "$SHARED/skips-live.txt" --skip-file "$ROOT/test/conformance/berth-skips.txt")

"$SHARED/run-gabbits" --url "$URL" \
  --reset-cmd "DATABASE_URL='$DATABASE_URL' node '$ROOT/bin/berth.js' db reset --yes >/dev/null" \
  "${SKIPS[@]}" --report "$REPORT" "$@"
