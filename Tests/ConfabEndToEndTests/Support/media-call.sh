#!/usr/bin/env bash
# One media call for the end-to-end tests, run inside `meson-helpers/netns-run` (it sets
# CONFAB_MEDIA_ADDRESS): confab-server with its managed Janus restricted to that address, then
# confab-peer processes with test media, each started at its own delay. Every peer writes
# OUT/USER.json (its report), OUT/USER.log (its progress lines) and OUT/USER.status (its exit code).
#
# MEDIA_CALL_JANUS_NODES=N gives the server N plain Janus nodes (plain-janus.sh, WebSocket ports
# 8201…, each its own RTP ports) with --janus-node instead of its managed Janus; the controller
# gets MEDIA_CALL_JANUS_PIDS="URL=PID …" to find and kill them.
#
# Usage: media-call.sh BIN_DIR OUT_DIR 'DELAY USER PEER-ARGS…' …
#   e.g. '0 alice join default:demo --create --duration 8 --color FF0000 --tone 440'
set -euo pipefail
bin=$1 out=$2
shift 2
: "${CONFAB_MEDIA_ADDRESS:?run me inside meson-helpers/netns-run}"

server_pid=
peer_pids=()
janus_pids=()
cleanup() {
  for pid in "${peer_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  # Janus may have inherited a mask that blocks SIGTERM (ARCHITECTURE.md): KILL after 2 s.
  for pid in "${janus_pids[@]}"; do
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT

media_args=(--media-address "$CONFAB_MEDIA_ADDRESS")
if [ "${MEDIA_CALL_JANUS_NODES:-0}" -gt 0 ]; then
  media_args=()
  MEDIA_CALL_JANUS_PIDS=
  for n in $(seq "$MEDIA_CALL_JANUS_NODES"); do
    port=$((8200 + n))
    "$(dirname "$0")/plain-janus.sh" "$out/janus-$n" "$port" "$((20000 + n * 1000))-$((20999 + n * 1000))" \
      >"$out/janus-$n.log" 2>&1 &
    janus_pids+=($!)
    MEDIA_CALL_JANUS_PIDS+="ws://127.0.0.1:$port=$! "
    media_args+=(--janus-node "ws://127.0.0.1:$port")
  done
  export MEDIA_CALL_JANUS_PIDS
  # Janus starts in ~0.1 s; the server connects to each node as soon as it is up anyway.
  for n in $(seq "$MEDIA_CALL_JANUS_NODES"); do
    for _ in $(seq 100); do
      (exec 3<>"/dev/tcp/127.0.0.1/$((8200 + n))") 2>/dev/null && break
      sleep 0.05
    done
  done
fi

# The output file exists before the server starts: the loop below may read it before the
# background shell has opened it (replica-call.sh failed so under load: `sed` and pipefail).
: >"$out/server.out"
"$bin/confab-server" --host 127.0.0.1 --port 0 --dev-auth "${media_args[@]}" \
  --db "$out/server.sqlite" >"$out/server.out" 2>"$out/server.log" &
server_pid=$!
url=
for _ in $(seq 300); do
  url=$(sed -n 's/^listening on //p' "$out/server.out" | head -n 1)
  [ -n "$url" ] && break
  kill -0 "$server_pid" 2>/dev/null || { echo "confab-server exited:" >&2; cat "$out/server.log" >&2; exit 1; }
  sleep 0.05
done
[ -n "$url" ] || { echo "confab-server did not start within 15 s" >&2; exit 1; }

# An optional controller (e.g. the host's recording and broadcast controls) runs beside the
# peers, started with them (its delays count from the same moment as theirs):
# MEDIA_CALL_CONTROLLER is run with the server's URL and OUT (and MEDIA_CALL_SERVER_PID in its
# environment); it writes OUT/controller.log.
if [ -n "${MEDIA_CALL_CONTROLLER:-}" ]; then
  # shellcheck disable=SC2086 # the command and its arguments are words
  MEDIA_CALL_SERVER_PID=$server_pid $MEDIA_CALL_CONTROLLER "$url" "$out" >"$out/controller.log" 2>&1 &
  peer_pids+=($!)
fi

# shellcheck source=peers.sh
source "$(dirname "$(readlink -f "$0")")/peers.sh"
for spec in "$@"; do
  read -r delay user args <<<"$spec"
  wait_until "$delay"
  start_peer "$url" "$user" "$args"
done

status=0
for pid in "${peer_pids[@]}"; do wait "$pid" || status=1; done
peer_pids=()
exit $status
