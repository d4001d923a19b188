#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - make bench: fast_adaptive side by side with the kernel's
# algorithms, in one VM boot, and bench/RESULTS.md + bench/*.png from it.
#
#   tools/bench/bench.sh [KVER=6.1.0-57-amd64]
#   tools/bench/bench.sh --report-only [KVER=...]   redo RESULTS.md from the last run
#
# Runs as root (it installs what is missing, builds the module, boots QEMU).
# Takes about 65 minutes on a quiet 2-core machine (3 repetitions of
# 12 scenarios x 6 algorithms, under TCG; the three of issue 12, loss2,
# shallow and lossharm, about 20 of them); see tools/bench/README.md.
#
# Environment:
#   BENCH_REPS, BENCH_ALGS, BENCH_SCENARIOS, BENCH_SCALE, BENCH_SAMPLE_MS
#                      passed to the guest (tools/bench/guest-bench.sh)
#   BENCH_WAIT_QUIET   minutes to wait for a quiet machine (no other
#                      qemu-system or ns-3 scenario running) before the
#                      run, polling every minute (default 10; 0: don't wait)
#   BENCH_RESULTS      where RESULTS.md and the PNGs go (default bench/); raw
#                      data then goes to build/bench/KVER-trial-NAME, not
#                      build/bench/KVER (BENCH_RAW overrides either)
#   BENCH_TIMEOUT      seconds for the whole VM run (default 6000)

set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
. "$HERE/host-args.sh"
OUTDIR=${BENCH_RESULTS:-$REPO/bench}
# Raw results: build/bench/KVER for the real run; a trial that writes its
# RESULTS.md elsewhere (BENCH_RESULTS) keeps its raw data apart too, so that
# --report-only still finds the real run's.
if [ -n "${BENCH_RAW:-}" ]; then
	RES=$BENCH_RAW
elif [ -n "${BENCH_RESULTS:-}" ]; then
	RES=$REPO/build/bench/$KVER-trial-$(basename "$BENCH_RESULTS")
else
	RES=$REPO/build/bench/$KVER
fi

if [ $report_only = 0 ]; then
	if [ "$(id -u)" = 0 ]; then
		KVERS="$KVER" "$REPO/tools/deps.sh"
	fi
	echo "bench: building the module for $KVER"
	make -s -C "$REPO" KVER="$KVER" modules >/dev/null
	make -s -C "$HERE" all

	# Other emulators or simulators on the machine bend TCG's timing.
	others() {
		{ pgrep -a qemu-system; pgrep -af 'ns3|scenario|fa-sim'; } 2>/dev/null |
			grep -v "build/bench/" | grep -v pgrep || true
	}
	wait_min=${BENCH_WAIT_QUIET:-10}
	for ((i = 0; i < wait_min; i++)); do
		[ -z "$(others)" ] && break
		echo "bench: waiting for a quiet machine ($((i + 1))/$wait_min min): $(others | wc -l) other emulator/simulator processes, load $(cut -d' ' -f1-3 /proc/loadavg)"
		sleep 60
	done

	rm -rf "$RES"
	mkdir -p "$RES"
	# Host load while the bench runs: every 30 s, load average and the
	# other emulators/simulators seen.
	(
		while :; do
			echo "$(date +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg) others $(others | wc -l): $(others | cut -c1-60 | tr '\n' ';')"
			sleep 30
		done
	) > "$RES/hostload.txt" 2>/dev/null &
	loadpid=$!
	trap 'kill $loadpid 2>/dev/null || true' EXIT
	echo "bench: booting $KVER; progress below (raw results in $RES)"
	t0=$(date +%s)
	set +e
	"$HERE/vm.sh" -t "${BENCH_TIMEOUT:-6000}" "$KVER" "$RES" "$HERE/guest-bench.sh"
	rc=$?
	set -e
	echo "$(($(date +%s) - t0))" > "$RES/wall_seconds"
	kill $loadpid 2>/dev/null || true
	[ $rc = 0 ] || echo "bench: some runs failed (status $rc); reporting what there is" >&2
	why="the VM run produced none"
else
	why="run tools/bench/bench.sh first"
fi

[ -s "$RES/runs.txt" ] || { echo "bench: no results in $RES ($why)" >&2; exit 1; }
"$HERE/report.sh" "$RES" "$OUTDIR"
