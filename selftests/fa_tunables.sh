#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The tunables in /sys/module/tcp_fast_adaptive/parameters/, checked against
# the table in include/fast_adaptive/fa_params.h (fa_param_descs[]):
#  - the directory holds exactly the table's tunables, each at its default;
#  - for each tunable, every bad write fails with EINVAL and leaves the value
#    unchanged: negative (-1), above max (max+1), 2^32, 2^64, non-numeric
#    (abc) and empty (a bare newline, which is what `echo > file` writes; a
#    zero-byte write never reaches the module, sysfs returns 0 for it);
#  - gamma_min > gamma_max is refused from either side (EINVAL, unchanged);
#  - every tunable accepts its minimum and its maximum (for gamma_min and
#    gamma_max: within the other's current value) and reads back the same;
#  - a good write reaches a live socket: alpha_pkts written during a
#    transfer shows in the flow's next fast_adaptive:update records.
# All tunables are restored to their defaults at the end.
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
. "$DIR/lib/ktap.sh"
. "$DIR/lib/fa.sh"
. "$DIR/lib/net.sh"

W=$FA_RESULTS/tunables
mkdir -p "$W"
fa_need_helpers || exit 4
if ! fa_is_ours; then
	ktap_plan 1
	ktap_skip "tunables" "$FA_CC has no fast_adaptive tunables"
	ktap_finish
fi
fa_load || { ktap_plan 1; ktap_fail "cannot load $FA_MODULE"; ktap_finish; }

TABLE=$(fa_param_table)
NPARAMS=$(echo "$TABLE" | wc -l)
ktap_plan $((NPARAMS + 5))

restore_defaults() {
	local name def lo hi
	# gamma_max up first, so that gamma_min may take any value, then back
	fa_param_set gamma_max 1024 >/dev/null
	echo "$TABLE" | while read -r name def lo hi; do
		[ "$name" = gamma_max ] && continue
		fa_param_set "$name" "$def" >/dev/null
	done
	def=$(echo "$TABLE" | awk '$1 == "gamma_max" { print $2 }')
	fa_param_set gamma_max "$def" >/dev/null
}
trap 'restore_defaults; net_teardown; kill $(jobs -p) 2>/dev/null' EXIT

# --- the directory and the defaults -----------------------------------------

want=$(echo "$TABLE" | awk '{ print $1 }' | sort | tr '\n' ' ')
have=$(ls "$FA_PARAMS" | sort | tr '\n' ' ')
bad=""
while read -r name def lo hi; do
	v=$(fa_param_get "$name" 2>/dev/null)
	[ "$v" = "$def" ] || bad="$bad $name=${v:-missing}(want $def)"
done <<< "$TABLE"
ktap_info "parameters: $have"
[ "$want" = "$have" ] && [ -z "$bad" ]
ktap_result $? "the $NPARAMS tunables of fa_params.h are there, each at its default${bad:+:$bad}"

# --- bad writes ---------------------------------------------------------------

while read -r name def lo hi; do
	cur=$(fa_param_get "$name")
	problems=""
	for val in -1 $((hi + 1)) 4294967296 18446744073709551616 abc '\n'; do
		got=$(fa_param_set "$name" "$val")
		now=$(fa_param_get "$name")
		if [ "$got" != EINVAL ] || [ "$now" != "$cur" ]; then
			problems="$problems [write '$val': $got, value now $now]"
		fi
	done
	if [ -z "$problems" ]; then
		ktap_ok "$name: -1, $((hi + 1)), 2^32, 2^64, abc, empty: each EINVAL, value kept ($cur)"
	else
		ktap_fail "$name: bad writes must fail with EINVAL and keep $cur:$problems"
	fi
done <<< "$TABLE"

# --- gamma_min <= gamma_max -----------------------------------------------------------

gmin=$(fa_param_get gamma_min)
gmax=$(fa_param_get gamma_max)
r1=$(fa_param_set gamma_min $((gmax + 1)))
n1=$(fa_param_get gamma_min)
r2=$(fa_param_set gamma_max $((gmin - 1)))
n2=$(fa_param_get gamma_max)
r3=$(fa_param_set gamma_min "$gmax")
n3=$(fa_param_get gamma_min)
fa_param_set gamma_min "$gmin" >/dev/null
ktap_info "gamma_min=$((gmax + 1)) with gamma_max=$gmax: $r1 (now $n1); gamma_max=$((gmin - 1)) with gamma_min=$gmin: $r2 (now $n2); gamma_min=gamma_max=$gmax: $r3"
[ "$r1" = EINVAL ] && [ "$n1" = "$gmin" ] && [ "$r2" = EINVAL ] && [ "$n2" = "$gmax" ]
ktap_result $? "gamma_min > gamma_max refused from either side with EINVAL, values kept"
[ "$r3" = ok ] && [ "$n3" = "$gmax" ]
ktap_result $? "gamma_min = gamma_max is accepted"

# --- good writes ------------------------------------------------------------------------

problems=""
while read -r name def lo hi; do
	[ "$name" = gamma_min ] && hi=$(fa_param_get gamma_max)
	[ "$name" = gamma_max ] && lo=$(fa_param_get gamma_min)
	for val in "$lo" "$hi"; do
		# the minimum as echo writes it (with a newline), the maximum without
		if [ "$val" = "$lo" ]; then w="$val\\n"; else w=$val; fi
		got=$(fa_param_set "$name" "$w")
		now=$(fa_param_get "$name")
		[ "$got" = ok ] && [ "$now" = "$val" ] || problems="$problems [$name=$val: $got, reads $now]"
	done
	fa_param_set "$name" "$def" >/dev/null
done <<< "$TABLE"
ktap_result "$([ -z "$problems" ]; echo $?)" "every tunable accepts its minimum and maximum and reads them back${problems:+:$problems}"
restore_defaults

# --- a good write reaches a live socket ---------------------------------------------------

NEW_ALPHA=40
old_alpha=$(fa_param_get alpha_pkts)
if ! fa_trace_available; then
	ktap_fail "alpha_pkts written during a transfer reaches the socket (no tracepoints)"
	ktap_finish
fi
net_setup || { ktap_info "network setup failed"; exit 1; }
net_dumbbell 50 20 2
net_recv 6201 1 "$W/live.recv" || exit 1
fa_trace_start
in_snd "$FA_XFER" send -c "$RCV_IP" -p 6201 -C "$FA_CC" -t 7 > "$W/live.send" 2>&1 &
spid=$!
sleep 3.5
r=$(fa_param_set alpha_pkts $NEW_ALPHA)
echo "fa_tunables: alpha_pkts=$NEW_ALPHA written ($r)" > "$FA_TRACE/trace_marker"
wait $spid
wait "$NET_RECV_PID"
fa_trace_stop "$W/live.trace"
fa_param_set alpha_pkts "$old_alpha" >/dev/null
sport=$(sed -n 's/^send .* sport=\([0-9]*\) .*/\1/p' "$W/live.send")
# alpha_pkts of the flow's updates before and after the marker, in order
seq=$(awk -v sp="$sport" '
	/fa_tunables: alpha_pkts=/ { print "MARK"; next }
	/ update: / && $0 ~ (" sport=" sp " ") {
		for (i = 1; i <= NF; i++) if ($i ~ /^alpha_pkts=/) { sub(/alpha_pkts=/, "", $i); print $i }
	}' "$W/live.trace" | tr '\n' ' ')
rle=$(echo "$seq" | awk '{ for (i = 1; i <= NF + 1; i++) { if (i > 1 && $i != prev) { printf "%s%s", (out++ ? " " : ""), (prev == "MARK" ? prev : prev "x" n); n = 0 } prev = $i; n++ } print "" }')
ktap_info "write: $r; alpha_pkts of the flow's updates in order (MARK = the write): $rle"
# Before the write the flow's updates carry the old value; the value may
# switch to the new one before the marker (the marker is written after the
# write returns) or at the first update after it (that update may have read
# the tunables just before the write), and never switches back.
verdict=$(echo "$seq" | awk -v old="$old_alpha" -v new="$NEW_ALPHA" '{
	m = 0; nold = 0; nnew = 0; bad = 0; switched = 0
	for (i = 1; i <= NF; i++) {
		if ($i == "MARK") { m = i; continue }
		if ($i == new) { switched = 1; if (m) nnew++ }
		else if ($i == old) { if (switched || (m && i > m + 1)) bad++; if (!m) nold++ }
		else bad++
	}
	printf "%s old-before=%d new-after=%d wrong=%d\n", (m && nold && nnew && !bad) ? "ok" : "fail", nold, nnew, bad
}')
ktap_info "$verdict"
case $verdict in
ok*) ktap_ok "alpha_pkts=$NEW_ALPHA written during a transfer reaches the live socket's updates ($verdict)" ;;
*) ktap_fail "alpha_pkts=$NEW_ALPHA written during a transfer reaches the live socket's updates ($verdict)" ;;
esac
ktap_finish
