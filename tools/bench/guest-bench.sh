#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-bench.sh - the benchmark scenarios, run inside the VM (by
# tools/bench/vm.sh, from tools/bench/bench.sh).  Every algorithm goes
# through every scenario in the same boot, repetitions interleaved
# (scenario, then repetition, then algorithm), so that slow drifts of the
# emulator's speed hit all algorithms alike.
#
# Writes to $BENCH_OUT (the results share): runs.txt, one line per run
# ("scenario=... tag=... rep=... key=value ..."), raw/*.samples (TCP_INFO of
# each sending socket every $BENCH_SAMPLE_MS ms, columns of fa_xfer), and a
# progress line per run on stdout.  tools/bench/report.sh turns them into
# bench/RESULTS.md.
#
# Environment (defaults in brackets):
#   BENCH_ALGS       [fast_adaptive fa_classic cubic bbr vegas reno]
#   BENCH_SCENARIOS  [bulk fairness mixed coexist loss loss2 shallow lossharm
#                    pathchange wan1m wan64m cpugib]
#                    (cpu, the unshaped-throughput proxy of CPU cost, and
#                    issue 13's coexreno coexbbr coexlong crossleave on
#                    request)
#   BENCH_REPS       [3]
#   BENCH_SCALE      [100] percent of every flow duration (quick trials)
#   BENCH_KEEP_TRACE [0] 1: keep each traced flows() run's tracepoints in raw/
#   BENCH_SAMPLE_MS  [20]
#   BENCH_FA_PARAMS  [] fast_adaptive tunables for an ablation, "name=value ..."

set -u
DIR=$(cd "$(dirname "$0")" && pwd)
. "$DIR/guest-lib.sh"

ALGS=${BENCH_ALGS:-"fast_adaptive fa_classic cubic bbr vegas reno"}
SCENARIOS=${BENCH_SCENARIOS:-"bulk fairness mixed coexist loss loss2 shallow lossharm pathchange wan1m wan64m cpugib"}
REPS=${BENCH_REPS:-3}
SCALE=${BENCH_SCALE:-100}
SMS=${BENCH_SAMPLE_MS:-20}
OUT=${BENCH_OUT:-/tmp/bench-out}
RAW=$OUT/raw
W=/tmp/bench	# working copy in the guest's tmpfs; copied to $RAW per run
mkdir -p "$RAW" "$W"
: > "$OUT/runs.txt"

# Scenario parameters (seconds are scaled by BENCH_SCALE).
RATE=50 RTT=50
s() { echo $((($1 * SCALE + 50) / 100)); }
BULK_S=$(s 20)
FAIR_S=$(s 20) FAIR_GAP=$(s 4)
MIXED_S=$(s 15) MIXED_RTT1=20 MIXED_RTT2=100
WARM=$(s 5)	# s, start of the two-flow measurement windows
COEX_S=$(s 15)
# issue 13: coexreno and coexbbr as coexist (COEX_S) next to reno and bbr;
# coexlong as coexist for COEXLONG_S; crossleave: one flow of the tag for
# CL_S s, a cubic flow from CL_JOIN to CL_LEAVE s (report.sh: queueing delay
# over WARM..join and over the CL_AFTER s after the leave, share over
# join+CL_SETTLE..leave)
COEXLONG_S=$(s 60)
CL_S=$(s 45) CL_JOIN=$(s 15) CL_LEAVE=$(s 30) CL_AFTER=$(s 5) CL_SETTLE=$(s 2)
LOSS_S=$(s 15) LOSS_PCT=0.5 LOSS2_PCT=2
# shallow buffer (issue 12's safety bar): SHALLOW_N flows of one algorithm,
# started together, in a buffer of a quarter of the BDP
SHALLOW_S=$(s 20) SHALLOW_N=4
# harm on a random-loss path (LOSS_PCT, 2 BDP): one flow of the tag next to
# one flow of a loss-based competitor, LOSSHARM_S s, rates over WARM..end;
# every tag meets reno, the tags in LOSSHARM_CUBIC (and fast_adaptive's
# ablation tags) meet cubic too
LOSSHARM_S=$(s 15) LOSSHARM_CUBIC="fast_adaptive fa_classic cubic"
CPU_S=$(s 8)
# path change: one flow; at PCHG_AT the propagation delay goes RTT -> PCHG_RTT2
PCHG_AT=$(s 8) PCHG_AFTER=$(s 16) PCHG_RTT2=100
CPU_ALGS="fast_adaptive fa_classic cubic"
# Scenarios whose receivers are started for every run, not once per
# repetition: fa_xfer recv lives at most 300 s (-T), less than a
# repetition of their runs takes with every tag.
RECV_PER_RUN="coexlong crossleave"
shallow_limit() { echo $((($(bdp_pkts $RATE $RTT 1) + 2) / 4)); }	# 0.25 BDP, packets
# CPU per GiB: one flow at a shaped rate every algorithm reaches; the guest's
# CPU time (/proc/stat, all CPUs) is read at CPUGIB_FROM s and CPUGIB_TO s
# into the flow (slow start and the execs that start it left out)
CPUGIB_RATE=200 CPUGIB_RTT=10 CPUGIB_S=$(s 16) CPUGIB_FROM=$(s 4) CPUGIB_TO=$(s 15)
CPUGIB_ALGS="fast_adaptive cubic bbr vegas"
WAN1_RATE=100 WAN1_RTT=800 WAN1_BYTES=$((1024 * 1024))
WAN64_RATE=100 WAN64_RTT=100 WAN64_BYTES=$((64 * 1024 * 1024))

if [ -n "${BENCH_XTRACE:-}" ]; then PS4='+ $EPOCHREALTIME '; set -x; fi
trap 'net_teardown; kill $(jobs -p) 2>/dev/null' EXIT

say() { echo "$*"; }
t_start=$SECONDS
elapsed() { local e=$((SECONDS - t_start)); printf '%d:%02d' $((e / 60)) $((e % 60)); }

bench_load_ccs || exit 1
# issue 13's tracepoint fast_adaptive:mode (competitive mode entered/left):
# its records are counted only where the module has it
MODE_TP=0
[ -d "$FA_TRACE/events/fast_adaptive/mode" ] && MODE_TP=1
for kv in ${BENCH_FA_PARAMS:-}; do
	echo "${kv#*=}" > "$FA_PARAMS/${kv%%=*}" || { say "# cannot set $kv"; exit 1; }
done
avail=""
for a in $ALGS; do
	if cc_available "$a"; then avail="$avail $a"; else say "# $a is not available in this kernel: skipped"; fi
done
ALGS=${avail# }
net_setup || { say "network setup failed"; exit 1; }
ns_watchers
bsleep 0

# The tags a scenario runs, and the receiver ports it uses.
tags_of() {
	local a out=""
	case $1 in
	coexist | coexlong) for a in $ALGS; do [ "$a" = cubic ] || out="$out $a"; done ;;
	coexreno) for a in $ALGS; do [ "$a" = reno ] || out="$out $a"; done ;;
	coexbbr)
		# nothing when the kernel has no bbr to compete with
		cc_available bbr && for a in $ALGS; do [ "$a" = bbr ] || out="$out $a"; done ;;
	cpu) for a in $ALGS; do case " $CPU_ALGS " in *" $a "*) out="$out $a" ;; esac; done ;;
	cpugib) for a in $ALGS; do case " $CPUGIB_ALGS " in *" $a "*) out="$out $a" ;; esac; done ;;
	lossharm)
		# TAG+COMPETITOR pairs: everyone next to reno (reno+reno is the
		# reference), fast_adaptive's tags and cubic next to cubic
		for a in $ALGS; do out="$out $a+reno"; done
		for a in $ALGS; do
			case " $LOSSHARM_CUBIC " in *" $a "*) out="$out $a+cubic" ;; *)
				case $a in fa_*) out="$out $a+cubic" ;; esac ;;
			esac
		done
		;;
	*) out=" $ALGS" ;;
	esac
	echo "${out# }"
}
ports_of() {
	case $1 in
	bulk) echo 5101 ;;
	fairness) echo 5201 5202 5203 ;;
	mixed) echo 5301 5302 ;;
	coexist) echo 5401 5402 ;;
	coexreno) echo 5411 5412 ;;
	coexbbr) echo 5421 5422 ;;
	coexlong) echo 5431 5432 ;;
	crossleave) echo 5441 5442 ;;
	loss) echo 5501 ;;
	loss2) echo 5502 ;;
	shallow) echo 5121 5122 5123 5124 ;;
	lossharm) echo 5511 5512 ;;
	pathchange) echo 5901 ;;
	cpu) echo 5801 ;;
	cpugib) echo 5811 ;;
	*) ;;	# the pulls start their own server per run
	esac
}

total=0
for sc in $SCENARIOS; do
	n=$(tags_of "$sc" | wc -w)
	total=$((total + n * REPS))
done
run_no=0

{
	echo "# bench on $(uname -r), $(nproc) vCPUs, $(date -u +%Y-%m-%dT%H:%MZ)"
	echo "# algs: $ALGS"
	echo "# scenarios: $SCENARIOS; reps $REPS; scale ${SCALE}%; sampling ${SMS} ms"
	echo "# params: rate=$RATE rtt=$RTT bulk_s=$BULK_S fair_s=$FAIR_S fair_gap=$FAIR_GAP mixed_s=$MIXED_S warm_s=$WARM coex_s=$COEX_S coexlong_s=$COEXLONG_S crossleave=${CL_S}s/cubic_${CL_JOIN}-${CL_LEAVE}s loss_s=$LOSS_S loss_pct=$LOSS_PCT loss2_pct=$LOSS2_PCT shallow=${SHALLOW_N}x${SHALLOW_S}s/$(shallow_limit)pkts lossharm_s=$LOSSHARM_S cpu_s=$CPU_S cpugib=${CPUGIB_RATE}mbit/${CPUGIB_RTT}ms/${CPUGIB_S}s"
	echo "# fast_adaptive params: $(cd "$FA_PARAMS" && for p in *; do printf '%s=%s ' "$p" "$(cat "$p")"; done)"
	if [ $MODE_TP = 1 ]; then
		echo "# fast_adaptive:mode tracepoint: present (mode=compete records counted in traced runs)"
	else
		echo "# fast_adaptive:mode tracepoint: absent (no events/fast_adaptive/mode in this module)"
	fi
} | tee -a "$OUT/runs.txt"

record() { # key=value ... -> runs.txt
	echo "$*" >> "$OUT/runs.txt"
}

progress() { # scenario tag rep text
	run_no=$((run_no + 1))
	say "[bench $(elapsed)] $run_no/$total $1 $2 rep $3: $4"
}

# Drops at the bottleneck since the last call (tc -s on the router).
QDROPS=0
qdrops() {
	local st d
	st=$(net_bottleneck_stats)
	d=${st##* }
	DROPS=$((d - QDROPS))
	QDROPS=$d
}

# mbit BYTES SECS(with 3 decimals) -> MBIT (2 decimals), bash arithmetic
mbit() {
	local ms=$((10#${2/./})) x
	[ "$ms" -gt 0 ] || { MBIT=0; return; }
	x=$(($1 * 8 * 100 / ms / 1000))
	MBIT=$((x / 100)).$(printf %02d $((x % 100)))
}

# fast_adaptive's tracepoints (slow-start exit) during runs of a
# fast_adaptive tag: the first ss_exit goes into runs.txt as TRACE_NOTE.
# Where the module has fast_adaptive:mode (MODE_TP=1), the whole trace is
# read and TRACE_NOTE also carries mode_tp=1, mode_compete and mode_fast
# (the records entering and leaving competitive mode, all flows of the run),
# mode_first_compete_us, mode_last_fast_us (trace time stamps, the samples'
# CLOCK_MONOTONIC) and mode_last (the run's last record); without it
# mode_tp=0, and only the trace up to the first ss_exit is read, as before.
# The event is enabled and the ring buffer sized once, at the first run that
# traces; later runs only clear the buffer and switch tracing_on.  Enabling
# and disabling the event around every run (static-key code patching on both
# vCPUs) and resizing the buffer is what the guest was doing each of the four
# times it hung in a soft lockup under TCG (right after or before a
# fast_adaptive run; tools/bench/NOTES.md).
TRACING=0 TRACE_READY=0
trace_begin() { # TAG...
	TRACING=0 TRACE_NOTE=""
	case "$*" in *fast_adaptive* | *fa_*) ;; *) return 0 ;; esac
	fa_trace_available || return 0
	if [ $TRACE_READY = 0 ]; then
		fa_trace_start || return 0
		TRACE_READY=1
	else
		: > "$FA_TRACE/trace"
		echo 1 > "$FA_TRACE/tracing_on"
	fi
	TRACING=1
}
trace_end() {
	local l v k out="" ss=0 nc=0 nf=0 first="" last="" lastm="" ts
	[ $TRACING = 1 ] || return 0
	echo 0 > "$FA_TRACE/tracing_on"
	while IFS= read -r l; do
		case $l in
		*" ss_exit: "*)
			[ $ss = 0 ] || continue
			ss=1
			for v in ${l#* ss_exit: }; do
				k=${v%%=*}
				case $k in cwnd | rule | rtt_us | base_rtt_us) out="$out ss_exit_$k=${v#*=}" ;; esac
			done
			[ $MODE_TP = 1 ] || break ;;
		*" mode: "*" mode=compete"*)
			ts=${l%%: mode: *}; ts=${ts##* }
			nc=$((nc + 1)) lastm=compete
			[ -n "$first" ] || first=${ts/./} ;;
		*" mode: "*" mode=fast"*)
			ts=${l%%: mode: *}; ts=${ts##* }
			nf=$((nf + 1)) lastm=fast last=${ts/./} ;;
		esac
	done < "$FA_TRACE/trace"
	if [ $MODE_TP = 1 ]; then
		out="$out mode_tp=1 mode_compete=$nc mode_fast=$nf${first:+ mode_first_compete_us=$first}${last:+ mode_last_fast_us=$last}${lastm:+ mode_last=$lastm}"
	else
		out="$out mode_tp=0"
	fi
	TRACE_NOTE="${out# }"
	TRACING=0
}

# flows NAME SPEC...: bulk flows to the receivers of this repetition; SPEC
# is TAG:PORT:START_S:DUR_S.  Samples in $RAW/NAME.<i>.samples, sender
# report lines in $W/NAME.<i>.out.  Sets FLOW_CTR (counter deltas),
# TRACE_NOTE, SENDS (the report lines, one per flow, ';'-separated).
flows() {
	local name=$1 i=0 spec tag port st du pids="" ok=0 c0 l
	shift
	trace_begin "$@"
	c0=$(counters)
	for spec in "$@"; do
		i=$((i + 1))
		IFS=: read -r tag port st du <<< "$spec"
		(
			[ "$st" -gt 0 ] && bsleep "$st"
			exec ip netns exec "$NS_SND" "$FA_XFER" send -c "$RCV_IP" -p "$port" \
				-C "$(cc_of "$tag")" -t "$du" -s "$SMS" -l "$RAW/$name.$i.samples" \
				-T $((du + 90))
		) > "$W/$name.$i.out" 2>&1 &
		pids="$pids $!"
	done
	# shellcheck disable=SC2086
	wait $pids
	FLOW_CTR=$(counters_diff "$c0" "$(counters)")
	trace_end
	# BENCH_KEEP_TRACE=1 (diagnosis): the run's whole trace, next to its samples
	if [ "${BENCH_KEEP_TRACE:-0}" = 1 ] && [ -n "$TRACE_NOTE" ]; then
		cat "$FA_TRACE/trace" > "$RAW/$name.trace"
	fi
	SENDS=""
	for ((i = 1; i <= $#; i++)); do
		l=""
		read -r l < "$W/$name.$i.out"
		case $l in
		"send "*) SENDS="$SENDS;$l" ;;
		*) say "# $name flow $i failed: $l"; ok=1 ;;
		esac
	done
	SENDS=${SENDS#;}
	return $ok
}

# send_kv N KEY: KEY of the N-th flow's report line -> KV
send_kv() {
	local IFS=';' a
	read -r -a a <<< "$SENDS"
	IFS=' '
	kv_get "${a[$(($1 - 1))]}" "$2"
}

flow_mbit() { # N -> MBIT, the flow's average over its own life
	local b
	send_kv "$1" bytes; b=$KV
	send_kv "$1" secs
	mbit "$b" "$KV"
}

# --- scenarios (each: TAG REP; the path is set once per scenario) -------------

path_bulk() { net_path $RATE $RTT "$(bdp_pkts $RATE $RTT 2)"; }
sc_bulk() {
	local n=bulk.$1.r$2 r
	flows "$n" "$1:5101:0:$BULK_S" || return 1
	qdrops
	record "scenario=bulk tag=$1 rep=$2 dur_s=$BULK_S limit=$NET_LIMIT drops=$DROPS ${SENDS#send } samples=$n.1.samples $FLOW_CTR $TRACE_NOTE"
	send_kv 1 retrans; r=$KV
	flow_mbit 1
	progress bulk "$1" "$2" "$MBIT Mbit/s, bottleneck drops $DROPS, retransmits $r"
}

path_fairness() { path_bulk; }
sc_fairness() {
	local n=fair.$1.r$2 t3=$((2 * FAIR_GAP)) r=""
	flows "$n" "$1:5201:0:$FAIR_S" "$1:5202:$FAIR_GAP:$((FAIR_S - FAIR_GAP))" \
		"$1:5203:$t3:$((FAIR_S - t3))" || return 1
	qdrops
	record "scenario=fairness tag=$1 rep=$2 dur_s=$FAIR_S gap_s=$FAIR_GAP limit=$NET_LIMIT drops=$DROPS samples=$n.1.samples,$n.2.samples,$n.3.samples $FLOW_CTR $TRACE_NOTE"
	for i in 1 2 3; do flow_mbit $i; r="$r $MBIT"; done
	progress fairness "$1" "$2" "average rates${r} Mbit/s (flows of 20/16/12 s at full scale), drops $DROPS"
}

path_mixed() {
	path_bulk && net_return_by_port $RTT 5301:$MIXED_RTT1 5302:$MIXED_RTT2
}
sc_mixed() {
	local n=mixed.$1.r$2 a
	flows "$n" "$1:5301:0:$MIXED_S" "$1:5302:0:$MIXED_S" || return 1
	qdrops
	record "scenario=mixed tag=$1 rep=$2 dur_s=$MIXED_S warm_s=$WARM rtt1_ms=$MIXED_RTT1 rtt2_ms=$MIXED_RTT2 limit=$NET_LIMIT drops=$DROPS samples=$n.1.samples,$n.2.samples $FLOW_CTR $TRACE_NOTE"
	flow_mbit 1; a=$MBIT
	flow_mbit 2
	progress mixed "$1" "$2" "${MIXED_RTT1} ms flow $a, ${MIXED_RTT2} ms flow $MBIT Mbit/s"
}

path_coexist() { path_bulk; }
sc_coexist() {
	local n=coex.$1.r$2 a
	flows "$n" "$1:5401:0:$COEX_S" "cubic:5402:0:$COEX_S" || return 1
	qdrops
	record "scenario=coexist tag=$1 rep=$2 dur_s=$COEX_S warm_s=$WARM limit=$NET_LIMIT drops=$DROPS samples=$n.1.samples,$n.2.samples $FLOW_CTR $TRACE_NOTE"
	flow_mbit 1; a=$MBIT
	flow_mbit 2
	progress coexist "$1" "$2" "$1 $a vs cubic $MBIT Mbit/s"
}

# Issue 13: one flow of the tag next to one flow of COMPETITOR, started
# together, DUR s (coexist's measure: share over warm_s..dur_s).
coex_run() { # SCEN COMPETITOR PORT DUR TAG REP; the competitor on PORT+1
	local n=$1.$5.r$6 a
	flows "$n" "$5:$3:0:$4" "$2:$(($3 + 1)):0:$4" || return 1
	qdrops
	record "scenario=$1 tag=$5 competitor=$2 rep=$6 dur_s=$4 warm_s=$WARM limit=$NET_LIMIT drops=$DROPS samples=$n.1.samples,$n.2.samples $FLOW_CTR $TRACE_NOTE"
	flow_mbit 1; a=$MBIT
	flow_mbit 2
	progress "$1" "$5" "$6" "$5 $a vs $2 $MBIT Mbit/s$(mode_note)"
}
path_coexreno() { path_bulk; }
sc_coexreno() { coex_run coexreno reno 5411 "$COEX_S" "$@"; }
path_coexbbr() { path_bulk; }
sc_coexbbr() { coex_run coexbbr bbr 5421 "$COEX_S" "$@"; }
path_coexlong() { path_bulk; }
sc_coexlong() { coex_run coexlong cubic 5431 "$COEXLONG_S" "$@"; }

# Issue 13: cross traffic that comes and goes.  One flow of the tag for
# CL_S s; one cubic flow joins at CL_JOIN s and leaves at CL_LEAVE s.
# report.sh takes the actual join and leave from the cubic flow's first and
# last samples.
path_crossleave() { path_bulk; }
sc_crossleave() {
	local n=crossleave.$1.r$2 a
	flows "$n" "$1:5441:0:$CL_S" "cubic:5442:$CL_JOIN:$((CL_LEAVE - CL_JOIN))" || return 1
	qdrops
	record "scenario=crossleave tag=$1 competitor=cubic rep=$2 dur_s=$CL_S join_s=$CL_JOIN leave_s=$CL_LEAVE warm_s=$WARM after_s=$CL_AFTER settle_s=$CL_SETTLE limit=$NET_LIMIT drops=$DROPS samples=$n.1.samples,$n.2.samples $FLOW_CTR $TRACE_NOTE"
	flow_mbit 1; a=$MBIT
	flow_mbit 2
	progress crossleave "$1" "$2" "$1 $a Mbit/s over its ${CL_S} s, cubic $MBIT over its $((CL_LEAVE - CL_JOIN)) s$(mode_note)"
}

# ", competitive mode entered N times" for a progress line, from TRACE_NOTE
mode_note() {
	kv_get "$TRACE_NOTE" mode_compete && echo ", competitive mode entered $KV times"
}

path_loss() { net_path $RATE $RTT "$(bdp_pkts $RATE $RTT 2)" loss "${LOSS_PCT}%"; }
sc_loss() { loss_run loss "$LOSS_PCT" 5501 "$@"; }
path_loss2() { net_path $RATE $RTT "$(bdp_pkts $RATE $RTT 2)" loss "${LOSS2_PCT}%"; }
sc_loss2() { loss_run loss2 "$LOSS2_PCT" 5502 "$@"; }
loss_run() { # SCEN PCT PORT TAG REP
	local n=$1.$4.r$5 r
	flows "$n" "$4:$3:0:$LOSS_S" || return 1
	qdrops
	record "scenario=$1 tag=$4 rep=$5 dur_s=$LOSS_S loss_pct=$2 limit=$NET_LIMIT drops=$DROPS ${SENDS#send } samples=$n.1.samples $FLOW_CTR $TRACE_NOTE"
	send_kv 1 retrans; r=$KV
	flow_mbit 1
	progress "$1" "$4" "$5" "$MBIT Mbit/s at $2 % loss, retransmits $r"
}

# Shallow buffer: SHALLOW_N flows of the tag started together (the execs
# that start them, 0.5-1 s each under TCG, stagger them by a fraction of a
# second) into a quarter-BDP buffer, no random loss: every drop is overflow.
path_shallow() { net_path $RATE $RTT "$(shallow_limit)"; }
sc_shallow() {
	local n=shallow.$1.r$2 i specs="" sf="" r=0 rs="" x
	for ((i = 1; i <= SHALLOW_N; i++)); do
		specs="$specs $1:$((5120 + i)):0:$SHALLOW_S"
		sf="$sf,$n.$i.samples"
	done
	# shellcheck disable=SC2086
	flows "$n" $specs || return 1
	qdrops
	for ((i = 1; i <= SHALLOW_N; i++)); do
		send_kv $i retrans; x=$KV; r=$((r + x))
		send_kv $i bytes; x="$x:$KV"
		send_kv $i secs; rs="$rs,$x:$KV"
	done
	record "scenario=shallow tag=$1 rep=$2 dur_s=$SHALLOW_S nflows=$SHALLOW_N limit=$NET_LIMIT drops=$DROPS retrans_sum=$r flows=${rs#,} samples=${sf#,} $FLOW_CTR $TRACE_NOTE"
	rs=""
	for ((i = 1; i <= SHALLOW_N; i++)); do flow_mbit $i; rs="$rs $MBIT"; done
	progress shallow "$1" "$2" "rates${rs} Mbit/s, retransmits $r, bottleneck drops $DROPS"
}

# Harm on a random-loss path: one flow of the tag next to one flow of the
# competitor (reno or cubic), started together; tag "X+COMPETITOR".
path_lossharm() { path_loss; }
sc_lossharm() {
	local x=${1%%+*} c=${1#*+} n a
	n=lossharm.$x.$c.r$2
	flows "$n" "$x:5511:0:$LOSSHARM_S" "$c:5512:0:$LOSSHARM_S" || return 1
	qdrops
	record "scenario=lossharm tag=$x competitor=$c rep=$2 dur_s=$LOSSHARM_S warm_s=$WARM loss_pct=$LOSS_PCT limit=$NET_LIMIT drops=$DROPS samples=$n.1.samples,$n.2.samples $FLOW_CTR $TRACE_NOTE"
	flow_mbit 1; a=$MBIT
	flow_mbit 2
	progress lossharm "$x" "$2" "$x $a vs $c $MBIT Mbit/s at $LOSS_PCT % loss"
}

# The route lengthens mid-flow (RTT -> PCHG_RTT2 on the ACK path, the buffer
# unchanged); the change time (CLOCK_MONOTONIC, as the samples) is recorded.
path_pathchange() { path_bulk; }
sc_pathchange() {
	local n=pchg.$1.r$2 chg=$W/pchg.at up cpid
	rm -f "$chg"
	(
		bsleep "$PCHG_AT"
		net_return delay "${PCHG_RTT2}ms" limit 100000
		read -r up _ < /proc/uptime
		echo "${up/./}0000" > "$chg"
	) &
	cpid=$!
	flows "$n" "$1:5901:0:$((PCHG_AT + PCHG_AFTER))" || { wait "$cpid"; path_bulk; return 1; }
	wait "$cpid"
	qdrops
	read -r up < "$chg" || up=0
	net_return delay "${RTT}ms" limit 100000
	record "scenario=pathchange tag=$1 rep=$2 dur_s=$((PCHG_AT + PCHG_AFTER)) change_s=$PCHG_AT after_s=$PCHG_AFTER rtt1_ms=$RTT rtt2_ms=$PCHG_RTT2 change_us=$up limit=$NET_LIMIT drops=$DROPS ${SENDS#send } samples=$n.1.samples $FLOW_CTR $TRACE_NOTE"
	flow_mbit 1
	progress pathchange "$1" "$2" "$MBIT Mbit/s over the whole flow, drops $DROPS"
}

# A pull of the study directory DIR by the reading station (fa_rcv) from the
# PACS server (fa_snd, which sends with the algorithm under test).
pull_once() { # SCEN TAG REP DIR PORT BYTES
	local sc=$1 tag=$2 rep=$3 dir=$4 port=$5 bytes=$6 line="" c0 ctr
	trace_begin "$tag"
	c0=$(counters)
	pacs_serve "$port" "$(cc_of "$tag")" 1 -s "$SMS" -l "$RAW/$sc.$tag.r$rep.srv" || return 1
	in_rcv "$PACS" pull -c "$SND_IP" -p "$port" -d "$dir" -T 300 > "$W/pull.out" 2>&1
	wait "$PACS_SERVE_PID"
	ctr=$(counters_diff "$c0" "$(counters)")
	trace_end
	qdrops
	read -r line < "$W/pull.out"
	case $line in
	"pull "*) ;;
	*) say "# $sc $tag pull failed: $line"; return 1 ;;
	esac
	kv_get "$line" bytes
	if [ "$KV" != "$bytes" ]; then
		say "# $sc $tag: pulled $KV bytes, want $bytes"
		return 1
	fi
	record "scenario=$sc tag=$tag rep=$rep limit=$NET_LIMIT drops=$DROPS ${line#pull } samples=$sc.$tag.r$rep.srv.* $ctr $TRACE_NOTE"
	kv_get "$line" ttlb_s
	progress "$sc" "$tag" "$rep" "time to last byte $KV s, drops $DROPS"
}

path_wan1m() { net_path $WAN1_RATE $WAN1_RTT "$(bdp_pkts $WAN1_RATE $WAN1_RTT 2)"; }
sc_wan1m() { pull_once wan1m "$1" "$2" "$W/study1m" 5601 $WAN1_BYTES; }

path_wan64m() { net_path $WAN64_RATE $WAN64_RTT "$(bdp_pkts $WAN64_RATE $WAN64_RTT 2)"; }
sc_wan64m() { pull_once wan64m "$1" "$2" "$W/study64m" 5701 $WAN64_BYTES; }

path_cpu() { net_clear; NET_LIMIT=0; }
sc_cpu() {
	local n=cpu.$1.r$2
	flows "$n" "$1:5801:0:$CPU_S" || return 1
	flow_mbit 1
	record "scenario=cpu tag=$1 rep=$2 dur_s=$CPU_S ${SENDS#send } mbit=$MBIT samples=$n.1.samples $FLOW_CTR"
	progress cpu "$1" "$2" "unshaped $MBIT Mbit/s"
}

# The guest's CPU time counters (all CPUs, USER_HZ ticks), builtins only:
# "user nice system idle iowait irq softirq steal".
stat_cpu() {
	local cpu u n s i io irq si st rest
	read -r cpu u n s i io irq si st rest < /proc/stat
	STAT="$u $n $s $i $io $irq $si $st"
}

# CPU per GiB delivered at CPUGIB_RATE Mbit/s, CPUGIB_RTT ms (buffer 2 BDP):
# one flow of CPUGIB_S s; a watcher reads /proc/stat and the time at
# CPUGIB_FROM and CPUGIB_TO s; report.sh (metrics.awk mode=cpugib) divides
# the CPU time between them by the bytes acknowledged between them (from
# the samples, taken every 100 ms here to keep the sampler's own cost low).
path_cpugib() { net_path $CPUGIB_RATE $CPUGIB_RTT "$(bdp_pkts $CPUGIB_RATE $CPUGIB_RTT 2)"; }
sc_cpugib() {
	local n=cpugib.$1.r$2 wf=$W/cpugib.watch wpid up a b SMS=100
	rm -f "$wf"
	(
		bsleep "$CPUGIB_FROM"
		stat_cpu; read -r up _ < /proc/uptime; a="${up/./}0000 $STAT"
		bsleep $((CPUGIB_TO - CPUGIB_FROM))
		stat_cpu; read -r up _ < /proc/uptime; b="${up/./}0000 $STAT"
		echo "$a $b" > "$wf"
	) &
	wpid=$!
	flows "$n" "$1:5811:0:$CPUGIB_S" || { wait "$wpid"; return 1; }
	wait "$wpid"
	qdrops
	read -r -a a < "$wf" || return 1
	# a[0] t0 a[1..8] counters at t0, a[9] t1, a[10..17] at t1
	b="cpu_from_us=${a[0]} cpu_to_us=${a[9]}"
	b="$b d_user=$((a[10] - a[1])) d_nice=$((a[11] - a[2])) d_system=$((a[12] - a[3]))"
	b="$b d_idle=$((a[13] - a[4])) d_iowait=$((a[14] - a[5])) d_irq=$((a[15] - a[6]))"
	b="$b d_softirq=$((a[16] - a[7])) d_steal=$((a[17] - a[8]))"
	record "scenario=cpugib tag=$1 rep=$2 dur_s=$CPUGIB_S rate_mbit=$CPUGIB_RATE rtt_ms=$CPUGIB_RTT limit=$NET_LIMIT drops=$DROPS ${SENDS#send } $b samples=$n.1.samples $FLOW_CTR"
	flow_mbit 1
	progress cpugib "$1" "$2" "$MBIT Mbit/s, CPU ticks user $((a[10] - a[1])) sys $((a[12] - a[3])) softirq $((a[16] - a[7])) irq $((a[15] - a[6])) idle $((a[13] - a[4])) over $(((a[9] - a[0]) / 1000)) ms"
}

# --- the run --------------------------------------------------------------------------

case " $SCENARIOS " in *" wan1m "*)
	mkdir -p "$W/study1m" && head -c $WAN1_BYTES /dev/urandom > "$W/study1m/study.bin" ;;
esac
case " $SCENARIOS " in *" wan64m "*)
	mkdir -p "$W/study64m" && head -c $WAN64_BYTES /dev/urandom > "$W/study64m/study.bin" ;;
esac

# The receivers of scenario SC's ports for CONNS connections:
# recv_start SC REP CONNS SUFFIX (output in $W/recv.SC.PORT[SUFFIX].REP);
# recv_stop ends them.
RPIDS=""
recv_start() {
	local port
	for port in $(ports_of "$1"); do
		net_recv "$port" "$3" "$W/recv.$1.$port$4.$2" || return 1
		RPIDS="$RPIDS $NET_RECV_PID"
	done
}
recv_stop() {
	# shellcheck disable=SC2086
	[ -z "$RPIDS" ] || { kill $RPIDS 2>/dev/null; wait $RPIDS 2>/dev/null; }
	RPIDS=""
}

failed=0
for sc in $SCENARIOS; do
	say "[bench $(elapsed)] -- scenario $sc"
	tags=$(tags_of "$sc")
	ntags=$(echo $tags | wc -w)
	"path_$sc" || { say "# path setup for $sc failed"; failed=1; continue; }
	qdrops
	[ -n "$tags" ] || { say "# $sc: nothing to run here"; continue; }
	per_run=0
	case " $RECV_PER_RUN " in *" $sc "*) per_run=1 ;; esac
	for rep in $(seq 1 "$REPS"); do
		if [ $per_run = 0 ]; then
			recv_start "$sc" "$rep" "$ntags" "" || { recv_stop; failed=1; continue 2; }
		fi
		for tag in $tags; do
			mode_for "$(tag_self "$tag")" || { say "# cannot set the mode of $tag"; failed=1; continue; }
			ok=1
			if [ $per_run = 1 ]; then
				recv_start "$sc" "$rep" 1 ".$tag" || ok=0
			fi
			if [ $ok = 0 ] || ! "sc_$sc" "$tag" "$rep"; then
				failed=1
				case $tag in
				*+*) record "scenario=$sc tag=${tag%%+*} competitor=${tag#*+} rep=$rep failed=1" ;;
				*) record "scenario=$sc tag=$tag rep=$rep failed=1" ;;
				esac
				progress "$sc" "$tag" "$rep" "FAILED"
			fi
			[ $per_run = 0 ] || recv_stop
		done
		recv_stop
		cat "$W"/recv.$sc.*.$rep >> "$OUT/recv.txt" 2>/dev/null
	done
done
mode_for fast_adaptive
say "[bench $(elapsed)] done: $run_no runs"
exit $failed
