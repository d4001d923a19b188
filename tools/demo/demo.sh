#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - make demo: a PACS server sends a CT study to a reading station
# across an emulated WAN while the radiologist works interactively on the
# same path - with cubic, then bbr, then fast_adaptive.
#
#   tools/demo/demo.sh [KVER=6.1.0-57-amd64]
#
# As root it first installs what is missing from Debian's archive
# (tools/deps.sh: kernels, QEMU, gnuplot, ...).  Then it builds the module,
# boots the kernel under QEMU (TCG) with the selftests' VM rig, runs
# tools/demo/guest-demo.sh inside, and prints per algorithm: the study's
# transfer time, the link utilisation during it, and the interactive
# session's added latency (median and p95 over its idle round trip).  Every
# file of the study is checked byte for byte (SHA-256) at the station.
# Results: build/demo/KVER/ (summary.txt, demo.png, raw logs).  About two
# minutes on a quiet 2-core machine.
#
# Environment: DEMO_OUT (results folder), DEMO_ALGS, DEMO_SLICES,
# DEMO_SLICE_KIB, DEMO_KEEP_TRACE=1 (the fast_adaptive tags' tracepoints
# in trace.ALG; passed to the guest).
#
# The guest reads the checkout from the host root over 9p but mounts its own
# tmpfs on /tmp, /run and /var/tmp, so it cannot see a checkout under those:
# such a checkout is copied (rsync, as .ci/run does) to $DEMO_COPY_DIR
# (default /var/lib/fast_adaptive-demo/src), the demo runs from the copy,
# and its results are copied back to build/demo/KVER of the checkout.

set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
. "$REPO/tools/bench/host-args.sh"
OUT=${DEMO_OUT:-$REPO/build/demo/$KVER}
t0=$(date +%s)
phase() { printf '[demo %3ds] %s\n' $(($(date +%s) - t0)) "$*"; }

# Run the demo from a copy of the checkout outside the guest's tmpfs
# directories, then bring its results back to $OUT.  Never returns.
run_from_copy() {
	local real=$1 dst=${DEMO_COPY_DIR:-/var/lib/fast_adaptive-demo/src}
	local top res rc
	shift
	top=$(dirname "$dst")
	case $dst/ in
	/tmp/* | /run/* | /var/tmp/*)
		echo "demo: DEMO_COPY_DIR=$dst is itself under /tmp, /run or /var/tmp: choose another directory" >&2
		exit 2 ;;
	esac
	if ! mkdir -p "$dst" 2>/dev/null || [ ! -w "$dst" ]; then
		echo "demo: the checkout $real is under a directory the VM guest replaces with its own tmpfs (/tmp, /run, /var/tmp) and $dst is not writable to copy it out: run as root, or move the checkout elsewhere" >&2
		exit 2
	fi
	if ! command -v rsync >/dev/null 2>&1; then
		if [ "$(id -u)" = 0 ]; then
			KVERS="$KVER" "$REPO/tools/deps.sh" | sed 's/^/           /'
		fi
		command -v rsync >/dev/null 2>&1 || {
			echo "demo: the checkout $real must be copied out of the guest's tmpfs directories, and rsync is missing: apt-get install rsync" >&2
			exit 2
		}
	fi
	# one copy-out at a time: another demo from /tmp would rewrite the copy
	exec 8> "$top/.lock"
	if ! flock -n 8; then
		echo "demo: another demo runs from $dst; waiting for it" >&2
		flock 8
	fi
	phase "0/4 the checkout $real is under /tmp, /run or /var/tmp, which the VM guest replaces: running from a copy in $dst"
	# build/ is the copy's own (module, initramfs cache, results)
	rsync -a --delete --exclude=/build/ "$real/" "$dst/"
	res=$dst/build/demo/$KVER
	set +e
	if [ -n "${DEMO_OUT:-}" ]; then
		"$dst/tools/demo/demo.sh" "$@"
	else
		DEMO_OUT=$res "$dst/tools/demo/demo.sh" "$@"
	fi
	rc=$?
	set -e
	if [ -z "${DEMO_OUT:-}" ] && [ -d "$res" ]; then
		mkdir -p "$OUT"
		rsync -a --delete "$res/" "$OUT/"
		echo "demo: results copied back to $OUT"
	fi
	exit "$rc"
}

real=$(cd "$REPO" && pwd -P)
case $real/ in
/tmp/* | /run/* | /var/tmp/*) run_from_copy "$real" "$@" ;;
esac

rc=0
if [ $report_only = 0 ]; then
	phase "1/4 checking dependencies (tools/deps.sh)"
	if [ "$(id -u)" = 0 ]; then
		KVERS="$KVER" "$REPO/tools/deps.sh" | sed 's/^/           /'
	else
		echo "           not root: not installing anything (the VM needs root anyway)" >&2
	fi
	phase "2/4 building the module for $KVER and the helpers"
	make -s -C "$REPO" KVER="$KVER" modules >/dev/null
	make -s -C "$REPO/tools/bench" all
	make -s -C "$REPO/selftests" OUTPUT="$REPO/build/selftests" all

	phase "3/4 booting $KVER under QEMU (TCG) - the story runs inside"
	rm -rf "$OUT"
	mkdir -p "$OUT"
	set +e
	"$REPO/tools/bench/vm.sh" -t 600 "$KVER" "$OUT" "$HERE/guest-demo.sh" | sed -u 's/^/           /'
	rc=${PIPESTATUS[0]}
	set -e
	cut -d' ' -f1-3 /proc/loadavg > "$OUT/hostload"
	why="the guest produced none, status $rc"
else
	why="run tools/demo/demo.sh first"
fi
[ -s "$OUT/demo.txt" ] || { echo "demo: no results in $OUT ($why)" >&2; exit 1; }

phase "4/4 results"
S=$OUT/summary.txt
awk -v out="$OUT" '
	function isort(a, n,    i, j, v) { for (i = 2; i <= n; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]; a[j + 1] = v } }
	function kv(k,    i, p) { for (i = 1; i <= NF; i++) { p = index($i, "="); if (substr($i, 1, p - 1) == k) return substr($i, p + 1) } return "" }
	/^# path/ { rate = kv("rate_mbit"); rtt = kv("rtt_ms"); limit = kv("limit"); next }
	/^# study/ { files = kv("files"); bytes = kv("bytes"); next }
	/^alg=/ {
		alg = kv("alg"); s = kv("start_us") + 0; e = kv("end_us") + 0; t = kv("ttlb_s") + 0
		util = kv("link_bytes") * 8 / (rate * 1e6 * t) * 100
		# the interactive session: base = its fastest exchange (before or
		# during the pull: the round trip of the path with an empty queue)
		n = 0; base = ""
		f = out "/ping." alg ".log"
		while ((getline l < f) > 0) {
			split(l, x, " ")
			ts = x[1] + 0; v = x[2] + 0
			if (ts > e) continue
			if (base == "" || v < base) base = v
			if (ts >= s) lat[++n] = v
		}
		close(f)
		if (base == "") base = rtt * 1000
		for (i = 1; i <= n; i++) lat[i] = (lat[i] - base) / 1000
		isort(lat, n)
		med = n ? (n % 2 ? lat[(n + 1) / 2] : (lat[n / 2] + lat[n / 2 + 1]) / 2) : 0
		k = int(0.95 * n + 0.999999); if (k < 1) k = 1
		printf "%-14s %8.1f s %9.0f %%    +%6.1f ms   +%6.1f ms   %5.1f ms  %4d   %s (SHA-256, %d files)\n",
			alg, t, util, med, (n ? lat[k] : 0), base / 1000, n, kv("integrity"), kv("files")
		printf "%s %.3f %.1f %.2f %.2f %.2f %d %s\n", alg, t, util, med, (n ? lat[k] : 0), base / 1000, n, kv("integrity") > (out "/summary.dat")
		next
	}
	BEGIN {}
	END {}' "$OUT/demo.txt" > "$S.rows"
{
	path=$(sed -n 's/^# path //p' "$OUT/demo.txt")
	study=$(sed -n 's/^# study //p' "$OUT/demo.txt")
	echo "PACS study pull across an emulated WAN ($(echo "$path" | sed 's/rate_mbit=\([0-9]*\) rtt_ms=\([0-9]*\) limit=\([0-9]*\)/\1 Mbit\/s, \2 ms RTT, \3-packet buffer = 1 BDP/'))"
	echo "study: $(echo "$study" | sed 's/files=\([0-9]*\) bytes=\([0-9]*\)/\1 files/'), $(awk -v b="$(echo "$study" | sed 's/.*bytes=//')" 'BEGIN { printf "%.1f MiB", b / 1048576 }'); interactive session: 200-byte request, 2 KiB answer, every 50-100 ms"
	echo
	echo "algorithm      study time  link use   added latency (interactive)  idle RTT   n     integrity"
	echo "                                        median       p95"
	cat "$S.rows"
	echo
	echo "study time: from connect() to the last byte at the reading station; link use: bytes through the"
	echo "bottleneck during the pull / (rate x time); added latency: request-to-answer time of the"
	echo "radiologist's exchanges sent during the pull minus the session's fastest exchange (idle RTT)."
	echo "Emulated under QEMU TCG on $(uname -r | sed 's/.*/a host/') with $(nproc) cores: numbers are noisy (host load average at the end of the run: $(cat "$OUT/hostload" 2>/dev/null || echo unknown))."
} > "$S"
rm -f "$S.rows"
cat "$S"

# The picture: interactive latency and study progress over time.
if command -v gnuplot >/dev/null 2>&1 && [ -s "$OUT/summary.dat" ]; then
	D=$(mktemp -d)
	plot1="" plot2=""
	while read -r alg _; do
		line=$(grep "^alg=$alg " "$OUT/demo.txt")
		s=$(echo "$line" | sed 's/.*start_us=\([0-9]*\).*/\1/')
		e=$(echo "$line" | sed 's/.*end_us=\([0-9]*\).*/\1/')
		base=$(awk -v a="$alg" '$1 == a { print $6 * 1000 }' "$OUT/summary.dat")
		awk -v s="$s" -v e="$e" -v b="$base" '$1 <= e + 1000000 { printf "%.3f %.2f\n", ($1 - s) / 1e6, ($2 - b) / 1000 }' "$OUT/ping.$alg.log" > "$D/p.$alg"
		f=$(ls "$OUT"/study."$alg".* 2>/dev/null | head -n 1)
		[ -n "$f" ] && awk -v s="$s" '!/^#/ { printf "%.3f %.3f\n", ($1 - s) / 1e6, $6 / 1048576 }' "$f" > "$D/s.$alg"
		plot1="$plot1, '$D/p.$alg' using 1:2 with linespoints pt 7 ps 0.4 lw 1.2 title '$alg'"
		[ -s "$D/s.$alg" ] && plot2="$plot2, '$D/s.$alg' using 1:2 with lines lw 2 title '$alg'"
	done < "$OUT/summary.dat"
	{
		echo "set terminal pngcairo noenhanced size 1100,800 font ',10'"
		echo "set output '$OUT/demo.png'"
		echo "set multiplot layout 2,1 title 'PACS study pull, 50 Mbit/s, 100 ms RTT, 1-BDP buffer, with an interactive session on the same path'"
		echo "set grid; set key top right; set xrange [-2:$(awk '{ if ($2 > m) m = $2 } END { printf "%d", m + 2 }' "$OUT/summary.dat")]"
		echo "set title \"radiologist's interactive session: latency added to the idle round trip (axis clipped at 300 ms)\""
		echo "set xlabel 'time since the study was requested (s)'; set ylabel 'added latency (ms)'; set yrange [-20:300]"
		echo "plot ${plot1#, }"
		echo "set title 'CT study delivered'; set ylabel 'MiB acknowledged'; set yrange [0:*]"
		[ -n "$plot2" ] && echo "plot ${plot2#, }"
		echo "unset multiplot"
	} > "$D/demo.gp"
	gnuplot "$D/demo.gp" 2>/dev/null || echo "demo: gnuplot failed" >&2
	rm -rf "$D"
fi
echo
phase "done. Results: $S, $OUT/demo.png (raw: $OUT/ping.*.log, study.*, demo.txt)"
exit "$rc"
