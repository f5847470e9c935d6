#!/usr/bin/env bash
# A media-call.sh controller for one moving peer: gives the namespace the peer's address FIRST
# (the peer joins a moment later with `--media-address FIRST,SECOND`), then
#   after DROP_AFTER seconds takes FIRST away for DROP_SECONDS seconds and gives it back — what
#     a laptop sees when its interface goes down and up (NetworkManager removes a link's
#     addresses when it goes down; merely downing a link here would not do: media between two
#     addresses of one namespace crosses `lo`, whichever link holds them);
#   MOVE_AFTER seconds after the start, replaces FIRST by SECOND at once: a new address (another
#     Wi-Fi, a new DHCP lease).
# and ends (removing the addresses) END seconds after the start, when the call is over.
# Writes the moments to OUT/dropped-at, OUT/restored-at and OUT/moved-at (ISO 8601).
# Usage: network-change.sh FIRST SECOND DROP_AFTER DROP_SECONDS MOVE_AFTER END SERVER_URL OUT_DIR
set -euo pipefail
first=$1 second=$2 drop_after=$3 drop_seconds=$4 move_after=$5 end=$6 out=$8
stamp() { date -u +%Y-%m-%dT%H:%M:%S.%3NZ >"$out/$1"; echo "$1 $(cat "$out/$1")"; }
ip addr add "$first/32" dev confab-veth0
cleanup() {
  ip addr del "$first/32" dev confab-veth0 2>/dev/null || true
  ip addr del "$second/32" dev confab-veth0 2>/dev/null || true
}
trap cleanup EXIT
sleep "$drop_after"
ip addr del "$first/32" dev confab-veth0
stamp dropped-at
sleep "$drop_seconds"
ip addr add "$first/32" dev confab-veth0
stamp restored-at
sleep "$(echo "$move_after - $drop_after - $drop_seconds" | bc)"
ip addr del "$first/32" dev confab-veth0
ip addr add "$second/32" dev confab-veth0
stamp moved-at
sleep "$(echo "$end - $move_after" | bc)"
