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
