#!/usr/bin/env bash
# A media-call.sh controller for one peer's receiving connection: gives the namespace the
# peer's own address ADDRESS (the peer joins a moment later with `--media-address ADDRESS`), then
# after DELAY seconds finds one of its UDP sockets and drops everything to and from it for the
# rest of the call — what a NAT or firewall that forgot one mapping does; the peer's other
# connections go on. WHICH is `busiest`, the socket that received the most in 3 s (a receiving
# connection: the sending one hears only reports), or `all-but-sending`, every socket but the
# one that sent the most (the sending connection): the receiving connections, those that carry
# nothing yet too (a participant who sends nothing yet: Janus has nothing to send on it, so no
# count can tell it from an idle socket). Writes the moment to OUT/receiver-blocked-at (ISO 8601).
# Usage: block-receiver.sh ADDRESS DELAY END WHICH SERVER_URL OUT_DIR
set -euo pipefail
address=$1 delay=$2 end=$3 which=$4 out=$6
case "$which" in
  busiest | all-but-sending) ;;
  *) echo "WHICH is busiest or all-but-sending, not $which" >&2; exit 2 ;;
esac
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
for port in $ports; do
  nft add rule inet "$table" input ip daddr "$address" udp dport "$port" counter
  nft add rule inet "$table" output ip saddr "$address" udp sport "$port" counter
done
sleep 3
nft list table inet "$table"
# "COUNT PORT" for each port's rule in CHAIN, fewest packets first.
counts() {
  nft list chain inet "$table" "$1" | awk '/udp [ds]port/ { for (i = 1; i < NF; i++) { if ($i == "dport" || $i == "sport") port = $(i + 1); if ($i == "packets") count = $(i + 1) } print count, port }' | sort -n
}
if [ "$which" = busiest ]; then
  chosen=$(counts input | tail -n 1 | cut -d' ' -f2)
else
  sending=$(counts output | tail -n 1 | cut -d' ' -f2)
  chosen=$(echo "$ports" | grep -vx "$sending")
fi
for port in $chosen; do
  nft add rule inet "$table" input ip daddr "$address" udp dport "$port" drop
  nft add rule inet "$table" output ip saddr "$address" udp sport "$port" drop
done
date -u +%Y-%m-%dT%H:%M:%S.%3NZ >"$out/receiver-blocked-at"
echo "dropping udp ports $(echo $chosen) ($which) of $address (of: $(echo $ports)) at $(cat "$out/receiver-blocked-at")"
sleep "$(echo "$end - $delay - 3" | bc)"
