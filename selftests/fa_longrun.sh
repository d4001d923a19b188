#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Long run (make stress only: FA_STRESS=1; skipped otherwise): one
# fast_adaptive flow for 10 minutes at 50 Mbit/s, 50 ms RTT, 2-BDP buffer,
# TCP_INFO/TCP_CC_INFO every 100 ms.  A module that runs on a server for
# weeks must not drift:
#  - the transfer is byte-exact;
#  - the base RTT (the module's estimate, tcpv_minrtt) does not drift: the
#    mean of every minute from the second on is within 2 % of the second
#    minute's;
#  - the queueing delay (srtt - min RTT) and the goodput of the last minute
#    are within 10 % of the second minute's (performance bars: TAP TODO
#    under FA_STRICT_BARS=0).
# FA_LONGRUN_MIN overrides the length in minutes (at least 3).
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
. "$DIR/lib/ktap.sh"
. "$DIR/lib/fa.sh"
. "$DIR/lib/net.sh"
. "$DIR/lib/measure.sh"
. "$DIR/lib/stress.sh"

MINS=${FA_LONGRUN_MIN:-10}
RATE=50 RTT=50 PORT=6900
W=$FA_RESULTS/longrun
mkdir -p "$W"

ktap_plan 4
if [ "$FA_STRESS" != 1 ]; then
	for d in "byte-exact" "base RTT drift" "queueing delay" "goodput"; do
		ktap_skip "long run: $d" "the long run is part of make stress (FA_STRESS=1)"
	done
	ktap_finish
fi
fa_need_helpers || exit 4
trap 'net_teardown; kill $(jobs -p) 2>/dev/null' EXIT
fa_load || { ktap_info "cannot load $FA_MODNAME"; exit 1; }
net_setup || { ktap_info "network setup failed"; exit 1; }
net_dumbbell $RATE $RTT 2 || { ktap_info "netem setup failed"; exit 1; }
ktap_info "one $FA_CC flow for $MINS min: $RATE Mbit/s, RTT $RTT ms, buffer $NET_LIMIT packets"

net_recv $PORT 1 "$W/recv" || exit 1
s=$(in_snd "$FA_XFER" send -c "$RCV_IP" -p $PORT -C "$FA_CC" -t $((MINS * 60)) -s 100 \
	-l "$W/samples" -T $((MINS * 60 + 120)) 2>&1)
wait "$NET_RECV_PID"
r=$(grep '^recv ' "$W/recv")
ktap_info "sender: $s"
ktap_info "receiver: $r; bottleneck sent/packets/dropped: $(net_bottleneck_stats)"
sb=$(echo "$s" | sed -n 's/.* bytes=\([0-9]*\) fnv64=\([0-9a-f]*\).*/\1 \2/p')
rb=$(echo "$r" | sed -n 's/.* bytes=\([0-9]*\) fnv64=\([0-9a-f]*\).*/\1 \2/p')
if [ -n "$sb" ] && [ "$sb" = "$rb" ] && echo "$s" | grep -q "cc=$FA_CC "; then
	ktap_ok "long run: $((${sb%% *} / MIB)) MiB in $MINS min arrive byte-exact with $FA_CC"
else
	ktap_fail "long run: byte-exact (sent ${sb:-none}, received ${rb:-none})"
fi

# Per minute: mean base RTT, mean queueing delay, goodput.
awk '
	/^#/ { next }
	t0 == "" { t0 = $1 }
	{ if ($5 > 0 && (mr == "" || $5 < mr)) mr = $5 }
	{ m = int(($1 - t0) / 60000000); t[NR] = $1; mi[NR] = m; rtt[NR] = $3; base[NR] = $16; b[NR] = $6 }
	END {
		for (i = 1; i <= NR; i++) {
			if (!(i in mi)) continue
			m = mi[i]
			if (!(m in n)) { first_b[m] = b[i]; first_t[m] = t[i] }
			n[m]++; sb[m] += base[i]; sq[m] += rtt[i] - mr
			last_b[m] = b[i]; last_t[m] = t[i]
			if (m > mx) mx = m
		}
		for (m = 0; m <= mx; m++)
			if (n[m] > 1 && last_t[m] > first_t[m])
				printf "minute=%d base_ms=%.3f qdelay_ms=%.3f goodput_mbit=%.3f samples=%d\n", m + 1,
					sb[m] / n[m] / 1000, sq[m] / n[m] / 1000,
					(last_b[m] - first_b[m]) * 8 / (last_t[m] - first_t[m]), n[m]
	}' "$W/samples" > "$W/minutes"
while read -r l; do ktap_info "$l"; done < "$W/minutes"
m2=$(sed -n 2p "$W/minutes")
ml=$(awk -v m="$MINS" '$1 == "minute=" m' "$W/minutes")
b2=$(field base_ms "$m2")
drift=$(awk -v ref="${b2:-0}" -F'[ =]' 'NR >= 2 { d = ($4 - ref) / ref * 100; if (d < 0) d = -d; if (d > mx) mx = d } END { printf "%.2f", mx + 0 }' "$W/minutes")
if [ -n "$b2" ] && [ -n "$ml" ] && fcmp "$drift <= 2"; then
	ktap_ok "long run: base RTT does not drift: every minute's mean within $drift % of the second minute's $b2 ms (<= 2 %)"
else
	ktap_fail "long run: base RTT drifts: up to ${drift} % from the second minute's ${b2:-?} ms (want <= 2 %)"
fi
q2=$(field qdelay_ms "$m2") ql=$(field qdelay_ms "$ml")
g2=$(field goodput_mbit "$m2") gl=$(field goodput_mbit "$ml")
if [ -n "$q2" ] && [ -n "$ql" ] && fcmp "$ql >= 0.9 * $q2 && $ql <= 1.1 * $q2"; then
	ktap_bar 0 "long run: queueing delay of the last minute $ql ms within 10 % of the second minute's $q2 ms"
else
	ktap_bar 1 "long run: queueing delay of the last minute ${ql:-?} ms within 10 % of the second minute's ${q2:-?} ms"
fi
if [ -n "$g2" ] && [ -n "$gl" ] && fcmp "$gl >= 0.9 * $g2 && $gl <= 1.1 * $g2"; then
	ktap_bar 0 "long run: goodput of the last minute $gl Mbit/s within 10 % of the second minute's $g2 Mbit/s"
else
	ktap_bar 1 "long run: goodput of the last minute ${gl:-?} Mbit/s within 10 % of the second minute's ${g2:-?} Mbit/s"
fi
ktap_finish
