#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Path faults mid-transfer: one fast_adaptive flow per fault through the
# dumbbell (50 Mbit/s, 50 ms RTT, 413-packet buffer = 2 BDP), the fault
# applied by replacing the router's netems while the flow runs (the
# bottleneck on the router's egress toward the receiver, the propagation
# delay on its egress toward the sender; never a qdisc on the sender):
#   delay     50 -> 200 -> 20 ms (two route changes)
#   rate      50 -> 5 -> 50 Mbit/s
#   blackout  2 s of 100 % loss, then recovery through RTO
#   loss      three 1 s bursts of 10 % loss, 1 s apart
#   reorder   4 s of 25 % reordering with 10 ms jitter
# Each transfer must arrive byte-exact (bytes and FNV-1a equal at both ends),
# and the fault must have acted (netem drops, an RTO for the blackout, the
# goodput of the 5 Mbit/s phase, the sender's reordering counters).  For
# each fault end the test prints how long after it the flow's base RTT (the
# module's estimate, TCP_CC_INFO tcpv_minrtt) and its goodput in a 1 s
# window are back within 10 % of the new path's (propagation RTT; payload
# rate of the bottleneck); the bar is <= 10 s (a performance bar: TAP TODO
# under FA_STRICT_BARS=0).  Samples every 50 ms stay in $FA_RESULTS/faults,
# with the module's tracepoints of each transfer (NAME.trace); a missed bar
# prints the probes and losses that followed the fault.
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
. "$DIR/lib/ktap.sh"
. "$DIR/lib/fa.sh"
. "$DIR/lib/net.sh"
. "$DIR/lib/measure.sh"
. "$DIR/lib/stress.sh"

RATE=50 RTT=50 LIMIT=413
WARM=6		# s before the first fault
OBS=11		# s observed after a fault ends (10 s bar + the 1 s window)
BAR=10
W=$FA_RESULTS/faults
mkdir -p "$W"

# 5 transfers, 7 fault ends
ktap_plan 12
fa_need_helpers || exit 4
trap 'net_teardown; kill $(jobs -p) 2>/dev/null' EXIT
fa_load || { ktap_info "cannot load $FA_MODNAME"; exit 1; }
net_setup || { ktap_info "network setup failed"; exit 1; }
tracing=0
fa_is_ours && fa_trace_available && tracing=1

# One exec per change (tc -n enters the namespace itself).
bneck() { tc -n "$NS_RTR" qdisc replace dev "$NET_BOTTLENECK_DEV" root netem "$@"; }
ret() { tc -n "$NS_RTR" qdisc replace dev "$NET_RETURN_DEV" root netem "$@"; }
clean_path() { bneck rate ${RATE}mbit limit $LIMIT && ret delay ${RTT}ms limit 100000; }

# run_fault NAME SECS TIMELINE: one flow of SECS s; TIMELINE is a function
# run alongside it that makes the changes and writes "END_US RTT_MS RATE
# LABEL" lines (one per fault end, time from st_now_us) to $W/NAME.ends.
# Sets XFER (sender line), RECV (receiver line), DROPS, NET0/NET1 counters.
port=6700
run_fault() {
	local name=$1 secs=$2 timeline=$3 tpid d0
	port=$((port + 1))
	clean_path || { ktap_info "$name: netem setup failed"; return 1; }
	d0=$(net_bottleneck_stats | cut -d' ' -f3)
	NET0=$(st_netstat TCPTimeouts TCPSACKReorder TCPTSReorder TCPLossProbes)
	: > "$W/$name.ends"
	net_recv $port 1 "$W/$name.recv" || return 1
	[ "$tracing" = 1 ] && fa_trace_start
	( "$timeline" "$W/$name.ends" ) > "$W/$name.timeline" 2>&1 &
	tpid=$!
	# 2 s more than the timeline needs: the execs of the changes take time
	XFER=$(in_snd "$FA_XFER" send -c "$RCV_IP" -p $port -C "$FA_CC" -t $((secs + 2)) \
		-s 50 -l "$W/$name.samples" -T $((secs + 120)) 2>&1)
	wait "$NET_RECV_PID"
	wait $tpid
	[ "$tracing" = 1 ] && fa_trace_stop "$W/$name.trace"
	RECV=$(grep '^recv ' "$W/$name.recv")
	DROPS=$(($(net_bottleneck_stats | cut -d' ' -f3) - ${d0:-0}))
	NET1=$(st_netstat TCPTimeouts TCPSACKReorder TCPTSReorder TCPLossProbes)
	clean_path
	ktap_info "$name: $XFER"
	ktap_info "$name: ${RECV:-receiver: $(cat "$W/$name.recv")}; bottleneck drops $DROPS"
	ktap_info "$name: sender TcpExt before: $NET0; after: $NET1"
	[ -s "$W/$name.timeline" ] && ktap_info "$name timeline: $(cat "$W/$name.timeline")"
}

ctr_delta() { # KEY
	echo $(($(field "$1" "$NET1") - $(field "$1" "$NET0")))
}

# byte_exact NAME EVIDENCE_OK EVIDENCE_TEXT
byte_exact() {
	local name=$1 sb rb
	sb=$(echo "$XFER" | sed -n 's/.* bytes=\([0-9]*\) fnv64=\([0-9a-f]*\).*/\1 \2/p')
	rb=$(echo "$RECV" | sed -n 's/.* bytes=\([0-9]*\) fnv64=\([0-9a-f]*\).*/\1 \2/p')
	if [ -z "$sb" ] || [ "$sb" != "$rb" ] || [ "${sb%% *}" -le 0 ]; then
		ktap_fail "$name: the transfer is byte-exact (sent: ${sb:-none}; received: ${rb:-none})"
	elif ! echo "$XFER" | grep -q "cc=$FA_CC "; then
		ktap_fail "$name: the transfer did not use $FA_CC"
	elif [ "$2" != 0 ]; then
		ktap_fail "$name: byte-exact, but the fault did not act ($3)"
	else
		ktap_ok "$name: $((${sb%% *} / MIB)) MiB arrive byte-exact, checksums equal at both ends ($3)"
	fi
}

# recovered NAME: one result per fault end in $W/NAME.ends
recovered() {
	local name=$1 end rtt rate label r s
	while read -r end rtt rate label; do
		r=$(st_recovery "$W/$name.samples" "$end" "$rtt" "$(st_payload_mbit "$rate")")
		s=$(field recover_s "$r")
		ktap_info "$name, after $label: $r"
		if [ "$s" != nc ] && fcmp "$s <= $BAR"; then
			ktap_bar 0 "$name: $s s after $label, base RTT and goodput within 10 % of the new path's ($rtt ms, $(st_payload_mbit "$rate") Mbit/s)"
		else
			ktap_info "what the flow did, second by second:"
			flow_timeline "$W/$name.samples"
			trace_after "$W/$name.trace" "$end"
			ktap_bar 1 "$name: after $label, base RTT and goodput back within 10 % of the new path's ($rtt ms, $(st_payload_mbit "$rate") Mbit/s) in <= $BAR s (took $s s)"
		fi
	done < "$W/$name.ends"
}

# trace_after TRACE END_US: the probe and loss events of the module from
# 0.1 s before a fault end to the end of the bar's window (trace time and
# the ends' times are both CLOCK_MONOTONIC).
trace_after() {
	[ -s "$1" ] || return 0
	ktap_info "probes and losses after it (fast_adaptive:probe, :loss):"
	ktap_info "$(awk -v a="$2" -v b=$BAR '/ (probe|loss): / {
		t = $4; sub(":", "", t)
		if (t * 1e6 >= a - 100000 && t * 1e6 <= a + b * 1e6) {
			sub(/^.*\] [^ ]* +/, ""); print
		}
	}' "$1" | head -n 40)"
}

mark() { # FILE RTT RATE LABEL
	echo "$(st_now_us) $2 $3 $4" >> "$1"
}

tl_delay() {
	st_sleep $WARM
	ret delay 200ms limit 100000 && mark "$1" 200 $RATE "50 -> 200 ms"
	st_sleep $OBS
	ret delay 20ms limit 100000 && mark "$1" 20 $RATE "200 -> 20 ms"
}
tl_rate() {
	st_sleep $WARM
	bneck rate 5mbit limit $LIMIT && mark "$1" $RTT 5 "50 -> 5 Mbit/s"
	st_sleep $OBS
	bneck rate ${RATE}mbit limit $LIMIT && mark "$1" $RTT $RATE "5 -> 50 Mbit/s"
}
tl_blackout() {
	st_sleep $WARM
	bneck rate ${RATE}mbit limit $LIMIT loss 100%
	st_sleep 2
	bneck rate ${RATE}mbit limit $LIMIT && mark "$1" $RTT $RATE "the 2 s blackout"
}
tl_loss() {
	local b
	st_sleep $WARM
	for b in 1 2 3; do
		bneck rate ${RATE}mbit limit $LIMIT loss 10%
		st_sleep 1
		bneck rate ${RATE}mbit limit $LIMIT
		[ $b = 3 ] || st_sleep 1
	done
	mark "$1" $RTT $RATE "the last 10 % loss burst"
}
tl_reorder() {
	st_sleep $WARM
	bneck rate ${RATE}mbit limit $LIMIT delay 10ms 10ms reorder 25%
	st_sleep 4
	bneck rate ${RATE}mbit limit $LIMIT && mark "$1" $RTT $RATE "4 s of 25 % reordering"
}

run_fault delay $((WARM + 2 * OBS)) tl_delay
byte_exact delay 0 "route changes to 200 and 20 ms, drops $DROPS"
recovered delay

run_fault rate $((WARM + 2 * OBS)) tl_rate
# the fault acted: 1 s after the rate fell until it rose, at most 5 Mbit/s
# of frames went through (payload 4.78; 10 % allowed)
read -r e1 _ < "$W/rate.ends"
e2=$(sed -n '2s/ .*//p' "$W/rate.ends")
g5=$(st_goodput "$W/rate.samples" $((e1 + 1000000)) "${e2:-0}")
byte_exact rate "$(fcmp "$g5 <= 1.1 * $(st_payload_mbit 5)"; echo $?)" "goodput $g5 Mbit/s while the bottleneck ran at 5 Mbit/s, bottleneck drops $DROPS"

recovered rate

run_fault blackout $((WARM + 2 + OBS)) tl_blackout
rto=$(ctr_delta TCPTimeouts)
byte_exact blackout "$([ "$DROPS" -gt 0 ] && [ "$rto" -gt 0 ]; echo $?)" "$DROPS packets lost in the blackout, $rto RTOs"
recovered blackout

run_fault loss $((WARM + 5 + OBS)) tl_loss
byte_exact loss "$([ "$DROPS" -gt 0 ]; echo $?)" "$DROPS packets lost in the bursts, $(echo "$XFER" | sed -n 's/.* retrans=\([0-9]*\).*/\1/p') retransmissions"
recovered loss

run_fault reorder $((WARM + 4 + OBS)) tl_reorder
ro=$(($(ctr_delta TCPSACKReorder) + $(ctr_delta TCPTSReorder)))
byte_exact reorder "$([ "$ro" -gt 0 ]; echo $?)" "reordering seen by the sender: TCPSACKReorder +$(ctr_delta TCPSACKReorder), TCPTSReorder +$(ctr_delta TCPTSReorder)"
recovered reorder
ktap_finish
