#!/usr/bin/env bash
# Stops a Keystone started by test/keystone/start.sh and removes its state directory.
# Usage: test/keystone/stop.sh <port | state-dir>   (state dir = $KEYSTONE_DIR from start.sh)
# Add --keep to keep the state directory (logs) after stopping.
set -euo pipefail
arg="${1:?usage: stop.sh <port | state-dir> [--keep]}"
case "$arg" in
  /*) dir="$arg" ;;
  *) dir="/tmp/berth-keystone-$arg" ;;
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
