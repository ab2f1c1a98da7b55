#!/usr/bin/env bash
# Stops a uWSGI server started by a test harness (test/keystone, test/placement-ref) by the pid file
# in its state directory, then removes the directory (unless --keep: the logs stay).
# Usage: stop-uwsgi.sh [--kill] <default-dir-prefix> <port | state-dir> [--keep]
#   a port means <default-dir-prefix>-<port>, e.g. /tmp/berth-keystone-35357
#   --kill: SIGKILL the server's whole process group (master and worker) at once instead of
#   uWSGI's own shutdown (SIGINT), for a throw-away server holding nothing worth a graceful end.
set -euo pipefail
kill_group=''
if [ "${1:-}" = --kill ]; then
  kill_group=1
  shift
fi
prefix="${1:?usage: stop-uwsgi.sh [--kill] <dir-prefix> <port | state-dir> [--keep]}"
arg="${2:?usage: stop.sh <port | state-dir> [--keep]}"
case "$arg" in
  /*) dir="$arg" ;;
  *) dir="$prefix-$arg" ;;
esac
pidfile="$dir/uwsgi.pid"
pid=''
if [ -f "$pidfile" ]; then
  pid="$(cat "$pidfile")"
  # Only a uWSGI (a stale pid file's number may belong to something else by now).
  grep -qa uwsgi "/proc/$pid/cmdline" 2>/dev/null || pid=''
fi
if [ -n "$pid" ] && [ -n "$kill_group" ]; then
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
elif [ -n "$pid" ]; then
  kill -INT "$pid"
  for _ in $(seq 1 40); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.25
  done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
fi
rm -f "$pidfile"
if [ "${3:-}" != "--keep" ]; then
  rm -rf "$dir"
fi
