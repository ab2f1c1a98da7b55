#!/usr/bin/env bash
# Stops a Placement started by test/placement-ref/start.sh (by its pid file) and removes its state
# directory. The database is left alone (drop it yourself, or start.sh --fresh next time).
# Usage: test/placement-ref/stop.sh <port | state-dir> [--keep]   (--keep: keep the logs)
#
# uWSGI's own shutdown (SIGINT/SIGTERM) takes over two seconds here: the worker dies in greenlet's
# thread clean-up (a segfault in uwsgi.log) and the master buries it on its next one-second tick.
# A throw-away test server holds nothing worth a graceful end (every answered write is
# committed), so its whole process group (master and worker) is killed at once.
set -euo pipefail
arg="${1:?usage: stop.sh <port | state-dir> [--keep]}"
case "$arg" in
  /*) dir="$arg" ;;
  *) dir="/tmp/berth-placement-ref-$arg" ;;
esac
pidfile="$dir/uwsgi.pid"
if [ -f "$pidfile" ]; then
  pid="$(cat "$pidfile")"
  # Only a uWSGI (a stale pid file's number may belong to something else by now).
  grep -qa uwsgi "/proc/$pid/cmdline" 2>/dev/null || pid=''
fi
if [ -n "${pid:-}" ]; then
  pgid="$(ps -o pgid= -p "$pid" 2>/dev/null | tr -d ' ' || true)"
  if [ -n "$pgid" ] && [ "$pgid" != "$(ps -o pgid= -p $$ | tr -d ' ')" ]; then
    kill -KILL -- "-$pgid" 2>/dev/null || true
  fi
  kill -KILL "$pid" 2>/dev/null || true
  # Gone, or a zombie its new parent has not reaped yet.
  for _ in $(seq 1 250); do
    state="$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || true)"
    [ -z "$state" ] || [ "$state" = Z ] && break
    sleep 0.02
  done
fi
rm -f "$pidfile"
if [ "${2:-}" != "--keep" ]; then
  rm -rf "$dir"
fi
