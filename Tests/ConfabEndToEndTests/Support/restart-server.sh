#!/usr/bin/env bash
# A media-call.sh controller: after DELAY seconds, stops this call's confab-server (its Janus
# stops with it) as an update or a crash would, and starts it again on the same address with the
# same database; writes the times to OUT/server-stopped-at and OUT/server-back-at (ISO 8601).
# The restarted server is stopped after LIFETIME seconds more.
# Usage: restart-server.sh DELAY LIFETIME SERVER_URL OUT_DIR
set -euo pipefail
delay=$1 lifetime=$2 url=$3 out=$4
: "${MEDIA_CALL_SERVER_PID:?run me as the controller of media-call.sh}"
: "${CONFAB_MEDIA_ADDRESS:?run me inside meson-helpers/netns-run}"
bin=$(dirname "$(readlink -f "/proc/$MEDIA_CALL_SERVER_PID/exe")")
port=${url##*:}
sleep "$delay"
date -u +%Y-%m-%dT%H:%M:%S.%3NZ >"$out/server-stopped-at"
kill -TERM "$MEDIA_CALL_SERVER_PID"
while kill -0 "$MEDIA_CALL_SERVER_PID" 2>/dev/null; do sleep 0.05; done
"$bin/confab-server" --host 127.0.0.1 --port "$port" --dev-auth --media-address "$CONFAB_MEDIA_ADDRESS" \
  --db "$out/server.sqlite" >"$out/server-2.out" 2>"$out/server-2.log" &
second=$!
trap 'kill "$second" 2>/dev/null || true; wait "$second" 2>/dev/null || true' EXIT
for _ in $(seq 300); do
  grep -q "^listening on" "$out/server-2.out" && break
  sleep 0.05
done
date -u +%Y-%m-%dT%H:%M:%S.%3NZ >"$out/server-back-at"
echo "restarted confab-server: stopped at $(cat "$out/server-stopped-at"), back at $(cat "$out/server-back-at")"
sleep "$lifetime"
