#!/usr/bin/env bash
# Stops a Placement started by test/placement-ref/start.sh (by its pid file) and removes its state
# directory. The database is left alone (drop it yourself, or start.sh --fresh next time).
# Usage: test/placement-ref/stop.sh <port | state-dir> [--keep]   (--keep: keep the logs)
exec "$(dirname "$0")/../support/stop-uwsgi.sh" /tmp/berth-placement-ref "$@"
