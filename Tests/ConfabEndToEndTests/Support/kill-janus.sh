#!/usr/bin/env bash
# A media-call.sh controller: after DELAY seconds, kills this call's Janus (the child of its
# confab-server) as a crash would, and writes the time to OUT/janus-killed-at (ISO 8601).
# Usage: kill-janus.sh DELAY SERVER_URL OUT_DIR
set -euo pipefail
delay=$1 out=$3
: "${MEDIA_CALL_SERVER_PID:?run me as the controller of media-call.sh}"
sleep "$delay"
date -u +%Y-%m-%dT%H:%M:%S.%3NZ >"$out/janus-killed-at"
pkill -KILL -P "$MEDIA_CALL_SERVER_PID" -x janus
echo "killed janus at $(cat "$out/janus-killed-at")"
