#!/usr/bin/env bash
# The Janus interoperability run (JanusInterop_EndToEndTests), inside `meson-helpers/netns-run`
# (it sets CONFAB_MEDIA_ADDRESS: Janus never gathers loopback candidates, ARCHITECTURE.md):
# a plain Janus (its own temporary configuration: WebSockets transport and VideoRoom only, no
# admin key, ICE on the namespace's address), `confab-peer janus` creating and joining the
# room, then headless Chromium on a janus.js page joining the same room. Writes into OUT:
# janus.log, peer.json (its report), peer.log, peer.status (its exit code) and chromium.log
# (the page's "confab-interop" lines among Chromium's own).
#
# The page is the clock: the peer stays (no --duration) until the page has published for
# PAGE-SECONDS (its once-a-second "sent" lines), then gets SIGTERM, leaves and writes its
# report. A fixed stay did not do on a loaded machine, where Chromium took most of it to start.
#
# Chromium runs in its own process group (setsid), killed as a whole however this script
# ends: its zygote, GPU and renderer processes must not outlive the test.
#
# Usage: janus-interop.sh BIN_DIR OUT_DIR PAGE ROOM PAGE-SECONDS [PEER-ARGS…]
set -euo pipefail
bin=$1 out=$2 page=$3 room=$4 page_seconds=$5
shift 5
: "${CONFAB_MEDIA_ADDRESS:?run me inside meson-helpers/netns-run}"
port=8188
url="ws://127.0.0.1:$port"

janus_pid= peer_pid= chromium_pid=
# Stops TARGET (a pid, or -PGID for a whole process group): SIGTERM, then SIGKILL after 2 s.
# The fallback matters: a process started with SIGTERM blocked (the mask is inherited, see
# ARCHITECTURE.md) would otherwise never end, and this script would wait for it forever.
stop() {
  local target=$1
  kill -TERM -- "$target" 2>/dev/null || return 0
  for _ in $(seq 40); do kill -0 -- "$target" 2>/dev/null || return 0; sleep 0.05; done
  kill -KILL -- "$target" 2>/dev/null || true
}
stop_chromium() {
  [ -n "$chromium_pid" ] || return 0
  stop "-$chromium_pid"
  wait "$chromium_pid" 2>/dev/null || true
  chromium_pid=
}
cleanup() {
  stop_chromium
  if [ -n "$peer_pid" ]; then stop "$peer_pid"; wait "$peer_pid" 2>/dev/null || true; fi
  if [ -n "$janus_pid" ]; then stop "$janus_pid"; wait "$janus_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT

# A plain Janus (no admin key, so that a client may create a plain room).
here=$(dirname "$0")
"$here/plain-janus.sh" "$out/janus-config" "$port" >"$out/janus.log" 2>&1 &
janus_pid=$!
for _ in $(seq 200); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  kill -0 "$janus_pid" 2>/dev/null || { echo "janus exited:" >&2; tail -20 "$out/janus.log" >&2; exit 1; }
  sleep 0.05
done

# The peer creates the room (typed `exists` and `create` through JanusProtocol) and joins.
# CONFAB_TIMELINE: its join steps go to peer.log (JanusInteropRun.peerSteps).
CONFAB_TIMELINE=1 "$bin/confab-peer" janus --url "$url" --room "$room" --create-room --display confab-peer --max-video-size 640x360 \
  --report "$out/peer.json" "$@" 2>"$out/peer.log" &
peer_pid=$!
for _ in $(seq 400); do
  grep -q "published in room" "$out/peer.log" 2>/dev/null && break
  kill -0 "$peer_pid" 2>/dev/null || break
  sleep 0.05
done
grep -q "published in room" "$out/peer.log" || { echo "confab-peer did not publish:" >&2; cat "$out/peer.log" >&2; exit 1; }

# The page asks for 640x360 at 30 fps (see chromium-page.sh for the flags), and sends it so
# however loaded the machine is (fixed=1; the test checks the size).
setsid "$here/chromium-page.sh" "$out/chromium-profile" "file://$page?server=$url&room=$room&display=chromium&fixed=1" \
  >/dev/null 2>"$out/chromium.log" &
chromium_pid=$!

# Up to a minute for Chromium to start, join and publish for PAGE-SECONDS.
for _ in $(seq 600); do
  [ "$(grep -c 'confab-interop sent ' "$out/chromium.log" 2>/dev/null || true)" -ge "$page_seconds" ] && break
  kill -0 "$peer_pid" 2>/dev/null || break
  sleep 0.1
done
# The peer leaves on SIGTERM and writes its report (10 s to do so before SIGKILL).
kill -TERM "$peer_pid" 2>/dev/null || true
for _ in $(seq 100); do kill -0 "$peer_pid" 2>/dev/null || break; sleep 0.1; done
kill -KILL "$peer_pid" 2>/dev/null || true
status=0
wait "$peer_pid" || status=$?
peer_pid=
echo "$status" >"$out/peer.status"
stop_chromium
exit "$status"
