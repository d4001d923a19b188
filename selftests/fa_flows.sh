#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Many flows: N concurrent fast_adaptive connections through the dumbbell
# (100 Mbit/s, 20 ms RTT, buffer 2 BDP + 2 packets per flow), every one
# sending for SECS seconds, while another process rewrites every tunable of
# the module at random, in range (read from modinfo), every 100 ms.  What
# an operations team asks before loading the module on a busy server:
#  - every connection is established, runs fast_adaptive and ends; the
#    bytes and checksums of every connection are equal at both ends (one
#    digest over all connections; the per-connection lists are compared
#    when they differ);
#  - every write of the rewriter was accepted (all are in range) and it
#    ran for the whole transfer: a round at least once a second on average
#    and never more than FA_REWRITE_GAP_MS (4 s, a fifth of the short
#    form's transfer) from one round's start to the next (rounds are due
#    every 100 ms and come late when the guest is saturated; the mean
#    period is stated);
#  - the slab memory per connection (both ends live in this guest) is
#    measured from /proc/meminfo with all N connections idle and again in
#    the middle of the transfer, and stated; a bound of 64 KiB per idle
#    connection catches a per-socket leak;
#  - afterwards the module's reference count is 0 and rmmod succeeds.
# The kernel log is judged by run_suite.sh after the test.
# Short form (make check): 200 flows for 20 s; FA_STRESS=1 (make stress):
# 1000 flows for 60 s.  FA_FLOWS / FA_FLOWS_SECS override.
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
. "$DIR/lib/ktap.sh"
. "$DIR/lib/fa.sh"
. "$DIR/lib/net.sh"
. "$DIR/lib/measure.sh"
. "$DIR/lib/stress.sh"

if [ "$FA_STRESS" = 1 ]; then
	N=${FA_FLOWS:-1000} SECS=${FA_FLOWS_SECS:-60}
else
	N=${FA_FLOWS:-200} SECS=${FA_FLOWS_SECS:-20}
fi
RATE=100 RTT=20 WAIT=2 PORT=6600
W=$FA_RESULTS/flows
mkdir -p "$W"

ktap_plan 6
fa_is_ours || { ktap_info "needs fast_adaptive's tunables"; exit 4; }
fa_need_helpers && [ -x "$FA_MANY" ] || { ktap_info "helpers missing (fa_many)"; exit 4; }
cleanup() {
	st_rewriter_stop
	st_params_restore
	net_teardown
	# shellcheck disable=SC2046
	kill $(jobs -p) 2>/dev/null
}
trap cleanup EXIT
fa_load || { ktap_info "cannot load $FA_MODNAME"; exit 1; }
st_params_load || { ktap_info "no ranges in modinfo of ${FA_MODULE:-$FA_MODNAME}"; exit 1; }
st_params_save
net_setup || { ktap_info "network setup failed"; exit 1; }
BDP=$((RATE * 1000000 * RTT / 1000 / 8 / NET_WIRE_PKT))
LIMIT=$((2 * BDP + 2 * N))
net_bottleneck rate ${RATE}mbit limit $LIMIT && net_return delay ${RTT}ms limit 100000 ||
	{ ktap_info "netem setup failed"; exit 1; }
ktap_info "$N flows for $SECS s: $RATE Mbit/s, RTT $RTT ms, buffer $LIMIT packets; ${#PARAM_NAMES[@]} tunables rewritten every 100 ms"

sync
echo 2 > /proc/sys/vm/drop_caches
read -r slab0 sunr0 <<< "$(st_slab_kb)"
read -r tcp0 tcpsz <<< "$(st_tcp_slab)"
rready=$W/recv.ready sready=$W/send.ready
rm -f "$rready" "$sready"
in_rcv "$FA_MANY" recv -p $PORT -k "$N" -R "$rready" -l "$W/recv.list" -T $((SECS + 240)) \
	> "$W/recv.out" 2> "$W/recv.err" &
rpid=$!
for _ in $(seq 1 100); do [ -e "$rready" ] && break; st_sleep 0.1; done
st_rewriter_start "$W/rewriter.out"
t0=$SECONDS
in_snd "$FA_MANY" send -c "$RCV_IP" -p $PORT -k "$N" -C "$FA_CC" -E "$FA_CC" -t "$SECS" \
	-w $WAIT -R "$sready" -l "$W/send.list" -T $((SECS + 240)) \
	> "$W/send.out" 2> "$W/send.err" &
spid=$!
# all N connected and idle: WAIT seconds before the data starts
for _ in $(seq 1 1200); do
	[ -e "$sready" ] && break
	kill -0 $spid 2>/dev/null || break
	st_sleep 0.1
done
st_sleep 1
read -r slab1 sunr1 <<< "$(st_slab_kb)"
read -r tcp1 _ <<< "$(st_tcp_slab)"
st_sleep $((WAIT - 1 + SECS / 2))
read -r slab2 sunr2 <<< "$(st_slab_kb)"
read -r tcp2 _ <<< "$(st_tcp_slab)"
wait $spid
src=$?
wait $rpid
rrc=$?
st_rewriter_stop
dt=$((SECONDS - t0))
s=$(cat "$W/send.out")
r=$(cat "$W/recv.out")
ktap_info "sender (exit $src): $s"
ktap_info "receiver (exit $rrc): $r"
[ -s "$W/send.err" ] && ktap_info "sender stderr: $(head -n 8 "$W/send.err")"
[ -s "$W/recv.err" ] && ktap_info "receiver stderr: $(head -n 8 "$W/recv.err")"
ktap_info "whole run ${dt}s; bottleneck sent/packets/dropped: $(net_bottleneck_stats)"

ok=$(field ok "$s") failed=$(field failed "$s")
if [ "$src" = 0 ] && [ "${ok:-0}" = "$N" ] && [ "${failed:-1}" = 0 ] &&
   [ "$(field cc "$s")" = "$FA_CC" ]; then
	ktap_ok "$N concurrent $FA_CC connections established, ran $FA_CC and ended ($(field connect_s "$s") s to connect them all)"
else
	ktap_fail "$N concurrent $FA_CC connections established, ran $FA_CC and ended (ok=${ok:-?} failed=${failed:-?}, exit $src)"
fi

sb=$(field bytes "$s") rb=$(field bytes "$r") sd=$(field digest "$s") rd=$(field digest "$r")
if [ "$rrc" = 0 ] && [ -n "$sb" ] && [ "$sb" = "$rb" ] && [ "$sd" = "$rd" ] &&
   [ "$(field conns "$r")" = "$N" ] && [ "$sb" -gt 0 ]; then
	per=$(sort -n -k2 "$W/recv.list" | awk '{ v[NR] = $2 } END { printf "min %d median %d max %d bytes", v[1], v[int((NR + 1) / 2)], v[NR] }')
	ktap_ok "every byte delivered: $sb bytes over $N connections, digest of per-connection checksums equal at both ends ($per per connection)"
else
	ktap_info "connections whose port, bytes or checksum differ (sender < > receiver):"
	diff <(sort "$W/send.list") <(sort "$W/recv.list") | head -n 10 | sed 's/^/# /'
	ktap_fail "every byte delivered (sent ${sb:-?} digest ${sd:-?}; received ${rb:-?} digest ${rd:-?}, $(field conns "$r") connections)"
fi

rw=$(cat "$W/rewriter.out" 2>/dev/null)
rounds=$(field rounds "$rw") refused=$(field refused "$rw") gap=$(field max_gap_ms "$rw")
# It must have run through the whole transfer: a round is due every 100 ms,
# but the rewriter is a bash loop of ~30 sysfs writes a round in a guest
# whose two emulated CPUs the flows saturate, and a round then takes a few
# hundred ms of its own (the schedule restarts from the late round).  How
# late depends on the host under TCG, not on the module: on one machine of
# this kind 6.12's rounds came every 413-521 ms with law 6b9dc8c and 423 ms
# with the law before it, 6.1's every 200 ms.  So what is required is that
# it never stopped (no gap over FA_REWRITE_GAP_MS) and kept at least one
# round a second (6.12 there: longest 1459 ms); the mean period is stated.
FA_REWRITE_GAP_MS=${FA_REWRITE_GAP_MS:-4000}
if [ -n "$rounds" ] && [ "$rounds" -gt 0 ]; then
	period=$((dt * 1000 / rounds))
else
	period=?
fi
if [ -n "$rounds" ] && [ "$refused" = 0 ] && [ "$rounds" -ge "$dt" ] &&
   [ -n "$gap" ] && [ "$gap" -le "$FA_REWRITE_GAP_MS" ]; then
	ktap_ok "tunables rewritten at random in range every 100 ms for ${dt} s: $rounds rounds (mean period $period ms, longest $gap ms), $(field writes "$rw") writes, all accepted"
else
	ktap_fail "tunables rewritten at random in range every 100 ms: ${rw:-no report} (mean period $period ms; want >= $dt rounds, none more than $FA_REWRITE_GAP_MS ms apart, 0 refused)"
fi

idle_b=$(((slab1 - slab0) * 1024 / N)) busy_b=$(((slab2 - slab0) * 1024 / N))
idle_u=$(((sunr1 - sunr0) * 1024 / N))
ktap_info "Slab kB: $slab0 before, $slab1 with $N idle connections, $slab2 mid-transfer (SUnreclaim $sunr0, $sunr1, $sunr2); TCP slab objects $tcp0, $tcp1, $tcp2 of $tcpsz bytes"
if [ "$idle_b" -gt 0 ] && [ "$idle_b" -le 65536 ]; then
	ktap_ok "slab memory per connection (both ends in this guest): $((idle_b / 1024)).$((idle_b % 1024 * 10 / 1024)) KiB idle (unreclaimable $((idle_u / 1024)) KiB), $((busy_b / 1024)).$((busy_b % 1024 * 10 / 1024)) KiB mid-transfer; TCP objects +$((tcp1 - tcp0)) for $N connections"
else
	ktap_fail "slab memory per connection: $idle_b bytes idle, $busy_b bytes mid-transfer (want 0 < idle <= 64 KiB)"
fi

# the rewriter has stopped: defaults back before the module goes
st_params_restore
net_teardown
u=$(st_unload_check)
ktap_result $? "the module unloads cleanly afterwards: $u"
rs=$(cat "/sys/module/$FA_MODNAME/refcnt" 2>/dev/null || echo gone)
if ! fa_loaded && fa_load && [ "$(st_refcnt)" = 0 ]; then
	ktap_ok "and loads again with reference count 0 (tunables at their defaults)"
else
	ktap_fail "and loads again with reference count 0 (after rmmod: ${rs})"
fi
ktap_finish
