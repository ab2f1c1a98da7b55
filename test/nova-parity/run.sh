#!/usr/bin/env bash
# Nova parity harness (npm run conformance:nova-parity): berth's Nova-named scheduler plugins
# against the real Nova 26 classes (Debian python3-nova) on seeded random clouds; prints the
# agreement table and the seed, fails on a disagreement outside
# test/nova-parity/allowed-differences.ts. Runs from source (no build). Uses a fresh schema of
# DATABASE_URL (dropped at the end), or embedded PGlite when DATABASE_URL is unset.
# Environment: NOVA_PARITY_SEED, NOVA_PARITY_SCENARIOS, NOVA_PARITY_ONLY, NOVA_PARITY_ALLOW,
# NOVA_PARITY_SHOW, NOVA_PARITY_OUT, NOVA_PARITY_PYTHON (see test/nova-parity/main.ts).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="${NOVA_PARITY_PYTHON:-/usr/bin/python3}"
if ! "$PY" -c 'import nova.scheduler.filters, nova.scheduler.weights' 2>/dev/null; then
  echo "python3-nova missing: apt-get install -y python3-nova" >&2
  exit 1
fi
exec node -r ./test/support/swc-register.cjs test/nova-parity/main.ts
