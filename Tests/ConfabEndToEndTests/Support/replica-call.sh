#!/usr/bin/env bash
# One media call across two coordinators (issue 17), run inside `meson-helpers/netns-run`: a
# PostgreSQL of its own (test-postgres.sh), one Janus (plain-janus.sh), and confab-server
# replicas A and B on that database and that Janus; then confab-peer processes, each started
# at its own delay and connected to the replicas its spec names. Every peer writes OUT/USER.json
# (its report), OUT/USER.log and OUT/USER.status, as in media-call.sh.
#
# With REPLICA_KILL_A_AFTER=SECONDS, replica A is killed (SIGKILL, as a crash) that long after
# the peers started; the moment goes to OUT/replica-a-killed-at (ISO 8601).
#
# Usage: replica-call.sh BIN_DIR OUT_DIR 'DELAY USER VIA PEER-ARGS…' …
#   VIA: A, B, or A,B (a list to fail over along), e.g.
#   '0 alice A,B join default:demo --create --members bob --ring --duration 20 --color FF0000'
set -euo pipefail
bin=$1 out=$2
shift 2
: "${CONFAB_MEDIA_ADDRESS:?run me inside meson-helpers/netns-run}"
support=$(dirname "$(readlink -f "$0")")
janus_port=8189
pg=$(mktemp -d /tmp/confab-pg.XXXXXX)

janus_pid= pids=() peer_pids=()
# SIGTERM, then SIGKILL after 2 s: started from a test process, children may inherit a signal
# mask with SIGTERM blocked (ARCHITECTURE.md); Janus then never ended and this script hung.
stop() {
  kill -TERM "$1" 2>/dev/null || return 0
  for _ in $(seq 40); do kill -0 "$1" 2>/dev/null || break; sleep 0.05; done
  kill -KILL "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
cleanup() {
  for pid in "${peer_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do stop "$pid"; done
  if [ -n "$janus_pid" ]; then stop "$janus_pid"; fi
  "$support/test-postgres.sh" stop "$pg" || true
  rm -rf "$pg"
}
trap cleanup EXIT

database=$("$support/test-postgres.sh" start "$pg")
"$support/plain-janus.sh" "$out/janus" "$janus_port" >"$out/janus.log" 2>&1 &
janus_pid=$!
for _ in $(seq 200); do
  (exec 3<>"/dev/tcp/127.0.0.1/$janus_port") 2>/dev/null && break
  sleep 0.05
done

declare -A urls server_pids
for name in A B; do
  # Replicas share the database, the Janus and the secrets (tokens, rooms); not the data folder.
  # The output file exists before the server starts: the loop below may read it before the
  # background shell has opened it (under load a run failed on "can't read server-B.out").
  : >"$out/server-$name.out"
  "$bin/confab-server" --host 127.0.0.1 --port 0 --dev-auth --db "$database" --data-dir "$out/data-$name" \
    --secret-file "$out/server.secret" --room-secret-file "$out/janus-room.secret" \
    --janus "ws://127.0.0.1:$janus_port" >"$out/server-$name.out" 2>"$out/server-$name.log" &
  server_pids[$name]=$!
  pids+=($!)
  url=
  for _ in $(seq 300); do
    url=$(sed -n 's/^listening on //p' "$out/server-$name.out" | head -n 1)
    [ -n "$url" ] && break
    kill -0 "${server_pids[$name]}" 2>/dev/null || { echo "confab-server $name exited:" >&2; cat "$out/server-$name.log" >&2; exit 1; }
    sleep 0.05
  done
  [ -n "$url" ] || { echo "confab-server $name did not start within 15 s" >&2; exit 1; }
  urls[$name]=$url
done
echo "replica A ${urls[A]}, replica B ${urls[B]}, Janus ws://127.0.0.1:$janus_port, database $database"

# shellcheck source=peers.sh
source "$support/peers.sh"
if [ -n "${REPLICA_KILL_A_AFTER:-}" ]; then
  ( sleep "$REPLICA_KILL_A_AFTER"
    date -u +%Y-%m-%dT%H:%M:%S.%3NZ >"$out/replica-a-killed-at"
    kill -KILL "${server_pids[A]}" ) &
  peer_pids+=($!)
fi
for spec in "$@"; do
  read -r delay user via args <<<"$spec"
  servers=
  IFS=, read -ra names <<<"$via"
  for name in "${names[@]}"; do servers+="${servers:+,}${urls[$name]}"; done
  wait_until "$delay"
  start_peer "$servers" "$user" "$args"
done

status=0
for pid in "${peer_pids[@]}"; do wait "$pid" || status=1; done
peer_pids=()
exit $status
