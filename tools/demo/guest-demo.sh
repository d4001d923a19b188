#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-demo.sh - the PACS story, run inside the VM by tools/demo/demo.sh.
#
# A PACS server (namespace fa_snd) and a reading station (fa_rcv) across an
# emulated WAN: 50 Mbit/s bottleneck, 100 ms RTT, a buffer of one
# bandwidth-delay product (413 packets).  For each algorithm in turn the
# station pulls a CT study (200 slices of ~150 KiB) while the radiologist's
# interactive session - a small request and a 2 KiB answer every 50-100 ms
# on its own TCP connection - shares the path.  The server sends with the
# algorithm under test on both connections.
#
# Writes to $BENCH_OUT: demo.txt (one line per algorithm), ping.ALG.log
# (interactive exchanges: send time, latency, microseconds), study.ALG.*
# (server-side TCP_INFO samples of the study connection) and prints one
# progress line per phase.  demo.sh computes and prints the results.
# DEMO_KEEP_TRACE=1 (diagnosis): also trace.ALG, the fast_adaptive
# tracepoints of each fast_adaptive tag's pull (enabled once, at the first;
# the bench does the same, tools/bench/NOTES.md).

set -u
DIR=$(cd "$(dirname "$0")" && pwd)
. "$DIR/../bench/guest-lib.sh"

ALGS=${DEMO_ALGS:-"cubic bbr fast_adaptive"}
RATE=50 RTT=100
SLICES=${DEMO_SLICES:-200} SLICE_KIB=${DEMO_SLICE_KIB:-150}
IDLE=${DEMO_IDLE_S:-1.5}	# interactive session alone first: its base RTT
OUT=${BENCH_OUT:-/tmp/demo-out}
STUDY=/tmp/pacs/study
t_start=$SECONDS
say() { printf '[demo %3ds] %s\n' $((SECONDS - t_start)) "$*"; }

trap 'net_teardown; kill $(jobs -p) 2>/dev/null' EXIT
: > "$OUT/demo.txt"

say "guest up ($(uname -r)); loading congestion controls, building the WAN"
bench_load_ccs || { say "cannot load fast_adaptive"; exit 1; }
mode_for fast_adaptive
net_setup || { say "network setup failed"; exit 1; }
ns_watchers
LIMIT=$(bdp_pkts $RATE $RTT 1)
net_path $RATE $RTT "$LIMIT" || { say "netem setup failed"; exit 1; }
echo "# path rate_mbit=$RATE rtt_ms=$RTT limit=$LIMIT" >> "$OUT/demo.txt"

say "PACS server: writing the CT study ($SLICES slices of ~$SLICE_KIB KiB) and its SHA-256 manifest"
mkdir -p /tmp/pacs
total=$("$PACS" mkstudy "$STUDY" "$SLICES" "$SLICE_KIB" 2026) || { say "mkstudy failed"; exit 1; }
(cd "$STUDY" && sha256sum -- *.dcm > /tmp/pacs/manifest.sha256) || { say "manifest failed"; exit 1; }
echo "# study files=$SLICES bytes=$total" >> "$OUT/demo.txt"

failed=0
port=7000
trace_ready=0
for alg in $ALGS; do
	port=$((port + 1))
	cc=$(cc_of "$alg")
	cc_available "$alg" || { say "$alg: not available in this kernel, skipped"; continue; }
	mode_for "$alg"
	rm -rf "/tmp/pacs/recv.$alg"
	mkdir -p "/tmp/pacs/recv.$alg"
	pacs_serve "$port" "$cc" 2 -s 50 -l "$OUT/study.$alg" || { failed=1; continue; }
	# not through in_rcv: a function would run in a subshell, and $! would
	# not be the pid of the client (ip netns exec execs it in place)
	ip netns exec "$NS_RCV" "$PACS" ping -c "$SND_IP" -p "$port" -o "$OUT/ping.$alg.log" \
		-q 200 -n 2048 -i 50 -I 100 -t 120 -S 7 &
	ping_pid=$!
	say "$alg: radiologist's session open, measuring the idle round trip for ${IDLE} s"
	bsleep "$IDLE"
	st0=$(net_bottleneck_stats)
	tracing=0
	case "${DEMO_KEEP_TRACE:-0}:$alg" in
	1:fast_adaptive | 1:fa_*)
		if ! fa_trace_available; then
			say "$alg: no fast_adaptive tracepoints in this module: no trace"
		elif [ $trace_ready = 0 ]; then
			fa_trace_start && trace_ready=1 tracing=1
		else
			: > "$FA_TRACE/trace"
			echo 1 > "$FA_TRACE/tracing_on"
			tracing=1
		fi
		;;
	esac
	say "$alg: pulling the study ..."
	in_rcv "$PACS" pull -c "$SND_IP" -p "$port" -d "$STUDY" -o "/tmp/pacs/recv.$alg" -T 120 \
		> "/tmp/pacs/pull.$alg" 2>&1
	st1=$(net_bottleneck_stats)
	if [ $tracing = 1 ]; then
		echo 0 > "$FA_TRACE/tracing_on"
		cat "$FA_TRACE/trace" > "$OUT/trace.$alg"
	fi
	kill -TERM "$ping_pid" 2>/dev/null
	wait "$ping_pid" 2>/dev/null
	wait "$PACS_SERVE_PID" 2>/dev/null
	read -r line < "/tmp/pacs/pull.$alg"
	case $line in
	"pull "*) ;;
	*) say "$alg: the pull failed: $line"; failed=1; continue ;;
	esac
	kv_get "$line" ttlb_s
	say "$alg: study in after $KV s; checking SHA-256 of every file"
	if (cd "/tmp/pacs/recv.$alg" && sha256sum --quiet -c /tmp/pacs/manifest.sha256 > /tmp/pacs/check.$alg 2>&1); then
		integrity=ok
	else
		integrity=FAILED
		failed=1
		say "$alg: checksum mismatch: $(head -c 300 /tmp/pacs/check.$alg)"
	fi
	b0=${st0%% *} b1=${st1%% *}
	echo "alg=$alg cc=$cc ${line#pull } link_bytes=$((b1 - b0)) integrity=$integrity" >> "$OUT/demo.txt"
	rm -rf "/tmp/pacs/recv.$alg"
done
mode_for fast_adaptive
say "all algorithms done"
exit $failed
