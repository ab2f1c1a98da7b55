#!/usr/bin/env bash
# Stops a Placement started by test/placement-ref/start.sh (by its pid file) and removes its state
# directory. The database is left alone (drop it yourself, or start.sh --fresh next time).
# Usage: test/placement-ref/stop.sh <port | state-dir> [--keep]   (--keep: keep the logs)
set -euo pipefail
arg="${1:?usage: stop.sh <port | state-dir> [--keep]}"
case "$arg" in
  /*) dir="$arg" ;;
  *) dir="/tmp/berth-placement-ref-$arg" ;;
esac
pidfile="$dir/uwsgi.pid"
if [ -f "$pidfile" ]; then
  pid="$(cat "$pidfile")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -INT "$pid"
    for _ in $(seq 1 40); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.25
    done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
  fi
  rm -f "$pidfile"
fi
if [ "${2:-}" != "--keep" ]; then
  rm -rf "$dir"
fi
