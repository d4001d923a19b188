#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# report.sh RESDIR OUTDIR - turn a bench run (RESDIR: runs.txt, raw/,
# hostload.txt, written by guest-bench.sh and bench.sh) into
# OUTDIR/RESULTS.md and OUTDIR/*.png, and print the tables.
#
# Every metric is computed here, on the host, from the raw samples:
#   goodput      bytes the sender wrote and saw acknowledged / its time
#                from connect to the last ACK (fa_xfer's report), Mbit/s
#                of TCP payload (the link carries 50 Mbit/s of frames:
#                at most 47.8 Mbit/s of payload)
#   queueing delay  srtt - the flow's minimum RTT, TCP_INFO polled every
#                20 ms over the whole flow (tools/bench/metrics.awk)
#   window goodputs (mixed RTT, coexistence, fairness) with
#                selftests/lib/measure.sh's measure_flow, Jain with its jain
#   convergence, fill time, overshoot: tools/bench/metrics.awk (fair)
#   cross traffic that leaves (crossleave): queueing delay as above over
#                windows set by the cubic flow's first and last samples
#   competitive-mode entries: mode=compete records of fast_adaptive:mode,
#                counted in the guest (mode_compete of runs.txt)
# Repetitions are summarised as "median (min-max)".

set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
# shellcheck source=/dev/null
. "$REPO/selftests/lib/measure.sh"
# shellcheck source=tags.sh
. "$HERE/tags.sh"

RES=${1:?usage: report.sh RESDIR OUTDIR}
OUT=${2:?usage: report.sh RESDIR OUTDIR}
RAW=$RES/raw
RUNS=$RES/runs.txt
M=$RES/metrics.tsv	# scenario tag rep metric value
mkdir -p "$OUT"
PAYLOAD_MBIT=47.82	# 50 Mbit/s of 1514-byte frames carrying 1448 bytes

kv() { field "$1" "$2" 2>/dev/null || true; }
put() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >> "$M"; }
last_sample_us() { awk '!/^#/ { t = $1 } END { print t }' "$1"; }
mb() { awk -v b="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.2f", b * 8 / s / 1e6; else print "nan" }'; }

# --- per-run metrics ------------------------------------------------------------
: > "$M"
while IFS= read -r line; do
	case $line in "#"* | "") continue ;; esac
	sc=$(kv scenario "$line") tag=$(kv tag "$line") rep=$(kv rep "$line")
	if [ -n "$(kv failed "$line")" ]; then
		[ "$sc" = lossharm ] && sc=lossharm.$(kv competitor "$line")
		put "$sc" "$tag" "$rep" failed 1
		continue
	fi
	samples=$(kv samples "$line")
	IFS=, read -r -a sf <<< "$samples"
	case $sc in
	bulk | loss | loss2)
		put "$sc" "$tag" "$rep" goodput "$(mb "$(kv bytes "$line")" "$(kv secs "$line")")"
		put "$sc" "$tag" "$rep" drops "$(kv drops "$line")"
		put "$sc" "$tag" "$rep" retrans "$(kv retrans "$line")"
		# the same queueing delay in every single-flow scenario: srtt - min
		# RTT of every 20 ms sample over the whole flow
		q=$(awk -f "$HERE/metrics.awk" -v mode=qdelay "$RAW/${sf[0]}")
		put "$sc" "$tag" "$rep" qmean "$(kv qmean_ms "$q")"
		put "$sc" "$tag" "$rep" qp95 "$(kv qp95_ms "$q")"
		put "$sc" "$tag" "$rep" ss_exit_cwnd "$(kv ss_exit_cwnd "$line")"
		;;
	shallow)
		# flows=RETRANS:BYTES:SECS,... (one per flow): goodput of each flow
		# over its own life, their sum, Jain of them; retransmissions summed
		gs="" qs=""
		IFS=, read -r -a fl <<< "$(kv flows "$line")"
		for x in "${fl[@]}"; do
			IFS=: read -r _ b secs <<< "$x"
			gs="$gs $(mb "$b" "$secs")"
		done
		for f in "${sf[@]}"; do
			q=$(awk -f "$HERE/metrics.awk" -v mode=qdelay "$RAW/$f")
			qs="$qs $(kv qmean_ms "$q")"
		done
		# shellcheck disable=SC2086
		put "$sc" "$tag" "$rep" goodput "$(echo $gs | awk '{ for (i = 1; i <= NF; i++) s += $i; printf "%.2f", s }')"
		# shellcheck disable=SC2086
		put "$sc" "$tag" "$rep" jain "$(jain $gs)"
		# shellcheck disable=SC2086
		put "$sc" "$tag" "$rep" rates "$(echo $gs | tr ' ' /)"
		# shellcheck disable=SC2086
		put "$sc" "$tag" "$rep" qmean "$(echo $qs | awk '{ for (i = 1; i <= NF; i++) if ($i != "nan") { s += $i; n++ } if (n) printf "%.2f", s / n; else print "nan" }')"
		put "$sc" "$tag" "$rep" retrans "$(kv retrans_sum "$line")"
		put "$sc" "$tag" "$rep" drops "$(kv drops "$line")"
		;;
	lossharm)
		# metrics under "lossharm.COMPETITOR": g1 the tag's flow, g2 the
		# competitor's, over warm_s..dur_s of each flow (as coexist)
		sc=lossharm.$(kv competitor "$line")
		f1=$RAW/${sf[0]} f2=$RAW/${sf[1]}
		dur=$(kv dur_s "$line") warm=$(kv warm_s "$line")
		s1=$(first_sample_us "$f1") s2=$(first_sample_us "$f2")
		g1=$(field goodput_mbit "$(measure_flow "$f1" $((s1 + warm * 1000000)) $((s1 + dur * 1000000)))" || echo 0)
		g2=$(field goodput_mbit "$(measure_flow "$f2" $((s2 + warm * 1000000)) $((s2 + dur * 1000000)))" || echo 0)
		put "$sc" "$tag" "$rep" g1 "$g1"
		put "$sc" "$tag" "$rep" g2 "$g2"
		put "$sc" "$tag" "$rep" share "$(awk -v a="$g1" -v b="$g2" 'BEGIN { if (a + b > 0) printf "%.0f", 100 * a / (a + b); else print "nan" }')"
		put "$sc" "$tag" "$rep" drops "$(kv drops "$line")"
		;;
	fairness)
		f1=$RAW/${sf[0]} f2=$RAW/${sf[1]} f3=$RAW/${sf[2]}
		dur=$(kv dur_s "$line") gap=$(kv gap_s "$line")
		s1=$(first_sample_us "$f1") s2=$(first_sample_us "$f2") s3=$(first_sample_us "$f3")
		# common interval: from flow 3's start to the first nominal end
		to=$(awk -v a="$s1" -v b="$s2" -v c="$s3" -v d="$dur" -v g="$gap" 'BEGIN {
			e1 = a + d * 1e6; e2 = b + (d - g) * 1e6; e3 = c + (d - 2 * g) * 1e6
			m = e1; if (e2 < m) m = e2; if (e3 < m) m = e3; printf "%d", m }')
		gs=""
		for f in "$f1" "$f2" "$f3"; do
			g=$(field goodput_mbit "$(measure_flow "$f" "$s3" "$to")" 2>/dev/null || echo 0)
			gs="$gs $g"
		done
		# shellcheck disable=SC2086
		put "$sc" "$tag" "$rep" jain "$(jain $gs)"
		put "$sc" "$tag" "$rep" rates "$(echo $gs | tr ' ' /)"
		c=$(awk -f "$HERE/metrics.awk" -v mode=fair -v fill_mbit=$PAYLOAD_MBIT "$f1" "$f2" "$f3")
		for k in fill_s conv2_s conv3_s overshoot_pct; do
			put "$sc" "$tag" "$rep" "$k" "$(kv $k "$c")"
		done
		put "$sc" "$tag" "$rep" drops "$(kv drops "$line")"
		;;
	mixed | coexist | coexreno | coexbbr | coexlong)
		f1=$RAW/${sf[0]} f2=$RAW/${sf[1]}
		dur=$(kv dur_s "$line") warm=$(kv warm_s "$line")
		s1=$(first_sample_us "$f1") s2=$(first_sample_us "$f2")
		g1=$(field goodput_mbit "$(measure_flow "$f1" $((s1 + warm * 1000000)) $((s1 + dur * 1000000)))" || echo 0)
		g2=$(field goodput_mbit "$(measure_flow "$f2" $((s2 + warm * 1000000)) $((s2 + dur * 1000000)))" || echo 0)
		put "$sc" "$tag" "$rep" g1 "$g1"
		put "$sc" "$tag" "$rep" g2 "$g2"
		if [ "$sc" = mixed ]; then
			put "$sc" "$tag" "$rep" ratio "$(awk -v a="$g1" -v b="$g2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }')"
		else
			put "$sc" "$tag" "$rep" share "$(awk -v a="$g1" -v b="$g2" 'BEGIN { if (a + b > 0) printf "%.0f", 100 * a / (a + b); else print "nan" }')"
		fi
		;;
	crossleave)
		# f1 the tag's flow, f2 cubic's; the join and the leave are cubic's
		# first and last samples.  q_lone: mean queueing delay (srtt - min
		# RTT, as bulk) from warm_s to the join; q_after: over the after_s s
		# after the leave; share over join + settle_s .. the leave
		f1=$RAW/${sf[0]} f2=$RAW/${sf[1]}
		warm=$(kv warm_s "$line") after=$(kv after_s "$line") settle=$(kv settle_s "$line")
		s1=$(first_sample_us "$f1") j=$(first_sample_us "$f2") l=$(last_sample_us "$f2")
		ql=$(field qdelay_ms "$(measure_flow "$f1" $((s1 + warm * 1000000)) "$j")" || echo nan)
		qa=$(field qdelay_ms "$(measure_flow "$f1" "$l" $((l + after * 1000000)))" || echo nan)
		put "$sc" "$tag" "$rep" q_lone "$ql"
		put "$sc" "$tag" "$rep" q_after "$qa"
		put "$sc" "$tag" "$rep" q_ratio "$(awk -v a="$qa" -v b="$ql" 'BEGIN { if (a == "nan" || b == "nan") print "nan"; else if (b > 0) printf "%.2f", a / b; else print "inf" }')"
		r=$(awk -f "$HERE/metrics.awk" -v mode=qback -v from="$l" -v limit_ms="$(awk -v b="$ql" 'BEGIN { print 1.5 * b }')" "$f1")
		put "$sc" "$tag" "$rep" qback_s "$(kv qback_s "$r")"
		g1=$(field goodput_mbit "$(measure_flow "$f1" $((j + settle * 1000000)) "$l")" || echo 0)
		g2=$(field goodput_mbit "$(measure_flow "$f2" $((j + settle * 1000000)) "$l")" || echo 0)
		put "$sc" "$tag" "$rep" g1 "$g1"
		put "$sc" "$tag" "$rep" g2 "$g2"
		put "$sc" "$tag" "$rep" share "$(awk -v a="$g1" -v b="$g2" 'BEGIN { if (a + b > 0) printf "%.0f", 100 * a / (a + b); else print "nan" }')"
		put "$sc" "$tag" "$rep" join_s "$(awk -v a="$j" -v b="$s1" 'BEGIN { printf "%.1f", (a - b) / 1e6 }')"
		put "$sc" "$tag" "$rep" leave_s "$(awk -v a="$l" -v b="$s1" 'BEGIN { printf "%.1f", (a - b) / 1e6 }')"
		# competitive mode: first entry after the join; back to fast mode
		# after the leave (the last record; nc if the flow ended competing)
		x=$(kv mode_first_compete_us "$line")
		[ -z "$x" ] || put "$sc" "$tag" "$rep" enter_s "$(awk -v a="$x" -v b="$j" 'BEGIN { printf "%.1f", (a - b) / 1e6 }')"
		case $(kv mode_last "$line") in
		fast) put "$sc" "$tag" "$rep" fastback_s "$(awk -v a="$(kv mode_last_fast_us "$line")" -v b="$l" 'BEGIN { printf "%.1f", (a - b) / 1e6 }')" ;;
		compete) put "$sc" "$tag" "$rep" fastback_s nc ;;
		esac
		put "$sc" "$tag" "$rep" drops "$(kv drops "$line")"
		;;
	pathchange)
		f1=$RAW/${sf[0]}
		chg=$(kv change_us "$line") after=$(kv after_s "$line")
		g=$(field goodput_mbit "$(measure_flow "$f1" "$chg" $((chg + after * 1000000)))" || echo 0)
		put "$sc" "$tag" "$rep" g_after "$g"
		g=$(field goodput_mbit "$(measure_flow "$f1" $((chg - 4000000)) "$chg")" || echo 0)
		put "$sc" "$tag" "$rep" g_before "$g"
		r=$(awk -f "$HERE/metrics.awk" -v mode=recover -v from="$chg" -v fill_mbit=$PAYLOAD_MBIT "$f1")
		put "$sc" "$tag" "$rep" recover_s "$(kv recover_s "$r")"
		put "$sc" "$tag" "$rep" drops "$(kv drops "$line")"
		;;
	wan1m | wan64m)
		put "$sc" "$tag" "$rep" ttlb "$(kv ttlb_s "$line")"
		put "$sc" "$tag" "$rep" ss_exit_cwnd "$(kv ss_exit_cwnd "$line")"
		put "$sc" "$tag" "$rep" drops "$(kv drops "$line")"
		;;
	cpu)
		put "$sc" "$tag" "$rep" mbit "$(kv mbit "$line")"
		;;
	cpugib)
		busy=$(($(kv d_user "$line") + $(kv d_nice "$line") + $(kv d_system "$line") + $(kv d_irq "$line") + $(kv d_softirq "$line")))
		tot=$((busy + $(kv d_idle "$line") + $(kv d_iowait "$line") + $(kv d_steal "$line")))
		c=$(awk -f "$HERE/metrics.awk" -v mode=cpugib -v from="$(kv cpu_from_us "$line")" \
			-v to="$(kv cpu_to_us "$line")" -v busy=$busy -v total=$tot "$RAW/${sf[0]}")
		put "$sc" "$tag" "$rep" cpu_gib "$(kv cpu_s_per_gib "$c")"
		put "$sc" "$tag" "$rep" cpu_mbit "$(kv mbit "$c")"
		put "$sc" "$tag" "$rep" busy_pct "$(kv busy_pct "$c")"
		put "$sc" "$tag" "$rep" softirq_pct "$(awk -v a="$(kv d_softirq "$line")" -v b=$busy 'BEGIN { if (b > 0) printf "%.0f", 100 * a / b; else print "nan" }')"
		put "$sc" "$tag" "$rep" goodput "$(mb "$(kv bytes "$line")" "$(kv secs "$line")")"
		put "$sc" "$tag" "$rep" drops "$(kv drops "$line")"
		;;
	esac
	# runs traced (fast_adaptive's tags): mode_tp=1 where the module has
	# the fast_adaptive:mode tracepoint, with the count of mode=compete
	mt=$(kv mode_tp "$line")
	if [ -n "$mt" ]; then
		put "$sc" "$tag" "$rep" mode_tp "$mt"
		if [ "$mt" = 1 ]; then put "$sc" "$tag" "$rep" compete "$(kv mode_compete "$line")"; fi
	fi
done < "$RUNS"

# --- summaries ------------------------------------------------------------------------

# stat SCEN TAG METRIC -> "median (min–max)" (or the single value, or "–")
# and sets MED to the median.
stat() {
	local r
	r=$(awk -F'\t' -v s="$1" -v t="$2" -v m="$3" '
		$1 == s && $2 == t && $4 == m && $5 != "" && $5 != "nan" { v[++n] = $5 }
		END {
			if (!n) { print "-\t"; exit }
			nc = 0
			for (i = 1; i <= n; i++) if (v[i] == "nc" || v[i] == "inf") { v[i] = 1e9; nc++ }
			for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] + 0 > x + 0; j--) v[j + 1] = v[j]; v[j + 1] = x }
			med = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
			fm = function_fmt(med); lo = function_fmt(v[1]); hi = function_fmt(v[n])
			if (n == 1) print fm "\t" med
			else print fm " (" lo "–" hi ")\t" med
		}
		function function_fmt(x) {
			if (x >= 1e9) return "n/c"
			if (m ~ /^(drops|retrans|ss_exit_cwnd|overshoot_pct|share|compete)$/) return sprintf("%d", x + 0.5)
			if (m == "jain") return sprintf("%.3f", x)
			if (x >= 100) return sprintf("%.0f", x)
			if (x >= 10) return sprintf("%.1f", x)
			return sprintf("%.2f", x)
		}' "$M")
	MED=${r#*$'\t'}
	echo "${r%$'\t'*}"
}
med() { stat "$@" >/dev/null; echo "$MED"; }

TAGS=$(awk -F'\t' '{ if (!($2 in s)) { s[$2] = 1; o = o " " $2 } } END { print o }' "$M")
# keep the canonical order
ORDER=""
ABLATIONS=""	# fa_NAME_VALUE tags, in the order they ran
for t in $TAGS; do
	case $t in fa_classic) ;; fa_*) ABLATIONS="$ABLATIONS $t" ;; esac
done
for t in fast_adaptive fa_classic $ABLATIONS cubic bbr vegas reno; do
	case " $TAGS " in *" $t "*) ORDER="$ORDER $t" ;; esac
done
name() {
	case $1 in
	fast_adaptive) echo "**fast_adaptive**" ;;
	fa_classic) echo "fast_adaptive classic ($(mode_of "$1"))" ;;
	fa_*) echo "fast_adaptive $(mode_of "$1")" ;;
	*) echo "$1" ;;
	esac
}

hdr=$(grep -m1 '^# bench on' "$RUNS" | sed 's/^# bench on //')
params=$(grep -m1 '^# params:' "$RUNS" | sed 's/^# params: //')
faparams=$(grep -m1 '^# fast_adaptive params:' "$RUNS" | sed 's/^# fast_adaptive params: //')
reps=$(grep -m1 '^# scenarios:' "$RUNS" | sed 's/.*reps \([0-9]*\).*/\1/')
scale=$(grep -m1 '^# scenarios:' "$RUNS" | sed 's/.*scale \([0-9]*\)%.*/\1/')
kver=${hdr%%,*}
nfailed=$(awk -F'\t' '$4 == "failed"' "$M" | wc -l)
wall=$(cat "$RES/wall_seconds" 2>/dev/null || cat "$RES/vm_seconds" 2>/dev/null || echo 0)

loadnote() {
	local f=$RES/hostload.txt
	[ -s "$f" ] || { echo "not recorded"; return; }
	awk '{ l = $3 + 0; s += l; n++; if (l > mx) mx = l; o = $7 + 0; if (o > om) om = o }
		END { printf "1-min load average over the run: mean %.1f, max %.1f on %d host cores (our VM alone is ~2); other emulator/simulator processes (qemu-system with its timeout wrapper, ns-3 fa-sim) at once: up to %d", s / n, mx, 2, om }' "$f"
}

# rx A B: "A/Bx" of two medians, or "-"
# has SCEN: some run of SCEN in the metrics
has() { awk -F'\t' -v s="$1" '$1 == s { f = 1; exit } END { exit !f }' "$M"; }
# gp SCEN TAG: "its / competitor's" goodput medians (g1, g2), Mbit/s, or "-"
gp() {
	local a b
	a=$(med "$1" "$2" g1) b=$(med "$1" "$2" g2)
	if [ -n "$a" ] && [ -n "$b" ]; then printf '%.1f / %.1f' "$a" "$b"; else echo -; fi
}
# ce SCEN TAG: CE_N mode=compete records in CE_K runs traced with the
# fast_adaptive:mode tracepoint, CE_K0 runs traced without it, of CE_R runs
ce() {
	read -r CE_N CE_K CE_K0 CE_R < <(awk -F'\t' -v s="$1" -v t="$2" '$1 == s && $2 == t {
			if (!($3 in r)) { r[$3] = 1; nr++ }
			if ($4 == "mode_tp") { if ($5 == 1) k++; else k0++ }
			if ($4 == "compete") n += $5 }
		END { print n + 0, k + 0, k0 + 0, nr + 0 }' "$M")
}
# tracepoint: the fast_adaptive:mode tracepoint was seen in some traced run (1),
# only runs without it were traced (0), nothing was traced ("")
MODE_SEEN=$(awk -F'\t' '$4 == "mode_tp" { if ($5 == 1) y = 1; else n = 1 } END { print (y ? 1 : (n ? 0 : "")) }' "$M")

rx() { awk -v a="${1:-}" -v b="${2:-}" 'BEGIN { if (a != "" && b > 0) printf "%.2fx", a / b; else if (a > 0 && b != "") print "inf"; else print "-" }'; }

T=$OUT/RESULTS.md.tmp
{
	echo "# fast_adaptive side-by-side benchmark"
	echo
	echo "Generated by \`make bench\` (tools/bench/bench.sh) — do not edit; rerun it."
	echo
	echo "- **Date:** $(date -u -r "$RUNS" +%Y-%m-%d\ %H:%M\ UTC)"
	echo "- **Kernel (guest):** $kver — QEMU TCG (software emulation), 2 vCPUs, one boot for every algorithm"
	echo "- **Host:** $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
	echo "- **Host load:** $(loadnote)"
	echo "- **Repetitions:** $reps per scenario and algorithm, interleaved (scenario → repetition → algorithm); cells are **median (min–max)**${scale:+; durations at ${scale} %}"
	echo "- **Run time:** $((wall / 60)) min $((wall % 60)) s (boot included); failed runs: $nfailed"
	echo "- **fast_adaptive tunables:** $faparams"
	echo "- **Scenario parameters:** $params"
	echo
	echo "Network: the selftests' dumbbell (selftests/lib/net.sh) — sender → router → receiver namespaces,"
	echo "GRO/GSO/TSO off, bottleneck = netem \`rate\` + \`limit\` (packets) on the router's egress toward the"
	echo "receiver, propagation delay = netem on the ACK path. Added by the bench: RPS steers each veth's"
	echo "receive side to one vCPU and netdev_max_backlog ≥ 10000, so that packets are neither reordered nor"
	echo "dropped anywhere but at the bottleneck (without it, 2 vCPUs reorder packets and every algorithm"
	echo "retransmits spuriously). Under TCG, time is emulated: absolute numbers are noisy; compare within"
	echo "a row group and look at the spread."
	echo
	echo "## Single flow: 50 Mbit/s, 50 ms RTT, 2-BDP buffer (413 packets)"
	echo
	echo "Bulk: one flow for 20 s; goodput over the whole flow (slow start included), payload Mbit/s (max 47.8)."
	echo "Queueing delay = srtt − min RTT, TCP_INFO polled every 20 ms over the whole flow. Loss: same path"
	echo "with 0.5 % random loss at the bottleneck, 15 s."
	echo
	echo "| algorithm | bulk goodput Mbit/s | mean queueing delay ms | p95 queueing delay ms | bottleneck drops | slow-start exit cwnd | goodput at 0.5 % loss Mbit/s |"
	echo "|---|---|---|---|---|---|---|"
	for t in $ORDER; do
		echo "| $(name $t) | $(stat bulk $t goodput) | $(stat bulk $t qmean) | $(stat bulk $t qp95) | $(stat bulk $t drops) | $(stat bulk $t ss_exit_cwnd) | $(stat loss $t goodput) |"
	done
	echo
	echo "## Sharing"
	echo
	echo "Fairness: 3 flows of one algorithm started 4 s apart (20, 16, 12 s), same path as bulk. Jain's index"
	echo "over the common interval (flow 3's start to the first end). *fill*: time until flow 1's 0.5 s rate"
	echo "first reaches 90 % of the link. *conv. after join 2/3*: time from the join until Jain's index of the"
	echo "active flows' 1 s rates stays ≥ 0.95 for 2 s (n/c: not before the next join / the end)."
	echo "*overshoot*: highest 0.5 s rate of a joining flow above its fair share, %."
	echo "Mixed RTT: a 20 ms and a 100 ms flow of the algorithm together (per-flow delay by a prio qdisc with one"
	echo "netem per receiver port on the ACK path), 15 s, rates over 5–15 s; ratio = 20 ms flow / 100 ms flow"
	echo "(1.0 = RTT-fair). Coexistence: one flow of the algorithm and one cubic flow started together, 15 s,"
	echo "the algorithm's share of the two flows' goodput over 5–15 s (50 % = equal)."
	echo
	echo "| algorithm | Jain, 3 flows | fill s | conv. after join 2 s | conv. after join 3 s | overshoot % | mixed RTT ratio 20:100 ms | share vs cubic % |"
	echo "|---|---|---|---|---|---|---|---|"
	for t in $ORDER; do
		sh="$(stat coexist $t share)"
		[ "$t" = cubic ] && sh="(itself)"
		echo "| $(name $t) | $(stat fairness $t jain) | $(stat fairness $t fill_s) | $(stat fairness $t conv2_s) | $(stat fairness $t conv3_s) | $(stat fairness $t overshoot_pct) | $(stat mixed $t ratio) | $sh |"
	done
	echo
	echo "## Next to loss-based traffic, and after it leaves (issue 13)"
	echo
	echo "One flow of the algorithm and one flow of a competitor started together on the bulk path (50 Mbit/s,"
	echo "50 ms, 2-BDP buffer): next to cubic for 15 s (\`coexist\`, the Sharing table's last column) and 60 s"
	echo "(\`coexlong\`), next to reno (\`coexreno\`) and bbr (\`coexbbr\`) for 15 s; *share*: the algorithm's share"
	echo "of the two flows' goodput from 5 s to the end (50 % = equal), goodputs over the same interval."
	echo "*mode entries*: \`mode=compete\` records of the fast_adaptive:mode tracepoint in the run's trace, per run."
	echo
	if has coexreno || has coexbbr || has coexlong; then
		echo "| algorithm | next to cubic 15 s: share % | its / cubic's Mbit/s | next to cubic 60 s: share % | its / cubic's Mbit/s | next to reno: share % | its / reno's Mbit/s | next to bbr: share % | its / bbr's Mbit/s | mode entries: cubic 15 s / 60 s / reno / bbr |"
		echo "|---|---|---|---|---|---|---|---|---|---|"
		for t in $ORDER; do
			row="| $(name $t) |"
			for c in coexist:cubic coexlong:cubic coexreno:reno coexbbr:bbr; do
				if [ "$t" = "${c#*:}" ]; then row="$row (itself) | |"; continue; fi
				row="$row $(stat "${c%%:*}" $t share) | $(gp "${c%%:*}" $t) |"
			done
			echo "$row $(stat coexist $t compete) / $(stat coexlong $t compete) / $(stat coexreno $t compete) / $(stat coexbbr $t compete) |"
		done
	else
		echo "(coexreno, coexbbr, coexlong not run: they are issue 13's set, not in the default list; tools/bench/README.md)"
	fi
	echo
	echo "Cross traffic that leaves (\`crossleave\`): one flow of the algorithm for 45 s; one cubic flow joins"
	echo "at 15 s and leaves at 30 s (the join and the leave below are the cubic flow's first and last samples,"
	echo "in s from the algorithm's first). Queueing delay of the algorithm's flow as in bulk (srtt − its min"
	echo "RTT, TCP_INFO every 20 ms): *lone* from 5 s to the join, *after* over the 5 s after the leave; *back*:"
	echo "from the leave until a 0.5 s mean first is ≤ 1.5x lone (n/c: never). *share* over 2 s after the"
	echo "join .. the leave. *entered* / *back to fast*: the first \`mode=compete\` record after the join, the last"
	echo "\`mode=fast\` after the leave, in s (n/c: the flow ended in competitive mode)."
	echo
	if has crossleave; then
		echo "| algorithm | lone queueing delay ms | after the leave ms | after / lone | back within 1.5x lone s | share while cubic is present % | its / cubic's Mbit/s | cubic joined / left s | mode entries | entered s after the join | back to fast s after the leave |"
		echo "|---|---|---|---|---|---|---|---|---|---|---|"
		for t in $ORDER; do
			echo "| $(name $t) | $(stat crossleave $t q_lone) | $(stat crossleave $t q_after) | $(stat crossleave $t q_ratio) | $(stat crossleave $t qback_s) | $(stat crossleave $t share) | $(gp crossleave $t) | $(stat crossleave $t join_s) / $(stat crossleave $t leave_s) | $(stat crossleave $t compete) | $(stat crossleave $t enter_s) | $(stat crossleave $t fastback_s) |"
		done
	else
		echo "(crossleave not run: issue 13's set, tools/bench/README.md)"
	fi
	echo
	case $MODE_SEEN in
	0) echo "This module has no fast_adaptive:mode tracepoint (no events/fast_adaptive/mode in the guest): mode entries are not measured (\"-\")."; echo ;;
	"") echo "No run recorded a count of fast_adaptive:mode records (no fast_adaptive tag, no fast_adaptive tracepoints, or a run from before the bench counted them): mode entries not measured."; echo ;;
	esac
	echo "## Loss that is not congestion (issue 12)"
	echo
	echo "Random loss: one flow for 15 s on the bulk path (50 Mbit/s, 50 ms, 2-BDP buffer) with 0.5 % (\`loss\`)"
	echo "and 2 % (\`loss2\`) random loss at the bottleneck (netem \`loss\`; the bottleneck's drop counter"
	echo "counts these). Goodput over the whole flow; *vs bbr*: ratio of the medians; retransmissions of the"
	echo "flow; queueing delay as in bulk (srtt − min RTT, TCP_INFO every 20 ms over the whole flow)."
	echo
	echo "| algorithm | 0.5 %: goodput Mbit/s | vs bbr | retransmissions | mean queueing delay ms | p95 ms | 2 %: goodput Mbit/s | vs bbr | retransmissions | mean queueing delay ms | p95 ms |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	bb_l=$(med loss bbr goodput) bb_l2=$(med loss2 bbr goodput)
	for t in $ORDER; do
		echo "| $(name $t) | $(stat loss $t goodput) | $(rx "$(med loss $t goodput)" "$bb_l") | $(stat loss $t retrans) | $(stat loss $t qmean) | $(stat loss $t qp95) | $(stat loss2 $t goodput) | $(rx "$(med loss2 $t goodput)" "$bb_l2") | $(stat loss2 $t retrans) | $(stat loss2 $t qmean) | $(stat loss2 $t qp95) |"
	done
	echo
	sl=$(grep -m1 '^# params:' "$RUNS" | sed -n 's/.*shallow=\([^ ]*\).*/\1/p')
	echo "Shallow buffer (\`shallow\`${sl:+, $sl}): 4 flows of one algorithm started together (the execs that start"
	echo "them stagger them by a fraction of a second) into a buffer of 0.25 BDP, 50 Mbit/s, 50 ms, no random"
	echo "loss: every drop is an overflow. Goodput of each flow over its own life, summed; retransmissions"
	echo "summed over the 4 flows; Jain of the 4 goodputs; queueing delay as in bulk, mean of the 4 flows."
	echo
	echo "| algorithm | total goodput Mbit/s | vs cubic | retransmissions, 4 flows | vs cubic | bottleneck drops | Jain, 4 flows | mean queueing delay ms |"
	echo "|---|---|---|---|---|---|---|---|"
	cu_s=$(med shallow cubic goodput) cu_r=$(med shallow cubic retrans)
	for t in $ORDER; do
		echo "| $(name $t) | $(stat shallow $t goodput) | $(rx "$(med shallow $t goodput)" "$cu_s") | $(stat shallow $t retrans) | $(rx "$(med shallow $t retrans)" "$cu_r") | $(stat shallow $t drops) | $(stat shallow $t jain) | $(stat shallow $t qmean) |"
	done
	echo
	echo "Harm on a lossy path (\`lossharm\`): the 0.5 % loss path; one flow of the algorithm and one flow of a"
	echo "loss-based competitor (reno; cubic for fast_adaptive's tags and cubic itself) started together,"
	echo "15 s, rates over 5–15 s. *harm*: what the competitor gets next to its own kind (the reno row with"
	echo "reno, the cubic row with cubic) divided by what it gets next to the algorithm (1.00 = no more harm"
	echo "than its own kind does; above 1: the algorithm takes more)."
	echo
	echo "| algorithm | next to reno: its goodput Mbit/s | reno's Mbit/s | its share % | harm to reno | next to cubic: its goodput Mbit/s | cubic's Mbit/s | its share % | harm to cubic |"
	echo "|---|---|---|---|---|---|---|---|---|"
	re_own=$(med lossharm.reno reno g2) cu_own=$(med lossharm.cubic cubic g2)
	for t in $ORDER; do
		echo "| $(name $t) | $(stat lossharm.reno $t g1) | $(stat lossharm.reno $t g2) | $(stat lossharm.reno $t share) | $(rx "$re_own" "$(med lossharm.reno $t g2)") | $(stat lossharm.cubic $t g1) | $(stat lossharm.cubic $t g2) | $(stat lossharm.cubic $t share) | $(rx "$cu_own" "$(med lossharm.cubic $t g2)") |"
	done
	echo
	echo "## Path change"
	echo
	echo "One flow on the bulk path; 8 s in, the propagation delay goes 50 → 100 ms (netem on the ACK path,"
	echo "buffer unchanged: 413 packets, now 1 BDP); goodput over the 4 s before and the 16 s after the change;"
	echo "*recovery*: from the change until the flow's 0.5 s rate first reaches 90 % of the link."
	echo
	echo "| algorithm | goodput before Mbit/s | goodput 16 s after Mbit/s | recovery s | bottleneck drops |"
	echo "|---|---|---|---|---|"
	for t in $ORDER; do
		echo "| $(name $t) | $(stat pathchange $t g_before) | $(stat pathchange $t g_after) | $(stat pathchange $t recover_s) | $(stat pathchange $t drops) |"
	done
	echo
	echo "## Study pulls and CPU cost"
	echo
	echo "A reading station pulls a study from the PACS server over one new TCP connection (tools/bench/pacs.c):"
	echo "time from connect() to the last byte, handshake and request included. 1 MiB across 100 Mbit/s with"
	echo "800 ms RTT (the radiology WAN study's worst case); 64 MiB across 100 Mbit/s, 100 ms. Buffers 2 BDP."
	echo "Unshaped: one flow through the dumbbell with no qdisc at all for 8 s — CPU-bound under TCG."
	echo
	echo "| algorithm | 1 MiB @ 800 ms s | 64 MiB @ 100 ms s | unshaped veth Mbit/s |"
	echo "|---|---|---|---|"
	for t in $ORDER; do
		echo "| $(name $t) | $(stat wan1m $t ttlb) | $(stat wan64m $t ttlb) | $(stat cpu $t mbit) |"
	done
	echo
	echo "## CPU per GiB at a shaped rate"
	echo
	echo "One flow at 200 Mbit/s, 10 ms RTT (2-BDP buffer, 330 packets), 16 s: a rate meant for every algorithm"
	echo "to reach under TCG (the goodput column says which did). The guest's CPU time (/proc/stat, all vCPUs: user+nice+system+irq+softirq) from 4 s to 15 s"
	echo "into the flow, divided by the GiB acknowledged in that interval (TCP_INFO bytes_acked, sampled every"
	echo "100 ms). Sender, router and receiver all run in the one guest, so this is the whole path's CPU"
	echo "(fa_xfer's checksumming included, the same for every algorithm); only the algorithm differs."
	echo
	echo "| algorithm | CPU s per GiB | vs cubic | goodput in the interval Mbit/s | guest CPU busy % | softirq share of busy % | bottleneck drops |"
	echo "|---|---|---|---|---|---|---|"
	cu_cg=$(med cpugib cubic cpu_gib)
	for t in $ORDER; do
		x=$(med cpugib $t cpu_gib)
		echo "| $(name $t) | $(stat cpugib $t cpu_gib) | $(awk -v a="${x:-}" -v b="${cu_cg:-}" 'BEGIN { if (a != "" && b > 0) printf "%.2fx", a / b; else print "-" }') | $(stat cpugib $t cpu_mbit) | $(stat cpugib $t busy_pct) | $(stat cpugib $t softirq_pct) | $(stat cpugib $t drops) |"
	done
	echo
	echo "For context, the radiology WAN study (Segovis, French, Langer: 1024 kB at 800 ms RTT, their 2000s"
	echo "stacks and application protocols) measured **CIFS 67.3 s, HTTP 27.7 s, FTP 31.2 s, NFS 16.8 s**."
	echo "Those include each protocol's own round trips; here one request on one connection is timed."
} > "$T"

# --- bars -------------------------------------------------------------------------------------
bar() { # OK(0/1) TEXT: a bar whose text has a "?" was not measured
	case $2 in
	*"?"*) echo "| not measured | $2 |" ;;
	*) if [ "$1" = 1 ]; then echo "| met | $2 |"; else echo "| **UNMET** | $2 |"; fi ;;
	esac
}
fcmp1() { awk "BEGIN { exit !($1) }" && echo 1 || echo 0; }
ratio() { awk -v a="${1:-0}" -v b="${2:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "?" }'; }
{
	echo
	echo "## Bars (issue 11: reach the link as fast as cubic, keep vegas's queue)"
	echo
	echo "| verdict | bar and measured medians |"
	echo "|---|---|"
	fa_w=$(med wan64m fast_adaptive ttlb) cu_w=$(med wan64m cubic ttlb)
	bar "$(fcmp1 "${fa_w:-1e9} <= 1.02 * ${cu_w:-0}")" "64 MiB pull ≤ 1.02x cubic's: fast_adaptive ${fa_w:-?} s vs cubic ${cu_w:-?} s = $(ratio "$fa_w" "$cu_w")x"
	fa_g=$(med bulk fast_adaptive goodput) cu_g=$(med bulk cubic goodput)
	bar "$(fcmp1 "${fa_g:-0} >= 0.98 * ${cu_g:-1e9}")" "bulk goodput ≥ 0.98x cubic's: fast_adaptive ${fa_g:-?} Mbit/s vs cubic ${cu_g:-?} = $(ratio "$fa_g" "$cu_g")x"
	fa_q=$(med bulk fast_adaptive qmean) cu_q=$(med bulk cubic qmean)
	bar "$(fcmp1 "${fa_q:-1e9} <= 0.12 * ${cu_q:-0}")" "whole-flow mean queueing delay ≤ 0.12x cubic's: fast_adaptive ${fa_q:-?} ms vs cubic ${cu_q:-?} ms = $(ratio "$fa_q" "$cu_q")x"
	fa_j=$(med fairness fast_adaptive jain)
	bar "$(fcmp1 "${fa_j:-0} >= 0.98")" "Jain ≥ 0.98 for 3 flows: fast_adaptive ${fa_j:-?}"
	fa_o=$(med fairness fast_adaptive overshoot_pct)
	bar "$(fcmp1 "${fa_o:-1e9} <= 15")" "a joiner's 0.5 s peak ≤ 15 % over its share: fast_adaptive ${fa_o:-?} %"
	fa_p=$(med pathchange fast_adaptive g_after) cu_p=$(med pathchange cubic g_after)
	bar "$(fcmp1 "${fa_p:-0} >= 0.95 * ${cu_p:-1e9}")" "path 50 → 100 ms mid-flow, goodput over the 16 s after ≥ 0.95x cubic's: fast_adaptive ${fa_p:-?} Mbit/s vs cubic ${cu_p:-?} = $(ratio "$fa_p" "$cu_p")x"
	fa_c=$(med cpu fast_adaptive mbit) cu_c=$(med cpu cubic mbit)
	bar "$(fcmp1 "${fa_c:-0} >= 0.95 * ${cu_c:-1e9}")" "unshaped ≥ 0.95x cubic's: fast_adaptive ${fa_c:-?} Mbit/s vs cubic ${cu_c:-?} = $(ratio "$fa_c" "$cu_c")x"
	echo
	echo "## Bars (issue 12: loss that is not congestion)"
	echo
	echo "| verdict | bar and measured medians |"
	echo "|---|---|"
	fa_l=$(med loss fast_adaptive goodput) bb_l=$(med loss bbr goodput)
	bar "$(fcmp1 "${fa_l:-0} >= 0.85 * ${bb_l:-1e9}")" "goodput at 0.5 % random loss ≥ 0.85x bbr's: fast_adaptive ${fa_l:-?} Mbit/s vs bbr ${bb_l:-?} = $(ratio "$fa_l" "$bb_l")x"
	fa_l=$(med loss2 fast_adaptive goodput) bb_l=$(med loss2 bbr goodput)
	bar "$(fcmp1 "${fa_l:-0} >= 0.6 * ${bb_l:-1e9}")" "goodput at 2 % random loss ≥ 0.6x bbr's: fast_adaptive ${fa_l:-?} Mbit/s vs bbr ${bb_l:-?} = $(ratio "$fa_l" "$bb_l")x"
	fa_q=$(med loss fast_adaptive qmean)
	bar "$(fcmp1 "${fa_q:-1e9} <= 15")" "mean queueing delay at 0.5 % loss ≤ 15 ms: fast_adaptive ${fa_q:-?} ms (bbr $(med loss bbr qmean) ms)"
	fa_q=$(med loss2 fast_adaptive qmean)
	bar "$(fcmp1 "${fa_q:-1e9} <= 15")" "mean queueing delay at 2 % loss ≤ 15 ms: fast_adaptive ${fa_q:-?} ms (bbr $(med loss2 bbr qmean) ms)"
	fa_r=$(med shallow fast_adaptive retrans) cu_r=$(med shallow cubic retrans)
	bar "$(fcmp1 "${fa_r:-1e9} <= ${cu_r:-0} && \"${cu_r}\" != \"\"")" "shallow buffer (0.25 BDP), 4 flows: retransmissions ≤ cubic's: fast_adaptive ${fa_r:-?} vs cubic ${cu_r:-?} (bottleneck drops $(med shallow fast_adaptive drops) vs $(med shallow cubic drops))"
	fa_s=$(med shallow fast_adaptive goodput) cu_s=$(med shallow cubic goodput)
	bar "$(fcmp1 "${fa_s:-0} >= 0.95 * ${cu_s:-1e9}")" "shallow buffer, 4 flows: total goodput ≥ 0.95x cubic's: fast_adaptive ${fa_s:-?} Mbit/s vs cubic ${cu_s:-?} = $(ratio "$fa_s" "$cu_s")x"
	for c in reno cubic; do
		own=$(med lossharm.$c $c g2) nx=$(med lossharm.$c fast_adaptive g2)
		fx=$(med lossharm.$c fast_adaptive g1) ownx=$(med lossharm.$c $c g1)
		h=$(awk -v a="${own:-}" -v b="${nx:-}" 'BEGIN { if (a == "" || b == "") print "?"; else if (b > 0) printf "%.2f", a / b; else print "inf" }')
		bar "$(case $h in "?" | inf) echo 0 ;; *) fcmp1 "$h <= 1.5" ;; esac)" "0.5 % loss, harm to $c ≤ 1.5x its own kind's: $c gets ${own:-?} Mbit/s next to $c (which gets ${ownx:-?}) and ${nx:-?} next to fast_adaptive (which gets ${fx:-?}, share $(med lossharm.$c fast_adaptive share) %): ${own:-?} / ${nx:-?} = ${h}"
	done
	echo
	echo "## Bars (issue 13: a fair share next to loss-based traffic, and back)"
	echo
	echo "| verdict | bar and measured medians |"
	echo "|---|---|"
	for x in "coexist:cubic flow (15 s)" "coexlong:cubic flow (60 s)" "coexreno:reno flow (15 s)"; do
		v=$(med "${x%%:*}" fast_adaptive share) sv="?"
		[ -z "$v" ] || sv=$(stat "${x%%:*}" fast_adaptive share)
		bar "$(fcmp1 "${v:-0} >= 40 && ${v:-0} <= 60")" "share next to one ${x#*:} 40-60 %: fast_adaptive $sv % (goodput $(gp "${x%%:*}" fast_adaptive) Mbit/s)"
	done
	v=$(med coexbbr fast_adaptive share)
	if [ -n "$v" ]; then
		echo "| stated | share next to one bbr flow (15 s): fast_adaptive $(stat coexbbr fast_adaptive share) % (goodput $(gp coexbbr fast_adaptive) Mbit/s) |"
	else
		echo "| not measured | share next to one bbr flow (15 s): ? (coexbbr not run) |"
	fi
	qr=$(med crossleave fast_adaptive q_ratio)
	bar "$(fcmp1 "${qr:-1e9} <= 1.5")" "cubic joins for 15 s and leaves: mean queueing delay over the 5 s after it leaves ≤ 1.5x the lone flow's: fast_adaptive ${qr:-?}x (per-run ratios $(stat crossleave fast_adaptive q_ratio); after $(stat crossleave fast_adaptive q_after) ms, lone $(stat crossleave fast_adaptive q_lone) ms; back within 1.5x $(stat crossleave fast_adaptive qback_s) s after the leave)"
	fa_j=$(med fairness fast_adaptive jain)
	bar "$(fcmp1 "${fa_j:-0} >= 0.98")" "kept: Jain ≥ 0.98 for 3 flows: fast_adaptive ${fa_j:-?}"
	# no competitive-mode entry where fast_adaptive is alone with its kind
	txt="" tot=0 k=0 k0=0 nrun=""
	for x in fairness bulk shallow; do
		ce $x fast_adaptive
		k=$((k + CE_K)) k0=$((k0 + CE_K0)) tot=$((tot + CE_N))
		if [ "$CE_R" = 0 ]; then
			nrun="$nrun $x" txt="$txt; $x: not run"
		elif [ $((CE_K + CE_K0)) = 0 ]; then
			nrun="$nrun $x" txt="$txt; $x: $CE_R runs without a mode count"
		elif [ "$CE_K" = 0 ]; then
			txt="$txt; $x: $CE_K0 runs traced, no tracepoint"
		else
			txt="$txt; $x: $CE_N in $CE_K runs"
		fi
	done
	txt="no competitive-mode entry where fast_adaptive is alone with its kind (mode=compete records in the traces of fairness, 3 flows; bulk; shallow, 4 flows): ${txt#; }"
	if [ $k = 0 ] && [ $k0 -gt 0 ]; then
		echo "| not measured | $txt: no mode tracepoint in this module (no events/fast_adaptive/mode in the guest) |"
	elif [ $k = 0 ]; then
		echo "| not measured | $txt |"
	elif [ $tot -gt 0 ]; then
		echo "| **UNMET** | $txt |"
	elif [ -n "$nrun" ]; then
		echo "| met where run | $txt |"
	else
		echo "| met | $txt |"
	fi
	echo
	echo "## Bars (issue 14: CPU cost measured)"
	echo
	echo "| verdict | bar and measured medians |"
	echo "|---|---|"
	fa_cg=$(med cpugib fast_adaptive cpu_gib) cu_cg=$(med cpugib cubic cpu_gib)
	bar "$(fcmp1 "${fa_cg:-1e9} <= 1.1 * ${cu_cg:-0}")" "CPU per GiB at 200 Mbit/s, 10 ms ≤ 1.1x cubic's: fast_adaptive ${fa_cg:-?} s/GiB vs cubic ${cu_cg:-?} s/GiB = $(ratio "$fa_cg" "$cu_cg")x"
	echo
	echo "## Bars (issue 6, kept)"
	echo
	echo "| verdict | bar and measured medians |"
	echo "|---|---|"
	fa_g=$(med bulk fast_adaptive goodput) cu_g=$(med bulk cubic goodput) bb_g=$(med bulk bbr goodput)
	best=$(awk -v a="${cu_g:-0}" -v b="${bb_g:-0}" 'BEGIN { print (a > b ? a : b) }')
	bar "$(fcmp1 "${fa_g:-0} >= 0.95 * $best && $best > 0")" \
		"bulk goodput ≥ 95 % of the best of cubic/bbr: fast_adaptive ${fa_g:-?} Mbit/s vs best ${best} (cubic ${cu_g:-?}, bbr ${bb_g:-?}) = $(awk -v a="${fa_g:-0}" -v b="$best" 'BEGIN { if (b > 0) printf "%.0f", 100 * a / b; else print "?" }') %"
	fa_q=$(med bulk fast_adaptive qmean) cu_q=$(med bulk cubic qmean)
	bar "$(fcmp1 "${fa_q:-1e9} <= 0.10 * ${cu_q:-0}")" \
		"mean queueing delay ≤ 10 % of cubic's: fast_adaptive ${fa_q:-?} ms vs cubic ${cu_q:-?} ms = $(awk -v a="${fa_q:-0}" -v b="${cu_q:-0}" 'BEGIN { if (b > 0) printf "%.1f", 100 * a / b; else print "?" }') %"
	fa_j=$(med fairness fast_adaptive jain)
	bar "$(fcmp1 "${fa_j:-0} >= 0.98")" "Jain ≥ 0.98 for 3 flows: fast_adaptive ${fa_j:-?} (min $(stat fairness fast_adaptive jain | sed -n 's/.*(\([^–]*\)–.*/\1/p'))"
	fa_w=$(med wan1m fast_adaptive ttlb) cu_w=$(med wan1m cubic ttlb)
	bar "$(fcmp1 "${fa_w:-1e9} <= ${cu_w:-0}")" "1 MiB pull across 800 ms no slower than cubic: fast_adaptive ${fa_w:-?} s vs cubic ${cu_w:-?} s"
	fa_l=$(med loss fast_adaptive goodput) re_l=$(med loss reno goodput)
	bar "$(fcmp1 "${fa_l:-0} >= ${re_l:-1e9}")" "goodput at 0.5 % loss ≥ reno's: fast_adaptive ${fa_l:-?} Mbit/s vs reno ${re_l:-?} Mbit/s"
	fa_c=$(med cpu fast_adaptive mbit) cu_c=$(med cpu cubic mbit)
	bar "$(fcmp1 "${fa_c:-0} >= 0.95 * ${cu_c:-1e9}")" "unshaped throughput ≥ 95 % of cubic's: fast_adaptive ${fa_c:-?} Mbit/s vs cubic ${cu_c:-?} Mbit/s = $(awk -v a="${fa_c:-0}" -v b="${cu_c:-0}" 'BEGIN { if (b > 0) printf "%.0f", 100 * a / b; else print "?" }') %"
} >> "$T"

# --- plots --------------------------------------------------------------------------------------
PLOTS=""
if command -v gnuplot >/dev/null 2>&1; then
	D=$(mktemp -d)
	# bulk: cwnd and RTT over time, repetition 1, one panel per algorithm
	n=0
	for t in $ORDER; do
		f=$RAW/bulk.$t.r1.1.samples
		[ -s "$f" ] || continue
		awk '!/^#/ { if (t0 == "") t0 = $1; if ($3 > 0) printf "%.3f %d %.2f\n", ($1 - t0) / 1e6, $2, $3 / 1000 }' "$f" > "$D/bulk.$t"
		n=$((n + 1))
	done
	if [ $n -gt 0 ]; then
		{
			echo "set terminal pngcairo noenhanced size 1400,$((((n + 1) / 2) * 330)) font ',9'"
			echo "set output '$OUT/bulk_cwnd_rtt.png'"
			echo "set multiplot layout $(((n + 1) / 2)),2 title 'bulk: 1 flow, 50 Mbit/s, 50 ms, 2-BDP buffer (repetition 1)'"
			echo "set xlabel 'time (s)'; set ylabel 'cwnd (packets)'; set y2label 'RTT (ms)'"
			echo "set ytics nomirror; set y2tics; set key top left; set grid"
			echo "set yrange [0:*]; set y2range [0:250]"
			for t in $ORDER; do
				[ -s "$D/bulk.$t" ] || continue
				echo "set title '$t'"
				echo "plot '$D/bulk.$t' using 1:2 with lines lw 1.5 title 'cwnd', '' using 1:3 axes x1y2 with lines lw 1 title 'srtt'"
			done
			echo "unset multiplot"
		} > "$D/bulk.gp"
		gnuplot "$D/bulk.gp" && PLOTS="$PLOTS bulk_cwnd_rtt.png"
	fi
	# fairness: 0.5 s rates of the three flows, repetition 1
	n=0
	for t in $ORDER; do
		[ -s "$RAW/fair.$t.r1.1.samples" ] || continue
		for i in 1 2 3; do
			awk -v T0="$(first_sample_us "$RAW/fair.$t.r1.1.samples")" '!/^#/ {
				b = int(($1 - T0) / 500000); last[b] = $6; if (b > mx) mx = b; if (mn == "" || b < mn) mn = b }
				END { c = 0; for (b = 0; b <= mx; b++) { p = c; if (b in last) c = last[b]; if (b > mn) printf "%.2f %.2f\n", (b + 1) * 0.5, (c - p) * 8 / 0.5 / 1e6 } }' \
				"$RAW/fair.$t.r1.$i.samples" > "$D/fair.$t.$i"
		done
		n=$((n + 1))
	done
	if [ $n -gt 0 ]; then
		{
			echo "set terminal pngcairo noenhanced size 1400,$((((n + 1) / 2) * 300)) font ',9'"
			echo "set output '$OUT/fairness.png'"
			echo "set multiplot layout $(((n + 1) / 2)),2 title '3 flows joining 4 s apart: goodput per 0.5 s (repetition 1)'"
			echo "set xlabel 'time (s)'; set ylabel 'Mbit/s'; set key top right; set grid; set yrange [0:55]"
			for t in $ORDER; do
				[ -s "$D/fair.$t.1" ] || continue
				echo "set title '$t'"
				echo "plot '$D/fair.$t.1' with lines lw 1.5 title 'flow 1', '$D/fair.$t.2' with lines lw 1.5 title 'flow 2', '$D/fair.$t.3' with lines lw 1.5 title 'flow 3'"
			done
			echo "unset multiplot"
		} > "$D/fair.gp"
		gnuplot "$D/fair.gp" && PLOTS="$PLOTS fairness.png"
	fi
	# crossleave: the algorithm's queueing delay and both flows' 0.5 s
	# rates, repetition 1
	n=0
	for t in $ORDER; do
		f1=$RAW/crossleave.$t.r1.1.samples f2=$RAW/crossleave.$t.r1.2.samples
		[ -s "$f1" ] && [ -s "$f2" ] || continue
		T0=$(first_sample_us "$f1")
		awk -v T0="$T0" 'NR == FNR { if (!/^#/ && $5 > 0 && (m == "" || $5 < m)) m = $5; next }
			!/^#/ && $3 > 0 { printf "%.3f %.2f\n", ($1 - T0) / 1e6, ($3 - m) / 1000 }' "$f1" "$f1" > "$D/cl.$t.q"
		for i in 1 2; do
			awk -v T0="$T0" '!/^#/ {
				b = int(($1 - T0) / 500000); last[b] = $6; if (b > mx) mx = b; if (mn == "" || b < mn) mn = b }
				END { c = 0; for (b = 0; b <= mx; b++) { p = c; if (b in last) c = last[b]; if (b > mn) printf "%.2f %.2f\n", (b + 1) * 0.5, (c - p) * 8 / 0.5 / 1e6 } }' \
				"$RAW/crossleave.$t.r1.$i.samples" > "$D/cl.$t.$i"
		done
		n=$((n + 1))
	done
	if [ $n -gt 0 ]; then
		{
			echo "set terminal pngcairo noenhanced size 1400,$((((n + 1) / 2) * 300)) font ',9'"
			echo "set output '$OUT/crossleave.png'"
			echo "set multiplot layout $(((n + 1) / 2)),2 title 'one flow for 45 s, cubic from 15 to 30 s: queueing delay and goodput per 0.5 s (repetition 1)'"
			echo "set xlabel 'time (s)'; set ylabel 'queueing delay (ms)'; set y2label 'Mbit/s'"
			echo "set ytics nomirror; set y2tics; set key top right; set grid; set yrange [0:*]; set y2range [0:55]"
			for t in $ORDER; do
				[ -s "$D/cl.$t.q" ] || continue
				echo "set title '$t'"
				echo "plot '$D/cl.$t.q' with lines lw 1 title 'queueing delay', '$D/cl.$t.1' axes x1y2 with lines lw 1.5 title '$t flow Mbit/s', '$D/cl.$t.2' axes x1y2 with lines lw 1.5 title 'joining cubic flow Mbit/s'"
			done
			echo "unset multiplot"
		} > "$D/cl.gp"
		gnuplot "$D/cl.gp" && PLOTS="$PLOTS crossleave.png"
	fi
	# 64 MiB pull: cwnd over time per algorithm
	plot=""
	for t in $ORDER; do
		f=$(ls "$RAW"/wan64m.$t.r1.srv.* 2>/dev/null | head -n 1)
		[ -n "$f" ] && [ -s "$f" ] || continue
		awk '!/^#/ { if (t0 == "") t0 = $1; printf "%.3f %d %.2f\n", ($1 - t0) / 1e6, $2, $3 / 1000 }' "$f" > "$D/w64.$t"
		plot="$plot, '$D/w64.$t' using 1:2 with lines lw 1.5 title '$t'"
	done
	if [ -n "$plot" ]; then
		{
			echo "set terminal pngcairo noenhanced size 1000,500 font ',9'"
			echo "set output '$OUT/wan64m_cwnd.png'"
			echo "set title '64 MiB pull, 100 Mbit/s, 100 ms RTT (BDP 825 packets): congestion window (repetition 1)'"
			echo "set xlabel 'time since the server accepted (s)'; set ylabel 'cwnd (packets)'; set grid; set key top right"
			echo "plot ${plot#, }"
		} > "$D/w64.gp"
		gnuplot "$D/w64.gp" && PLOTS="$PLOTS wan64m_cwnd.png"
	fi
	rm -rf "$D"
fi
{
	echo
	echo "## Plots"
	echo
	for p in $PLOTS; do echo "![${p%.png}]($p)"; echo; done
	[ -n "$PLOTS" ] || echo "(gnuplot not found: no plots)"
	echo "## Notes"
	echo
	if [ -s "$RES/notes.md" ]; then cat "$RES/notes.md"; fi
} >> "$T"
if [ -s "$HERE/NOTES.md" ]; then cat "$HERE/NOTES.md" >> "$T"; fi
mv "$T" "$OUT/RESULTS.md"

# --- print the tables -----------------------------------------------------------------------
sed -n '/^## Single flow/,/^## Plots/p' "$OUT/RESULTS.md" | grep -v '^## Plots'
echo
echo "bench: wrote $OUT/RESULTS.md$(for p in $PLOTS; do printf ' %s' "$OUT/$p"; done) (raw data in $RES)"
