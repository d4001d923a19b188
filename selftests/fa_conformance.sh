#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Conformance of the kernel's control law with the userspace build of the
# same law (include/fast_adaptive/fa_law.h): every fast_adaptive:update record
# the kernel emitted is replayed through fa_law() by fa_replay, which must
# compute the same backlog_q10, dist_q10, gamma, target and cwnd_out.
#  - Its own run (50 Mbit/s, 20 ms RTT, 2-BDP buffer; a 12 s flow joined by
#    a second one at 6 s) changes the tunables mid-flow so that the records
#    cover the classic fixed gain (adaptive_gain=0, gamma_fixed=300) and other
#    alpha_pkts, gain_k, gamma_min and gamma_max;
#  - then the traces fa_behaviour.sh and fa_tunables.sh recorded in this boot
#    (if they ran) are replayed too.
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
. "$DIR/lib/ktap.sh"
. "$DIR/lib/fa.sh"
. "$DIR/lib/net.sh"

W=$FA_RESULTS/conformance
mkdir -p "$W"
fa_need_helpers || exit 4
if ! fa_is_ours; then
	ktap_plan 1
	ktap_skip "conformance" "$FA_CC has no fast_adaptive tracepoints"
	ktap_finish
fi
ktap_plan 4
fa_load || { ktap_info "cannot load $FA_MODULE"; exit 1; }
fa_trace_available || { ktap_info "no fast_adaptive tracepoints"; exit 1; }

TABLE=$(fa_param_table)
restore_defaults() {
	local name def lo hi
	fa_param_set gamma_max 1024 >/dev/null
	echo "$TABLE" | while read -r name def lo hi; do
		[ "$name" = gamma_max ] && continue
		fa_param_set "$name" "$def" >/dev/null
	done
	def=$(echo "$TABLE" | awk '$1 == "gamma_max" { print $2 }')
	fa_param_set gamma_max "$def" >/dev/null
}
trap 'restore_defaults; net_teardown; kill $(jobs -p) 2>/dev/null' EXIT

net_setup || { ktap_info "network setup failed"; exit 1; }
net_dumbbell 50 20 2
net_recv 6501 2 "$W/recv" || exit 1
fa_trace_start
in_snd "$FA_XFER" send -c "$RCV_IP" -p 6501 -C "$FA_CC" -t 12 > "$W/send1" 2>&1 &
p1=$!
sleep 4
fa_param_set gamma_fixed 300 >/dev/null
fa_param_set adaptive_gain 0 >/dev/null
sleep 2
in_snd "$FA_XFER" send -c "$RCV_IP" -p 6501 -C "$FA_CC" -t 6 > "$W/send2" 2>&1 &
p2=$!
sleep 2
fa_param_set adaptive_gain 1 >/dev/null
fa_param_set gain_k 4096 >/dev/null
fa_param_set alpha_pkts 30 >/dev/null
fa_param_set gamma_max 900 >/dev/null
fa_param_set gamma_min 100 >/dev/null
wait $p1 $p2
wait "$NET_RECV_PID"
fa_trace_stop "$W/own.trace"
restore_defaults
ktap_info "$(cat "$W/send1" "$W/send2")"

# What the records cover
cov=$(awk '/ update: / {
	n++
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] == "adaptive_gain") ag[kv[2]] = 1
		if (kv[1] == "alpha_pkts") al[kv[2]] = 1
		if (kv[1] == "cwnd_limited") cl[kv[2]] = 1
	}
} END {
	for (k in ag) nag++
	for (k in al) nal++
	for (k in cl) ncl++
	printf "records=%d adaptive_gain_values=%d alpha_values=%d cwnd_limited_values=%d\n", n, nag, nal, ncl
}' "$W/own.trace")
lost=$(grep -c 'LOST' "$W/own.trace")
ktap_info "own run: $cov; lost-event lines: $lost"
case $cov in
records=*) n=${cov#records=}; n=${n%% *} ;;
*) n=0 ;;
esac
echo "$cov" | grep -q 'adaptive_gain_values=2 ' && ! echo "$cov" | grep -q 'alpha_values=1 ' &&
	[ "$n" -ge 100 ]
ktap_result $? "the update trace has $n records (>= 100) covering both gain modes and two alpha values"

"$FA_REPLAY" -m 100 "$W/own.trace" > "$W/own.replay" 2>&1
rc=$?
head -n 20 "$W/own.replay" | grep -v '^fa_replay: [0-9]* records' | sed 's/^/# /'
ktap_info "$(tail -n 2 "$W/own.replay" | grep 'records')"
ktap_result $rc "fa_replay: every record of this run gives the kernel's outputs in userspace"

# A record the law could never have produced must be caught (the replayer
# is not vacuous): change one output of the first record.
first=$(grep -m 1 ' update: ' "$W/own.trace")
bad=$(echo "$first" | sed 's/ cwnd_out=\([0-9]*\)/ cwnd_out=1\1/')
out=$(echo "$bad" | "$FA_REPLAY" 2>&1)
rc=$?
ktap_info "tampered record: $(echo "$out" | tail -n 1)"
[ $rc -ne 0 ] && echo "$out" | grep -q MISMATCH
ktap_result $? "fa_replay flags a record whose cwnd_out was tampered with"

others=$(ls "$FA_RESULTS"/behaviour/*.trace "$FA_RESULTS"/tunables/*.trace 2>/dev/null)
if [ -z "$others" ]; then
	ktap_skip "fa_replay over the traces of fa_behaviour and fa_tunables" "they did not run in this boot"
else
	# shellcheck disable=SC2086
	"$FA_REPLAY" -m 1 $others > "$W/others.replay" 2>&1
	rc=$?
	head -n 20 "$W/others.replay" | grep -v '^fa_replay: [0-9]* records' | sed 's/^/# /'
	ktap_info "$(echo $others | xargs -n 1 basename | tr '\n' ' '): $(grep 'records' "$W/others.replay" | tail -n 1)"
	ktap_result $rc "fa_replay: every record of fa_behaviour's and fa_tunables' runs matches"
fi
ktap_finish
