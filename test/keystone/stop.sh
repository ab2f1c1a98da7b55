#!/usr/bin/env bash
# Stops a Keystone started by test/keystone/start.sh and removes its state directory.
# Usage: test/keystone/stop.sh <port | state-dir>   (state dir = $KEYSTONE_DIR from start.sh)
# Add --keep to keep the state directory (logs) after stopping.
exec "$(dirname "$0")/../support/stop-uwsgi.sh" /tmp/berth-keystone "$@"
