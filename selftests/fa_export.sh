#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Per-socket export, during a transfer at 50 Mbit/s with a 50 ms emulated RTT
# (2-BDP buffer):
#  - sock_diag names the congestion control (INET_DIAG_CONG);
#  - INET_DIAG_VEGASINFO (fa_diag, as ss fetches it, 3 s into the transfer)
#    reports a base RTT (tcpv_minrtt) within 10 % of 50 ms;
#  - getsockopt(TCP_CC_INFO), sampled every 100 ms by the sender from 1 s on,
#    reports a base RTT within 10 % of 50 ms in every sample;
#  - the average RTT (tcpv_rtt) is never below the base RTT and never more
#    than the buffer's worth (2 BDP = 100 ms) above it;
#  - tcpv_enabled carries bit 0, a phase and, once the law runs, a gain in
#    [gamma_min, gamma_max] (include/uapi/linux/tcp_fast_adaptive.h).
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
. "$DIR/lib/ktap.sh"
. "$DIR/lib/fa.sh"
. "$DIR/lib/net.sh"

W=$FA_RESULTS/export
mkdir -p "$W"
RTT_US=50000
ktap_plan 6
fa_need_helpers || exit 4
trap 'net_teardown; kill $(jobs -p) 2>/dev/null' EXIT
fa_load || { ktap_info "cannot load $FA_MODNAME"; exit 1; }
modprobe tcp_diag 2>/dev/null
net_setup || { ktap_info "network setup failed"; exit 1; }
net_dumbbell 50 $((RTT_US / 1000)) 2

net_recv 6301 1 "$W/recv" || exit 1
in_snd "$FA_XFER" send -c "$RCV_IP" -p 6301 -C "$FA_CC" -t 6 -s 100 \
	-l "$W/samples" > "$W/send" 2>&1 &
spid=$!
sleep 3
diag=$(in_snd "$FA_DIAG" -d 6301)
wait $spid
wait "$NET_RECV_PID"
ktap_info "$(cat "$W/send")"
ktap_info "fa_diag: $diag"
line=$(echo "$diag" | grep ' state=1 ' | head -n 1)

echo "$line" | grep -q " cong=$FA_CC "
ktap_result $? "sock_diag INET_DIAG_CONG names $FA_CC"

m=$(echo "$line" | sed -n 's/.* minrtt_us=\([0-9]*\).*/\1/p')
if ! fa_is_ours; then
	ktap_skip "INET_DIAG_VEGASINFO base RTT within 10 %" "$FA_CC fills tcpv_minrtt its own way"
elif [ -n "$m" ] && [ $((m * 10)) -ge $((RTT_US * 9)) ] && [ $((m * 10)) -le $((RTT_US * 11)) ]; then
	ktap_ok "INET_DIAG_VEGASINFO base RTT $m us within 10 % of $RTT_US us"
else
	ktap_fail "INET_DIAG_VEGASINFO base RTT ${m:-missing} us within 10 % of $RTT_US us"
fi

# every TCP_CC_INFO sample from 1 s into the transfer on
eval "$(awk -v rtt=$RTT_US '
	/^#/ { next }
	t0 == "" { t0 = $1 }
	$1 < t0 + 1000000 { next }
	{
		n++; en = $13; v = $15; b = $16
		if (lo == "" || b < lo) lo = b
		if (b > hi) hi = b
		if (b * 10 < rtt * 9 || b * 10 > rtt * 11) off++
		if (v < b || v > b + 2 * rtt) avgbad++
		if (v > amax) amax = v
		if (amin == "" || v < amin) amin = v
		if (en % 2 != 1) enbad++
		ph = int(en / 256) % 256; g = int(en / 65536)
		# 0 slow start, 1 law, 2 probe, 3 ramp, 4 compete (uapi header)
		if (ph > 4) enbad++
		if (ph == 4) comp++
		nph[ph]++
		if (ph == 1) { nlaw++; if (gmin == "" || g < gmin) gmin = g; if (g > gmax) gmax = g }
	}
	END {
		printf "n=%d lo=%s hi=%s off=%d avgbad=%d amin=%s amax=%s enbad=%d comp=%d nlaw=%d glo=%s ghi=%s ",
			n, lo, hi, off, avgbad, amin, amax, enbad, comp, nlaw, gmin, gmax
		printf "phases=\"ss:%d law:%d probe:%d ramp:%d compete:%d\"\n",
			nph[0], nph[1], nph[2], nph[3], nph[4]
	}' "$W/samples")"
ktap_info "TCP_CC_INFO: $n samples, base RTT $lo..$hi us, avg RTT $amin..$amax us, $nlaw in the law phase, gains $glo..$ghi; phases $phases"
if fa_is_ours; then
	[ "$n" -ge 30 ] && [ "$off" -eq 0 ]
	ktap_result $? "TCP_CC_INFO base RTT within 10 % of $RTT_US us in all $n samples ($lo..$hi us)"
	[ "$n" -ge 30 ] && [ "$avgbad" -eq 0 ]
	ktap_result $? "TCP_CC_INFO avg RTT between base RTT and base + 100 ms in all samples ($amin..$amax us)"
	gl=$(fa_param_get gamma_min)
	gh=$(fa_param_get gamma_max)
	[ "$enbad" -eq 0 ] && [ "$nlaw" -gt 0 ] && [ "$glo" -ge "$gl" ] && [ "$ghi" -le "$gh" ]
	ktap_result $? "tcpv_enabled: bit 0 set, phase valid, gain in [$gl, $gh] ($glo..$ghi over $nlaw law-phase samples)"
	[ "$comp" -eq 0 ]
	ktap_result $? "tcpv_enabled: a lone flow never reports the competitive phase ($comp of $n samples)"
else
	why="the mapping of include/uapi/linux/tcp_fast_adaptive.h ($FA_CC fills the fields its own way)"
	ktap_skip "TCP_CC_INFO base RTT within 10 %" "$why"
	ktap_skip "TCP_CC_INFO avg RTT range" "$why"
	ktap_skip "tcpv_enabled phase and gain" "$why"
	ktap_skip "tcpv_enabled: no competitive phase" "$why"
fi
ktap_finish
