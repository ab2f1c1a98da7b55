#!/usr/bin/env bash
# Stops a uWSGI server started by a test harness (test/keystone, test/placement-ref) by the pid file
# in its state directory, then removes the directory (unless --keep: the logs stay).
# Usage: stop-uwsgi.sh <default-dir-prefix> <port | state-dir> [--keep]
#   a port means <default-dir-prefix>-<port>, e.g. /tmp/berth-keystone-35357
set -euo pipefail
prefix="${1:?usage: stop-uwsgi.sh <dir-prefix> <port | state-dir> [--keep]}"
arg="${2:?usage: stop.sh <port | state-dir> [--keep]}"
case "$arg" in
  /*) dir="$arg" ;;
  *) dir="$prefix-$arg" ;;
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
if [ "${3:-}" != "--keep" ]; then
  rm -rf "$dir"
fi
