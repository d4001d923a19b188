# SPDX-License-Identifier: GPL-2.0
#
# Per-run metrics from fa_xfer/pacs sample files (columns: see
# selftests/lib/measure.sh).  mawk-compatible.
#
#   awk -f metrics.awk -v mode=qdelay FILE
#       queueing delay of every sample, srtt - the flow's minimum RTT
#       (tcpi_min_rtt): "qmean_ms=M qp95_ms=P n=N"
#   awk -f metrics.awk -v mode=fair -v fill_mbit=R FILE1 FILE2 FILE3
#       three staggered flows (FILE1 starts first): per-flow rates in 0.5 s
#       bins of bytes_acked; prints
#       "fill_s=F conv2_s=C2 conv3_s=C3 overshoot_pct=O"
#       fill_s: from flow 1's start until its rate first reaches 90 % of
#       fill_mbit; convK_s: from flow K's join until Jain's index of the
#       active flows' 1 s rates stays >= 0.95 for 2 s (or to the end of the
#       interval), "nc" if never before the next join / the end;
#       overshoot_pct: the highest 0.5 s rate of a joining flow above its
#       fair share (the active flows' total / their number), in %, over
#       both joins.
#   awk -f metrics.awk -v mode=recover -v from=US -v fill_mbit=R FILE
#       a single flow after an event at time US (CLOCK_MONOTONIC, as the
#       samples): "recover_s=T", the end of the first 0.5 s bin after US
#       whose rate of bytes_acked reaches 90 % of fill_mbit, "nc" if none
#   awk -f metrics.awk -v mode=cpugib -v from=US -v to=US -v busy=TICKS
#           -v total=TICKS [-v hz=100] FILE
#       CPU cost of a shaped flow: the guest's busy CPU time between two
#       times (TICKS of /proc/stat, all CPUs: user+nice+system+irq+softirq)
#       per GiB the flow got acknowledged between them (bytes_acked of the
#       samples nearest inside the interval, scaled to its length):
#       "cpu_s_per_gib=C mbit=G busy_pct=B"
#   awk -f metrics.awk -v mode=qback -v from=US -v limit_ms=L FILE
#       queueing delay back after an event at US (CLOCK_MONOTONIC): the end
#       of the first 0.5 s bin after US whose mean srtt - the flow's minimum
#       RTT (over the whole file) is <= L ms, in s after US: "qback_s=T",
#       "nc" if none

function isort(a, n,    i, j, v) {
	for (i = 2; i <= n; i++) {
		v = a[i]
		for (j = i - 1; j >= 1 && a[j] > v; j--)
			a[j + 1] = a[j]
		a[j + 1] = v
	}
}

function jain3(x1, x2, x3, k,    s, q) {
	s = x1 + (k >= 2 ? x2 : 0) + (k >= 3 ? x3 : 0)
	q = x1 * x1 + (k >= 2 ? x2 * x2 : 0) + (k >= 3 ? x3 * x3 : 0)
	return q > 0 ? s * s / (k * q) : 0
}

BEGIN { BIN = 500000 }

/^#/ { next }

mode == "qdelay" {
	if ($5 > 0 && (minrtt == "" || $5 < minrtt))
		minrtt = $5
	if ($3 > 0)
		rtt[++n] = $3
	next
}

mode == "recover" {
	if ($1 < from)
		next
	b = int(($1 - from) / BIN)
	last[b] = $6
	if (b > maxb)
		maxb = b
	next
}

mode == "qback" {
	if ($5 > 0 && (minrtt == "" || $5 < minrtt))
		minrtt = $5
	if ($1 < from || $3 <= 0)
		next
	b = int(($1 - from) / BIN)
	qs[b] += $3
	qn[b]++
	if (b > maxb)
		maxb = b
	next
}

mode == "cpugib" {
	if ($1 < from || $1 > to)
		next
	if (ct0 == "") { ct0 = $1; cb0 = $6 }
	ct1 = $1; cb1 = $6
	next
}

mode == "fair" {
	if (FILENAME != cur) {
		cur = FILENAME
		f++
		start[f] = $1
		if (f == 1)
			T0 = $1
	}
	b = int(($1 - T0) / BIN)
	if (b < 0)
		b = 0
	last[f, b] = $6
	if (b > maxb)
		maxb = b
	endt[f] = $1
	next
}

END {
	if (mode == "cpugib") {
		if (hz == "")
			hz = 100
		if (ct1 <= ct0 || cb1 <= cb0 || to <= from) {
			print "cpu_s_per_gib=nan mbit=nan busy_pct=nan"
			exit
		}
		bytes = (cb1 - cb0) * (to - from) / (ct1 - ct0)
		printf "cpu_s_per_gib=%.3f mbit=%.2f busy_pct=%.1f\n", (busy / hz) / (bytes / 1073741824),
			(cb1 - cb0) * 8 / (ct1 - ct0), (total > 0 ? 100 * busy / total : 0)
		exit
	}
	if (mode == "qback") {
		out = "nc"
		if (minrtt != "")
			for (b = 0; b <= maxb; b++)
				if ((b in qn) && (qs[b] / qn[b] - minrtt) / 1000 <= limit_ms + 0) {
					out = sprintf("%.1f", (b + 1) * BIN / 1e6)
					break
				}
		print "qback_s=" out
		exit
	}
	if (mode == "recover") {
		out = "nc"
		c = ""
		for (b = 0; b <= maxb; b++) {
			if (!(b in last))
				continue
			if (c != "" && (last[b] - c) * 8 / (BIN / 1e6) / 1e6 >= 0.9 * fill_mbit) {
				out = sprintf("%.1f", (b + 1) * BIN / 1e6)
				break
			}
			c = last[b]
		}
		print "recover_s=" out
		exit
	}
	if (mode == "qdelay") {
		if (n < 1 || minrtt == "") {
			print "qmean_ms=nan qp95_ms=nan n=0"
			exit
		}
		for (i = 1; i <= n; i++) {
			q[i] = rtt[i] - minrtt
			s += q[i]
		}
		isort(q, n)
		k = int(0.95 * n + 0.999999)
		if (k < 1) k = 1
		printf "qmean_ms=%.2f qp95_ms=%.2f n=%d\n", s / n / 1000, q[k] / 1000, n
		exit
	}
	if (mode == "fair") {
		nf = f
		for (f = 1; f <= nf; f++) {
			c = 0
			for (b = 0; b <= maxb; b++) {
				prev = c
				if ((f, b) in last)
					c = last[f, b]
				cum[f, b] = c
				rate[f, b] = (c - prev) * 8 / (BIN / 1e6) / 1e6
			}
			jt[f] = (start[f] - T0) / 1e6
			jb[f] = int((start[f] - T0 + BIN - 1) / BIN)
			eb[f] = int((endt[f] - T0) / BIN) - 1	# last full bin
		}
		# fill: flow 1 alone up to the second join
		fill = "nc"
		for (b = 0; b < jb[2] && b <= maxb; b++)
			if (rate[1, b] >= 0.9 * fill_mbit) {
				fill = sprintf("%.1f", (b + 1) * BIN / 1e6 - jt[1])
				break
			}
		lastall = eb[1]
		for (f = 2; f <= nf; f++)
			if (eb[f] < lastall)
				lastall = eb[f]
		over = 0
		for (k = 2; k <= nf; k++) {
			lo = jb[k]
			hi = (k < nf) ? jb[k + 1] - 1 : lastall
			conv[k] = "nc"
			# windows of 2 bins (1 s); the condition must hold for 4 window
			# positions (2 s) or up to the end of the interval
			for (b = lo; b + 1 <= hi; b++) {
				ok = 1
				for (w = b; w <= b + 3 && w + 1 <= hi; w++) {
					j = jain3((rate[1, w] + rate[1, w + 1]) / 2, (rate[2, w] + rate[2, w + 1]) / 2,
						  (rate[3, w] + rate[3, w + 1]) / 2, k)
					if (j < 0.95) { ok = 0; break }
				}
				if (ok) {
					conv[k] = sprintf("%.1f", b * BIN / 1e6 - jt[k])
					if (conv[k] < 0) conv[k] = "0.0"
					break
				}
			}
			for (b = lo; b <= hi; b++) {
				tot = 0
				for (f = 1; f <= k; f++)
					tot += rate[f, b]
				if (tot > 0 && rate[k, b] / (tot / k) - 1 > over)
					over = rate[k, b] / (tot / k) - 1
			}
		}
		printf "fill_s=%s conv2_s=%s conv3_s=%s overshoot_pct=%.0f\n", fill, conv[2], conv[3], over * 100
	}
}
