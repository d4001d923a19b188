# SPDX-License-Identifier: GPL-2.0
#
# Numbers from fa_xfer's sample files (sourced by bash scripts).  Columns:
#  1 t_us  2 cwnd  3 rtt_us (srtt)  4 rttvar_us  5 min_rtt_us  6 bytes_acked
#  7 total_retrans  8 lost  9 ca_state  10 mss  11 delivery_rate  12 ssthresh
#  13 vegas_enabled  14 vegas_rttcnt  15 vegas_rtt_us  16 vegas_minrtt_us
# Samples are TCP_INFO polled every 50 ms; the queueing delay of a sample is
# its smoothed RTT minus the flow's minimum RTT (tcpi_min_rtt, the smallest
# RTT sample the kernel saw on the connection).

# measure_flow FILE FROM_US TO_US: over samples with FROM_US <= t <= TO_US
# (absolute CLOCK_MONOTONIC us) prints
#   goodput_mbit=G qdelay_ms=MEAN qdelay_max_ms=MAX minrtt_ms=M rtt_ms=MEAN
#   retrans=R samples=N
measure_flow() {
	awk -v from="$2" -v to="$3" '
	/^#/ { next }
	{ if ($5 > 0 && (minrtt == "" || $5 < minrtt)) minrtt = $5 }
	$1 >= from && $1 <= to && $3 > 0 {
		if (t0 == "") { t0 = $1; b0 = $6 }
		t1 = $1; b1 = $6; n++; rtt[n] = $3; retrans = $7
	}
	END {
		if (n < 2 || t1 <= t0 || minrtt == "") { print "samples=" n+0; exit 1 }
		for (i = 1; i <= n; i++) { q = rtt[i] - minrtt; s += q; if (q > qmax) qmax = q; rs += rtt[i] }
		printf "goodput_mbit=%.2f qdelay_ms=%.2f qdelay_max_ms=%.2f minrtt_ms=%.2f rtt_ms=%.2f retrans=%d samples=%d\n",
			(b1 - b0) * 8 / (t1 - t0), s / n / 1000, qmax / 1000, minrtt / 1000, rs / n / 1000, retrans, n
	}' "$1"
}

# The first sample's time stamp (us) of a sample file.
first_sample_us() {
	awk '!/^#/ { print $1; exit }' "$1"
}

# The sample file's total_retrans at the first sample at or after T_US.
retrans_at() { # FILE T_US
	awk -v t="$2" '!/^#/ && $1 >= t { print $7; found = 1; exit } END { if (!found) print "none" }' "$1"
}

# field NAME "k=v k=v ...": the value of NAME
field() {
	local kv
	for kv in $2; do
		case $kv in "$1"=*) echo "${kv#*=}"; return 0 ;; esac
	done
	return 1
}

# fcmp "EXPR": awk-evaluated floating point comparison, status 0 when true
fcmp() {
	awk "BEGIN { exit !($1) }"
}

# Jain's fairness index of the numbers given
jain() {
	echo "$@" | awk '{ for (i = 1; i <= NF; i++) { s += $i; q += $i * $i } printf "%.3f\n", (q > 0 ? s * s / (NF * q) : 0) }'
}

# The guest's CPU time counters: "busy total" in jiffies over all CPUs.
cpu_ticks() {
	local cpu user nice system idle iowait irq softirq steal rest
	read -r cpu user nice system idle iowait irq softirq steal rest < /proc/stat
	echo "$((user + nice + system + irq + softirq + steal)) $((user + nice + system + idle + iowait + irq + softirq + steal))"
}

# cpu_busy_pct "BEFORE" "AFTER" (two cpu_ticks outputs): percent busy
cpu_busy_pct() {
	set -- $1 $2
	[ $(($4 - $2)) -gt 0 ] || { echo 0; return; }
	echo $(((($3 - $1) * 100) / ($4 - $2)))
}

# flow_timeline FILE: one "# " line per second of a sample file: goodput,
# cwnd range, ssthresh, phases seen (fast_adaptive's tcpv_enabled bits 8-15:
# 0 slow start, 1 law, 2 probe, 3 ramp, 4 compete), retransmissions and congestion states, so
# that a failed bar comes with what the flow did.
flow_timeline() {
	awk '
	/^#/ { next }
	t0 == "" { t0 = $1; b0 = $6; r0 = $7 }
	{
		s = int(($1 - t0) / 1000000)
		if (s != cur) { flush(); cur = s; cmin = ""; cmax = 0; ph = ""; cas = ""; delete seen; delete seenca }
		if (cmin == "" || $2 < cmin) cmin = $2
		if ($2 > cmax) cmax = $2
		p = int($13 / 256) % 256
		if (!(p in seen)) { seen[p] = 1; ph = ph (ph == "" ? "" : ",") p }
		if (!($9 in seenca)) { seenca[$9] = 1; cas = cas (cas == "" ? "" : ",") $9 }
		last_b = $6; last_r = $7; ssth = $12; rtt = $3
	}
	function flush() {
		if (cur == "") return
		printf "# t=%2ds goodput %6.2f Mbit/s cwnd %d..%d ssthresh %d srtt %.1f ms phase %s ca_state %s retrans +%d\n",
			cur, (last_b - b0) * 8 / 1e6, cmin, cmax, ssth, rtt / 1000, ph, cas, last_r - r0
		b0 = last_b; r0 = last_r
	}
	BEGIN { cur = "" }
	END { flush() }' "$1"
}

# trace_gaps TRACE SPORT: the update records of one flow: how many, and the
# longest time between two of them (the law runs every update_rtts RTTs).
trace_gaps() {
	awk -v sp="$2" '
	/ update: / && $0 ~ (" sport=" sp " ") {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i; sub(/:$/, "", t) }
		n++
		if (n > 1 && t - prev > gap) { gap = t - prev; at = prev }
		prev = t
	}
	END { printf "%d update records, longest gap %.3f s (after the record at %.6f)\n", n, gap, at }' "$1"
}
