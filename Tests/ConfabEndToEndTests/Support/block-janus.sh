#!/usr/bin/env bash
# A media-call.sh controller: after DELAY seconds, refuses new TCP connections to this call's
# Janus (the child of its confab-server) for SECONDS, as a media server that is down, or not
# back yet, does; connections already open (the server's own session with it) go on. Writes the
# two moments to OUT/janus-blocked-at and OUT/janus-unblocked-at (ISO 8601).
# Usage: block-janus.sh DELAY SECONDS SERVER_URL OUT_DIR
set -euo pipefail
delay=$1 seconds=$2 out=$4
: "${MEDIA_CALL_SERVER_PID:?run me as the controller of media-call.sh}"
table=confab_block_janus
unblock() { nft delete table inet "$table" 2>/dev/null || true; }
trap unblock EXIT
sleep "$delay"
janus=$(pgrep -P "$MEDIA_CALL_SERVER_PID" -x janus | head -n 1)
[ -n "$janus" ] || { echo "confab-server $MEDIA_CALL_SERVER_PID has no janus" >&2; exit 1; }
ports=$(ss -ltnpH | awk -v pid="pid=$janus," 'index($0, pid) { n = split($4, a, ":"); print a[n] }' | sort -u | paste -sd, -)
[ -n "$ports" ] || { echo "janus ($janus) listens on no TCP port" >&2; exit 1; }
# A SYN alone opens a connection: refusing those (with a reset, as a closed port does) leaves
# established ones alone without needing connection tracking.
nft add table inet "$table"
nft add chain inet "$table" input '{ type filter hook input priority 0; }'
nft add rule inet "$table" input tcp dport "{ $ports }" tcp flags '& (syn | ack) == syn' reject with tcp reset
date -u +%Y-%m-%dT%H:%M:%S.%3NZ >"$out/janus-blocked-at"
echo "refusing new connections to janus (port $ports) at $(cat "$out/janus-blocked-at")"
sleep "$seconds"
unblock
date -u +%Y-%m-%dT%H:%M:%S.%3NZ >"$out/janus-unblocked-at"
echo "janus reachable again at $(cat "$out/janus-unblocked-at")"
