#!/usr/bin/env bash
# A media-call.sh controller for one peer's receiving connection: gives the namespace the
# peer's own address ADDRESS (the peer joins a moment later with `--media-address ADDRESS`), then
# after DELAY seconds finds the one of its UDP sockets that receives the most (its receiving
# connection: the sending one hears only reports) and drops everything to and from it for the
# rest of the call — what a NAT or firewall that forgot one mapping does; the peer's other
# connections go on. Writes the moment to OUT/receiver-blocked-at (ISO 8601).
# Usage: block-receiver.sh ADDRESS DELAY END SERVER_URL OUT_DIR
set -euo pipefail
address=$1 delay=$2 end=$3 out=$5
table=confab_block_receiver
ip addr add "$address/32" dev confab-veth0
cleanup() {
  nft delete table inet "$table" 2>/dev/null || true
  ip addr del "$address/32" dev confab-veth0 2>/dev/null || true
}
trap cleanup EXIT
sleep "$delay"
ports=$(ss -uanH "src $address" | awk '{ n = split($4, a, ":"); print a[n] }' | sort -u)
[ -n "$ports" ] || { echo "nothing listens on $address" >&2; exit 1; }
nft add table inet "$table"
nft add chain inet "$table" input '{ type filter hook input priority 0; }'
nft add chain inet "$table" output '{ type filter hook output priority 0; }'
for port in $ports; do nft add rule inet "$table" input ip daddr "$address" udp dport "$port" counter; done
sleep 2
nft list chain inet "$table" input
busiest=$(nft list chain inet "$table" input | awk '/udp dport/ { for (i = 1; i < NF; i++) { if ($i == "dport") port = $(i + 1); if ($i == "packets") count = $(i + 1) } print count, port }' | sort -n | tail -n 1 | cut -d' ' -f2)
nft add rule inet "$table" input ip daddr "$address" udp dport "$busiest" drop
nft add rule inet "$table" output ip saddr "$address" udp sport "$busiest" drop
date -u +%Y-%m-%dT%H:%M:%S.%3NZ >"$out/receiver-blocked-at"
echo "dropping udp port $busiest of $address (of: $(echo $ports)) at $(cat "$out/receiver-blocked-at")"
sleep "$(echo "$end - $delay - 2" | bc)"
