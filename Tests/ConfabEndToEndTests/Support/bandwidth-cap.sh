#!/usr/bin/env bash
# A media-call.sh controller for one capped peer: gives the namespace a second address, CAPPED
# (the capped peer joins a moment later with `--media-address CAPPED`), then after DELAY seconds
# limits what that address sends over UDP to RATE kbit/s and drops PERCENT % of the UDP packets
# from and to it, for SECONDS seconds, and lifts both. Writes when the cap began to
# OUT/cap-started-at (ISO 8601). TCP (signalling) is untouched.
#
# This kernel has no netem: the rate is an htb class (packets of the peer's address go through
# it, everything else passes directly) with a byte queue of ~500 ms at the rate, as a home
# router's; the loss is nftables' numgen. Inside the namespace media between two addresses of
# it crosses `lo`, so that is where the shaping goes.
# Usage: bandwidth-cap.sh CAPPED DELAY SECONDS RATE_KBIT PERCENT SERVER_URL OUT_DIR
set -euo pipefail
capped=$1 delay=$2 seconds=$3 rate=$4 percent=$5 out=$7
command -v nft >/dev/null || { echo "bandwidth-cap.sh: nft not found (apt-get install nftables)" >&2; exit 1; }
command -v tc >/dev/null || { echo "bandwidth-cap.sh: tc not found (apt-get install iproute2)" >&2; exit 1; }
ip addr add "$capped/32" dev confab-veth0
table=confab_cap_$$
lift() {
  tc qdisc del dev lo root 2>/dev/null || true
  nft delete table inet "$table" 2>/dev/null || true
}
trap lift EXIT
sleep "$delay"
queue_bytes=$((rate * 1000 / 8 / 2))
[ "$queue_bytes" -ge 3000 ] || queue_bytes=3000
tc qdisc add dev lo root handle 1: htb
tc class add dev lo parent 1: classid 1:20 htb rate "${rate}kbit" ceil "${rate}kbit" burst 4k
tc qdisc add dev lo parent 1:20 handle 20: bfifo limit "$queue_bytes"
tc filter add dev lo parent 1: protocol ip prio 1 u32 match ip src "$capped/32" match ip protocol 17 0xff flowid 1:20
nft add table inet "$table"
nft "add chain inet $table input { type filter hook input priority 0; }"
nft add rule inet "$table" input ip saddr "$capped" meta l4proto udp numgen random mod 100 \< "$percent" drop
nft add rule inet "$table" input ip daddr "$capped" meta l4proto udp numgen random mod 100 \< "$percent" drop
date -u +%Y-%m-%dT%H:%M:%S.%3NZ >"$out/cap-started-at"
echo "capped $capped at $rate kbit/s with $percent % loss from $(cat "$out/cap-started-at") for $seconds s"
sleep "$seconds"
lift
trap - EXIT
echo "lifted at $(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)"
