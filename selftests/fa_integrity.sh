#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Integrity under impairment: a 4 MiB random file sent with the congestion
# control under test through a bottleneck netem with loss 1 %, loss 5 %,
# reorder 25 % (25 % of packets sent at once, the rest 5 ms later) and
# duplicate 1 %, over a 10 ms RTT.  Each transfer must arrive byte-exact:
# the byte count and FNV-1a checksum computed by the sender over what it sent
# equal those computed by the receiver over what it read, and the sha256 of
# the received file equals the original's.  For the loss cases the sender
# must also have retransmitted (evidence that the impairment was there).
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
. "$DIR/lib/ktap.sh"
. "$DIR/lib/fa.sh"
. "$DIR/lib/net.sh"

W=$FA_RESULTS/integrity
mkdir -p "$W"
DATA=/tmp/fa_integrity.data
OUT=/tmp/fa_integrity.out
SIZE=$((4 * 1024 * 1024))
ktap_plan 4
fa_need_helpers || exit 4
trap 'net_teardown; kill $(jobs -p) 2>/dev/null; rm -f "$DATA" "$OUT"' EXIT
fa_load || { ktap_info "cannot load $FA_MODNAME"; exit 1; }
net_setup || { ktap_info "network setup failed"; exit 1; }
net_return delay 10ms limit 100000

head -c $SIZE /dev/urandom > "$DATA"
want=$(sha256sum < "$DATA" | cut -d' ' -f1)
ktap_info "data: $SIZE bytes, sha256 $want"

port=6400
one_case() { # DESC NEED_RETRANS NETEM-ARGS...
	local desc=$1 need_retrans=$2 s rv sb rb got retr drops d0
	shift 2
	port=$((port + 1))
	net_bottleneck "$@" limit 100000 || { ktap_fail "$desc: netem $* failed"; return; }
	d0=$(net_bottleneck_stats | cut -d' ' -f3)
	rm -f "$OUT"
	net_recv $port 1 "$W/$port.recv" "$OUT" || { ktap_fail "$desc: receiver did not start"; return; }
	s=$(in_snd "$FA_XFER" send -c "$RCV_IP" -p $port -C "$FA_CC" -i "$DATA" -T 200 2>&1)
	wait "$NET_RECV_PID"
	rv=$(grep '^recv ' "$W/$port.recv")
	drops=$(($(net_bottleneck_stats | cut -d' ' -f3) - ${d0:-0}))
	got=$(sha256sum < "$OUT" 2>/dev/null | cut -d' ' -f1)
	ktap_info "$desc: $s"
	ktap_info "$desc: $rv; netem drops $drops; sha256 of the received file ${got:-none}"
	sb=$(echo "$s" | sed -n 's/.* bytes=\([0-9]*\) fnv64=\([0-9a-f]*\).*/\1 \2/p')
	rb=$(echo "$rv" | sed -n 's/.* bytes=\([0-9]*\) fnv64=\([0-9a-f]*\).*/\1 \2/p')
	retr=$(echo "$s" | sed -n 's/.* retrans=\([0-9]*\).*/\1/p')
	if [ -z "$sb" ] || [ "$sb" != "$rb" ] || [ "${sb%% *}" != $SIZE ]; then
		ktap_fail "$desc: byte counts or checksums differ (sent: ${sb:-none}; received: ${rb:-none})"
	elif [ "$got" != "$want" ]; then
		ktap_fail "$desc: sha256 of the received file differs"
	elif ! echo "$s" | grep -q "cc=$FA_CC "; then
		ktap_fail "$desc: the transfer did not use $FA_CC"
	elif [ "$need_retrans" = yes ] && [ "${retr:-0}" -eq 0 ]; then
		ktap_fail "$desc: no retransmission, so the impairment did not act"
	else
		ktap_ok "$desc: 4 MiB arrive byte-exact (checksums equal at both ends, $retr retransmissions)"
	fi
}

one_case "netem loss 1%" yes loss 1%
one_case "netem loss 5%" yes loss 5%
one_case "netem reorder 25%" no delay 5ms reorder 25% 50%
one_case "netem duplicate 1%" no duplicate 1%
ktap_finish
