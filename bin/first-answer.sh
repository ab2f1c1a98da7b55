#!/usr/bin/env bash
# Seconds from starting a command until berth answers GET /healthz on 127.0.0.1:$PORT, then stops
# it (SIGTERM to its process group). How the start-up figures are measured, e.g.
#   PORT=18250 bin/first-answer.sh npm start
#   PORT=18250 BERTH_DATA_DIR=$(mktemp -d) bin/first-answer.sh node dist/src/cli/main.js serve
# The command's output goes to ${FIRST_ANSWER_LOG:-/tmp/first-answer.log}.
set -u
port=${PORT:?set PORT, the port berth listens on}
log=${FIRST_ANSWER_LOG:-/tmp/first-answer.log}
start=$(date +%s%N)
setsid "$@" >"$log" 2>&1 &
pid=$!
trap 'kill -TERM -- -$pid 2>/dev/null' EXIT
for _ in $(seq 1 3000); do
  if curl -s -o /dev/null "http://127.0.0.1:$port/healthz"; then
    end=$(date +%s%N)
    printf 'first answer after %d.%03d s\n' $(((end - start) / 1000000000)) $((((end - start) / 1000000) % 1000))
    kill -TERM -- -"$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    trap - EXIT
    exit 0
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "exited before answering; last lines of $log:" >&2
    tail -20 "$log" >&2
    exit 1
  fi
  sleep 0.1
done
echo "no answer within 300 s" >&2
exit 1
