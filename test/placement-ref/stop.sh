#!/usr/bin/env bash
# Stops a Placement started by test/placement-ref/start.sh (by its pid file) and removes its state
# directory. The database is left alone (drop it yourself, or start.sh --fresh next time).
# Usage: test/placement-ref/stop.sh <port | state-dir> [--keep]   (--keep: keep the logs)
#
# uWSGI's own shutdown (SIGINT/SIGTERM) takes over two seconds here: the worker dies in greenlet's
# thread clean-up (a segfault in uwsgi.log) and the master buries it on its next one-second tick.
# A throw-away test server holds nothing worth a graceful end (every answered write is
# committed), so its whole process group (master and worker) is killed at once.
exec "$(dirname "$0")/../support/stop-uwsgi.sh" --kill /tmp/berth-placement-ref "$@"
