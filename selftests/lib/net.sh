# SPDX-License-Identifier: GPL-2.0
#
# The test network (sourced by bash scripts): a dumbbell of namespaces
#
#   fa_snd (sender) --veth-- fa_rtr (router) --veth-- fa_rcv (receiver)
#   192.0.2.1    192.0.2.2        198.51.100.2    198.51.100.1
#
# with GRO/GSO/TSO off on every veth, so that the router forwards and queues
# MTU-sized packets.  The bottleneck is a netem on the router's egress toward
# the receiver (rate, limit in packets, loss, reorder, duplicate); the
# propagation delay is a netem on the router's egress toward the sender (the
# ACK path), so that the bottleneck's limit counts only queued packets, not
# packets in the delay line.  Nothing is ever shaped on the sender's own
# interface.  Only addresses of these namespaces are ever used.

NS_SND=fa_snd
NS_RTR=fa_rtr
NS_RCV=fa_rcv
SND_IP=192.0.2.1
RTR_SND_IP=192.0.2.2
RTR_RCV_IP=198.51.100.2
RCV_IP=198.51.100.1
NET_BOTTLENECK_DEV=rr0	# in fa_rtr, toward the receiver
NET_RETURN_DEV=rs0	# in fa_rtr, toward the sender
# Bytes a full-sized packet takes on the bottleneck: 1500 (MTU) + 14 (Ethernet).
NET_WIRE_PKT=1514

in_snd() { ip netns exec "$NS_SND" "$@"; }
in_rtr() { ip netns exec "$NS_RTR" "$@"; }
in_rcv() { ip netns exec "$NS_RCV" "$@"; }

net_teardown() {
	local ns
	for ns in "$NS_SND" "$NS_RTR" "$NS_RCV"; do
		ip netns del "$ns" 2>/dev/null
	done
	return 0
}

net_offloads_off() { # ns dev
	ip netns exec "$1" ethtool -K "$2" gro off gso off tso off >/dev/null 2>&1 ||
		{ echo "# ethtool -K $2 gro/gso/tso off failed in $1" >&2; return 1; }
}

# Every step must succeed; the first that fails is named on stderr.
net_step() {
	"$@" || { echo "# network setup failed at: $*" >&2; return 1; }
}

net_setup() {
	local ns
	net_teardown
	net_step modprobe veth &&
	net_step modprobe sch_netem &&
	net_step ip netns add "$NS_SND" &&
	net_step ip netns add "$NS_RTR" &&
	net_step ip netns add "$NS_RCV" &&
	net_step ip link add snd0 netns "$NS_SND" type veth peer name rs0 netns "$NS_RTR" &&
	net_step ip link add rr0 netns "$NS_RTR" type veth peer name rcv0 netns "$NS_RCV" &&
	net_step in_snd ip addr add "$SND_IP/24" dev snd0 &&
	net_step in_rtr ip addr add "$RTR_SND_IP/24" dev rs0 &&
	net_step in_rtr ip addr add "$RTR_RCV_IP/24" dev rr0 &&
	net_step in_rcv ip addr add "$RCV_IP/24" dev rcv0 &&
	net_offloads_off "$NS_SND" snd0 &&
	net_offloads_off "$NS_RTR" rs0 &&
	net_offloads_off "$NS_RTR" rr0 &&
	net_offloads_off "$NS_RCV" rcv0 || return 1
	for ns in "$NS_SND" "$NS_RTR" "$NS_RCV"; do
		net_step ip -n "$ns" link set lo up || return 1
	done
	net_step in_snd ip link set snd0 up &&
	net_step in_rtr ip link set rs0 up &&
	net_step in_rtr ip link set rr0 up &&
	net_step in_rcv ip link set rcv0 up &&
	net_step in_snd ip route add default via "$RTR_SND_IP" &&
	net_step in_rcv ip route add default via "$RTR_RCV_IP" &&
	net_step in_rtr sysctl -qw net.ipv4.ip_forward=1 &&
	# the per-CPU backlog that veth feeds (global): deep enough that a
	# burst is never dropped before it reaches the bottleneck's queue
	net_step sysctl -qw net.core.netdev_max_backlog=100000 &&
	# every flow starts fresh: no cached ssthresh/RTT from an earlier flow
	net_step in_snd sysctl -qw net.ipv4.tcp_no_metrics_save=1 &&
	net_step in_rcv sysctl -qw net.ipv4.tcp_no_metrics_save=1 &&
	net_rx_in_order
}

# With 2 vCPUs a veth queues each packet on the backlog of the CPU that
# sent it, so a flow's packets sent from process context on one CPU and
# from the ACK softirq on the other overtake each other before the
# bottleneck: spurious SACK reordering and retransmissions with no drop
# (found by the bench).  RPS steers each veth's receive side to one CPU.
net_rx_in_order() {
	net_step in_snd sh -c 'echo 1 > /sys/class/net/snd0/queues/rx-0/rps_cpus' &&
	net_step in_rtr sh -c 'echo 2 > /sys/class/net/rs0/queues/rx-0/rps_cpus' &&
	net_step in_rtr sh -c 'echo 2 > /sys/class/net/rr0/queues/rx-0/rps_cpus' &&
	net_step in_rcv sh -c 'echo 1 > /sys/class/net/rcv0/queues/rx-0/rps_cpus'
}

# Replace the bottleneck qdisc: net_bottleneck NETEM-ARGS...
net_bottleneck() {
	in_rtr tc qdisc replace dev "$NET_BOTTLENECK_DEV" root netem "$@"
}

# Replace the ACK-path qdisc: net_return NETEM-ARGS...
net_return() {
	in_rtr tc qdisc replace dev "$NET_RETURN_DEV" root netem "$@"
}

# net_dumbbell RATE_MBIT RTT_MS BDP_MULTIPLE: a RATE bottleneck whose buffer
# holds BDP_MULTIPLE bandwidth-delay products of full-sized packets, and an
# RTT_MS propagation delay.  Sets NET_LIMIT (packets).
net_dumbbell() {
	local rate=$1 rtt=$2 mult=$3
	NET_LIMIT=$(((rate * 1000000 * rtt / 1000 / 8 * mult + NET_WIRE_PKT / 2) / NET_WIRE_PKT))
	net_bottleneck rate "${rate}mbit" limit "$NET_LIMIT" &&
		net_return delay "${rtt}ms" limit 100000
}

# Bytes and drops of the bottleneck so far: "sent_bytes sent_pkts dropped"
net_bottleneck_stats() {
	in_rtr tc -s qdisc show dev "$NET_BOTTLENECK_DEV" |
		awk '/Sent/ { b = $2; p = $4; d = $7; sub(/,/, "", d) } END { print b, p, d }'
}

# Packets the kernel dropped from its per-CPU input backlog so far (all CPUs):
# drops in the rig, not at the emulated bottleneck.
softnet_drops() {
	local total=0 a b rest
	while read -r a b rest; do
		total=$((total + 16#$b))
	done < /proc/net/softnet_stat
	echo $total
}

# Start a receiver in fa_rcv: net_recv PORT CONNS OUTFILE [FILE]; waits until
# it listens.  The receiver's report lines go to OUTFILE.
net_recv() {
	local port=$1 conns=$2 out=$3 file=${4:-} ready i
	ready=$(mktemp -u /tmp/fa_ready.XXXXXX)
	if [ -n "$file" ]; then
		in_rcv "$FA_XFER" recv -p "$port" -k "$conns" -R "$ready" -o "$file" -T 300 > "$out" 2>&1 &
	else
		in_rcv "$FA_XFER" recv -p "$port" -k "$conns" -R "$ready" -T 300 > "$out" 2>&1 &
	fi
	NET_RECV_PID=$!
	for i in $(seq 1 100); do
		[ -e "$ready" ] && { rm -f "$ready"; return 0; }
		kill -0 "$NET_RECV_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "# receiver on port $port did not start: $(cat "$out")" >&2
	return 1
}

# net_aqm_bottleneck RATE_MBIT RTT_MS: the bottleneck as an ECN-marking AQM
# instead of a netem: an HTB class of RATE (the shaper) holding an fq_codel
# with ecn (its default target 5 ms, interval 100 ms, limit 10240 packets),
# on the router's egress toward the receiver; the RTT_MS propagation delay on
# the ACK path as net_dumbbell has it.  HTB and fq_codel count a packet's
# whole frame (1514 bytes), as netem's rate does.  The quantum is given so
# that HTB does not log that the one it derives from the rate is too big.
# The burst (and cburst) is NET_AQM_BURST_MS of the rate: HTB's tokens are
# capped at the burst, and tc's default (1600 bytes, one packet: 0.26 ms
# at 50 Mbit/s, `tc -d class show`) is lost whenever the watchdog timer
# fires late, which under TCG it does by milliseconds: on 6.1 under TCG a cubic
# flow into HTB 50 Mbit/s with a 400-packet pfifo moved 43.5 and 44.3 of
# the 47.8 Mbit/s of payload with the default burst, 47.8 and 47.8 with
# 100 KB (16 ms), as through the netem shaper (47.8).  A saturated class
# still sends at the rate on average; the burst only makes up for a late
# dequeue.
NET_AQM_BURST_MS=16
net_aqm_bottleneck() {
	local rate=$1 rtt=$2 burst
	burst=$((rate * 1000 * NET_AQM_BURST_MS / 8))	# bytes
	modprobe sch_htb 2>/dev/null
	in_rtr tc qdisc del dev "$NET_BOTTLENECK_DEV" root 2>/dev/null
	net_step in_rtr tc qdisc add dev "$NET_BOTTLENECK_DEV" root handle 1: htb default 1 &&
	net_step in_rtr tc class add dev "$NET_BOTTLENECK_DEV" parent 1: classid 1:1 \
		htb rate "${rate}mbit" ceil "${rate}mbit" quantum 15140 \
		burst "$burst" cburst "$burst" &&
	net_step in_rtr tc qdisc add dev "$NET_BOTTLENECK_DEV" parent 1:1 handle 10: fq_codel ecn &&
	net_step net_return delay "${rtt}ms" limit 100000
}

# The AQM's counters so far (the fq_codel of net_aqm_bottleneck):
# "sent_bytes=B sent_pkts=P dropped=D ecn_mark=M drop_overlimit=O"
net_aqm_stats() {
	in_rtr tc -s qdisc show dev "$NET_BOTTLENECK_DEV" | awk '
		/^qdisc / { aqm = ($2 == "fq_codel") }
		!aqm { next }
		/Sent/ { b = $2; p = $4; d = $7; sub(/,/, "", d) }
		{ for (i = 1; i < NF; i++) {
			if ($i == "ecn_mark") m = $(i + 1)
			if ($i == "drop_overlimit") o = $(i + 1)
		} }
		END { printf "sent_bytes=%d sent_pkts=%d dropped=%d ecn_mark=%d drop_overlimit=%d\n", b, p, d, m, o }'
}
