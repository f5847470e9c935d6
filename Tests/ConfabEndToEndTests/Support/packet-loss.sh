#!/usr/bin/env bash
# A media-call.sh controller: after DELAY seconds drops PERCENT % of the UDP packets (the media;
# signalling is TCP) for SECONDS seconds, with nftables (this kernel has no netem), and writes
# the moment the loss began to OUT/loss-started-at (ISO 8601). Runs inside the call's network
# namespace, so the rule touches nothing else.
# Usage: packet-loss.sh DELAY SECONDS PERCENT SERVER_URL OUT_DIR (PERCENT 100: all of it, an outage)
set -euo pipefail
delay=$1 seconds=$2 percent=$3 out=$5
command -v nft >/dev/null || { echo "packet-loss.sh: nft not found (apt-get install nftables)" >&2; exit 1; }
table=confab_loss_$$
sleep "$delay"
nft add table inet "$table"
trap 'nft delete table inet "$table" 2>/dev/null || true' EXIT
nft "add chain inet $table input { type filter hook input priority 0; }"
if [ "$percent" -ge 100 ]; then
  # Everything: the path is gone (numgen's range stops at 99).
  nft add rule inet "$table" input meta l4proto udp drop
else
  nft add rule inet "$table" input meta l4proto udp numgen random mod 100 \< "$percent" drop
fi
date -u +%Y-%m-%dT%H:%M:%S.%3NZ >"$out/loss-started-at"
echo "dropping $percent % of UDP from $(cat "$out/loss-started-at") for $seconds s"
sleep "$seconds"
