# SPDX-License-Identifier: GPL-2.0
#
# Shared by the guest scripts of tools/bench and tools/demo (sourced by
# bash, inside the VM, as root).  Builds on the selftests' libraries:
# selftests/lib/fa.sh (module, tunables), net.sh (the dumbbell fa_snd ->
# fa_rtr -> fa_rcv, offloads off, bottleneck netem on the router's egress
# toward the receiver, delay on the ACK path) and measure.sh (sample files).

BENCH_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BENCH_REPO=${BENCH_REPO:-$(cd "$BENCH_LIB_DIR/../.." && pwd)}
# shellcheck source=/dev/null
. "$BENCH_REPO/selftests/lib/fa.sh"
# shellcheck source=/dev/null
. "$BENCH_REPO/selftests/lib/net.sh"
# shellcheck source=/dev/null
. "$BENCH_REPO/selftests/lib/measure.sh"

PACS=${BENCH_PACS:-$BENCH_REPO/build/bench/pacs}

# The tags (cc_of, mode_of), set through the module's parameters.
# shellcheck source=tags.sh
. "$BENCH_LIB_DIR/tags.sh"

# The tag whose mode a run sets: a pair scenario's "X+COMPETITOR" runs X.
tag_self() {
	echo "${1%%+*}"
}

# Put the module in the mode TAG needs (only fast_adaptive tags touch it;
# plain writes to the range-checked parameters, no helper process): undo
# what the previous tag set, then set this tag's values.
declare -A FA_SAVED
FA_MODE=""
mode_for() {
	local want kv n
	case $1 in
	fast_adaptive | fa_*) want=$(mode_of "$1") ;;
	*) return 0 ;;
	esac
	[ "$FA_MODE" = "$want" ] && return 0
	for kv in $FA_MODE; do
		n=${kv%%=*}
		echo "${FA_SAVED[$n]}" > "$FA_PARAMS/$n" || return 1
	done
	FA_MODE=""
	for kv in $want; do
		n=${kv%%=*}
		[ -n "${FA_SAVED[$n]:-}" ] || FA_SAVED[$n]=$(cat "$FA_PARAMS/$n") || return 1
		echo "${kv#*=}" > "$FA_PARAMS/$n" || return 1
	done
	FA_MODE=$want
}

# Load fast_adaptive and the kernel's comparison algorithms.
bench_load_ccs() {
	fa_load || { echo "cannot insmod $FA_MODULE" >&2; return 1; }
	modprobe tcp_bbr 2>/dev/null
	modprobe tcp_vegas 2>/dev/null
	modprobe sch_netem 2>/dev/null
	modprobe sch_prio 2>/dev/null
	modprobe cls_u32 2>/dev/null
	return 0
}

cc_available() {
	grep -qw "$(cc_of "$1")" /proc/sys/net/ipv4/tcp_available_congestion_control
}

# Remove our qdiscs from both router interfaces (back to the veth default).
net_clear() {
	in_rtr tc qdisc del dev "$NET_BOTTLENECK_DEV" root 2>/dev/null
	in_rtr tc qdisc del dev "$NET_RETURN_DEV" root 2>/dev/null
	return 0
}

# Bottleneck RATE_MBIT with a buffer of LIMIT packets (plus extra netem
# arguments, e.g. loss 0.5%) and one propagation delay RTT_MS for all flows.
net_path() { # RATE_MBIT RTT_MS LIMIT [NETEM-ARGS...]
	local rate=$1 rtt=$2 limit=$3
	shift 3
	net_clear
	NET_LIMIT=$limit
	net_bottleneck rate "${rate}mbit" limit "$limit" "$@" &&
		net_return delay "${rtt}ms" limit 100000
}

# Per-flow propagation delays on the ACK path, chosen by the receiver's
# port (the source port of every packet the receiver sends):
#   net_return_by_port DEFAULT_MS PORT:MS [PORT:MS...]
# A prio qdisc with one netem child per delay, u32 filters on the port.
net_return_by_port() {
	local def=$1 band=1 spec port ms
	shift
	in_rtr tc qdisc del dev "$NET_RETURN_DEV" root 2>/dev/null
	in_rtr tc qdisc add dev "$NET_RETURN_DEV" root handle 1: prio bands $(($# + 1)) \
		priomap $(for _ in $(seq 16); do printf '%d ' $#; done) || return 1
	for spec in "$@"; do
		port=${spec%%:*} ms=${spec#*:}
		in_rtr tc qdisc add dev "$NET_RETURN_DEV" parent 1:$band handle $((band * 10)): \
			netem delay "${ms}ms" limit 100000 || return 1
		in_rtr tc filter add dev "$NET_RETURN_DEV" parent 1: protocol ip prio 1 u32 \
			match ip sport "$port" 0xffff flowid 1:$band || return 1
		band=$((band + 1))
	done
	in_rtr tc qdisc add dev "$NET_RETURN_DEV" parent 1:$band handle $((band * 10)): \
		netem delay "${def}ms" limit 100000
}

# Bytes a rate of R Mbit/s moves in D ms, in full-sized packets.
bdp_pkts() { # RATE_MBIT RTT_MS MULT
	echo $((($1 * 1000000 * $2 / 1000 / 8 * $3 + NET_WIRE_PKT / 2) / NET_WIRE_PKT))
}

# Start "pacs serve" in the sender namespace: pacs_serve PORT CC CONNS [ARGS]
# Sets PACS_SERVE_PID; waits until it listens.
pacs_serve() {
	local port=$1 cc=$2 conns=$3 ready=/tmp/.pacs_ready.$1.$$
	shift 3
	in_snd "$PACS" serve -p "$port" -C "$cc" -k "$conns" -R "$ready" -T 600 "$@" &
	PACS_SERVE_PID=$!
	if wait_file "$ready" 150; then
		rm -f "$ready"
		return 0
	fi
	echo "pacs server on port $port did not start" >&2
	return 1
}

# --- cheap helpers: under TCG every exec costs 0.5-1 s, so the per-run
# bookkeeping uses bash builtins only ------------------------------------------

# bsleep SECS: sleep without a process (read with a timeout on a FIFO).
bsleep() {
	if [ -z "${BSLEEP_FD:-}" ]; then
		local f=/tmp/.bsleep.$$
		mkfifo "$f" && exec {BSLEEP_FD}<> "$f" && rm -f "$f"
	fi
	read -r -t "$1" -u "$BSLEEP_FD" _ 2>/dev/null
	return 0
}

# A sleeper in the sender and the router namespaces, whose /proc/PID/net/*
# show those namespaces' counters without ip netns exec.
# (ip netns exec execs the command in place, so $! is the sleeper itself; a
# shell function such as in_snd would run in a subshell of the root namespace.)
ns_watchers() {
	ip netns exec "$NS_SND" sleep 100000 &
	NS_SND_PID=$!
	ip netns exec "$NS_RTR" sleep 100000 &
	NS_RTR_PID=$!
}

# wait_file FILE [TRIES]: wait for FILE (0.1 s steps), status 1 if it never came
wait_file() {
	local i
	for ((i = 0; i < ${2:-100}; i++)); do
		[ -e "$1" ] && return 0
		bsleep 0.1
	done
	return 1
}

# In-order veths (RPS to one CPU) and a deep netdev backlog come with
# selftests/lib/net.sh's net_setup (net_rx_in_order there).

# Loss-related counters, to tell bottleneck drops from drops elsewhere in
# the emulated machine and from spurious retransmissions (needs
# ns_watchers):  counters -> "softnet_drop=N TCPTimeouts=N ..."
CTR_KEYS="TCPTimeouts TCPLossProbes TCPSpuriousRTOs TCPDSACKRecv TCPSACKReorder TCPLostRetransmit"
counters() {
	local line sd=0 f k i names=() vals=() out=""
	while read -r -a f; do
		sd=$((sd + 16#${f[1]}))
	done < /proc/net/softnet_stat
	while read -r -a f; do
		[ "${f[0]}" = TcpExt: ] || continue
		if [ ${#names[@]} -eq 0 ]; then names=("${f[@]}"); else vals=("${f[@]}"); fi
	done < "/proc/$NS_SND_PID/net/netstat"
	for k in $CTR_KEYS; do
		for ((i = 1; i < ${#names[@]}; i++)); do
			[ "${names[$i]}" = "$k" ] && out="$out $k=${vals[$i]}"
		done
	done
	echo "softnet_drop=$sd$out"
}

# counters_diff "BEFORE" "AFTER" -> the same keys with a d_ prefix, differences
counters_diff() {
	local a=($1) b=($2) i out=""
	for ((i = 0; i < ${#a[@]}; i++)); do
		out="$out d_${a[$i]%%=*}=$((${b[$i]#*=} - ${a[$i]#*=}))"
	done
	echo "${out# }"
}

# kv_get "k=v k=v" KEY: like measure.sh's field, as a variable (no subshell):
# sets KV to the value
kv_get() {
	local kv
	KV=""
	for kv in $1; do
		case $kv in "$2"=*) KV=${kv#*=}; return 0 ;; esac
	done
	return 1
}
