#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Churn: many short connections (10 KiB each, 50 in parallel) through the
# dumbbell (100 Mbit/s, 10 ms RTT) while fast_adaptive is selected by the
# sysctl net.ipv4.tcp_congestion_control in the sender's and the
# receiver's namespaces (no setsockopt): the way a server picks it up.
#  - none fails: every connection is established, runs fast_adaptive (read
#    back on every socket), delivers its 10 KiB and is closed by the peer;
#    bytes and checksums of every connection equal at both ends (digest);
#  - with the sysctl set back, the module's reference count drops to 0 and
#    rmmod succeeds (the sockets in TIME_WAIT hold no reference).
# 10 000 connections in make check and in make stress alike (about 15 s
# under TCG); FA_CHURN overrides the count.
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
. "$DIR/lib/ktap.sh"
. "$DIR/lib/fa.sh"
. "$DIR/lib/net.sh"
. "$DIR/lib/measure.sh"
. "$DIR/lib/stress.sh"

N=${FA_CHURN:-10000}
PAR=50 SIZE=10240 PORT=6800
W=$FA_RESULTS/churn
mkdir -p "$W"

ktap_plan 4
fa_is_ours || { ktap_info "needs the module under test"; exit 4; }
fa_need_helpers && [ -x "$FA_MANY" ] || { ktap_info "helpers missing (fa_many)"; exit 4; }
restore_cc() {
	local ns
	for ns in "$NS_SND" "$NS_RCV"; do
		ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=cubic 2>/dev/null
	done
	return 0
}
trap 'restore_cc; net_teardown; kill $(jobs -p) 2>/dev/null' EXIT
fa_load || { ktap_info "cannot load $FA_MODNAME"; exit 1; }
net_setup || { ktap_info "network setup failed"; exit 1; }
net_bottleneck rate 100mbit limit 2000 && net_return delay 10ms limit 100000 ||
	{ ktap_info "netem setup failed"; exit 1; }
in_snd sysctl -qw net.ipv4.tcp_congestion_control="$FA_CC" &&
	in_rcv sysctl -qw net.ipv4.tcp_congestion_control="$FA_CC" &&
	in_snd sysctl -qw net.ipv4.tcp_tw_reuse=1 ||
	{ ktap_info "cannot select $FA_CC by sysctl"; exit 1; }
ktap_info "$N connections of $SIZE bytes, $PAR in parallel, $FA_CC the sysctl default in both namespaces (refcnt $(st_refcnt))"

rready=$W/recv.ready
rm -f "$rready"
in_rcv "$FA_MANY" recv -p $PORT -k "$N" -R "$rready" -l "$W/recv.list" -T 1200 \
	> "$W/recv.out" 2> "$W/recv.err" &
rpid=$!
for _ in $(seq 1 100); do [ -e "$rready" ] && break; st_sleep 0.1; done
c0=$(st_netstat TCPLossProbes TCPTimeouts TCPSynRetrans)
t0=$SECONDS
in_snd "$FA_MANY" send -c "$RCV_IP" -p $PORT -k "$N" -P $PAR -n $SIZE -E "$FA_CC" \
	-l "$W/send.list" -T 1200 > "$W/send.out" 2> "$W/send.err"
src=$?
wait $rpid
rrc=$?
dt=$((SECONDS - t0))
s=$(cat "$W/send.out") r=$(cat "$W/recv.out")
ktap_info "sender (exit $src): $s"
ktap_info "receiver (exit $rrc): $r"
ktap_info "bottleneck sent/packets/dropped: $(net_bottleneck_stats); sender TcpExt before: $c0; after: $(st_netstat TCPLossProbes TCPTimeouts TCPSynRetrans)"
[ -s "$W/send.err" ] && ktap_info "sender stderr: $(head -n 8 "$W/send.err")"
[ -s "$W/recv.err" ] && ktap_info "receiver stderr: $(head -n 8 "$W/recv.err")"

ok=$(field ok "$s") failed=$(field failed "$s")
if [ "$src" = 0 ] && [ "${ok:-0}" = "$N" ] && [ "${failed:-1}" = 0 ]; then
	ktap_ok "$N short connections with $FA_CC by sysctl, $PAR in parallel: none failed, each ran $FA_CC (${dt} s, $((N / (dt > 0 ? dt : 1))) per second)"
else
	ktap_fail "$N short connections with $FA_CC by sysctl: ok=${ok:-?} failed=${failed:-?} (exit $src)"
fi
sb=$(field bytes "$s") sd=$(field digest "$s")
if [ "$rrc" = 0 ] && [ "$sb" = $((N * SIZE)) ] && [ "$(field bytes "$r")" = "$sb" ] &&
   [ "$(field digest "$r")" = "$sd" ] && [ "$(field conns "$r")" = "$N" ]; then
	ktap_ok "every connection delivered its $SIZE bytes intact ($sb bytes, digests equal at both ends)"
else
	diff <(sort "$W/send.list") <(sort "$W/recv.list") | head -n 10 | sed 's/^/# /'
	ktap_fail "every connection delivered its $SIZE bytes intact (sent ${sb:-?}, received $(field bytes "$r"), want $((N * SIZE)); digests $sd / $(field digest "$r"))"
fi

tw=$(in_snd ss -tan state time-wait | wc -l)
restore_cc
u=$(st_unload_check)
ktap_result $? "rmmod succeeds afterwards ($u; $((tw > 0 ? tw - 1 : 0)) sockets still in TIME_WAIT)"
if fa_load && [ "$(st_refcnt)" = 0 ]; then
	ktap_ok "the module loads again, reference count 0"
else
	ktap_fail "the module loads again, reference count 0 (got $(st_refcnt))"
fi
ktap_finish
