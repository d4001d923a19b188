#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test of the bench's tags (tags.sh, guest-lib.sh's tag_self and
# mode_for): what each tag writes into the module's parameters, against a
# directory of parameter files that stands in for
# /sys/module/tcp_fast_adaptive/parameters.  A tag that silently set fewer
# tunables than it names measured something else (trial t24 ran
# compete_trend alone under a tag that named compete_start too).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=/dev/null
. "$HERE/guest-lib.sh"

FA_PARAMS=$(mktemp -d)
trap 'rm -rf "$FA_PARAMS"' EXIT
for n in compete_trend compete_start compete_rise compete_moves ss_exit_pkts adaptive_gain adaptive_ss \
	 ramp own_queue drain_check quick_probe jitter_us short_probe shorter_path random_loss \
	 queue_fit compete overshoot early_restore fit_hold fit_low fit_noise restore_pace ramp_double probe_mean probe_pause path_settle ramp_scatter compete_refill compete_quit compete_adopt compete_recheck compete_keep fit_regrow join_reprobe; do
	echo 0 > "$FA_PARAMS/$n"
done
echo 1 > "$FA_PARAMS/adaptive_gain"
echo 1 > "$FA_PARAMS/compete"
echo 1000 > "$FA_PARAMS/jitter_us"

pass=0 fail=0
check() {
	if [ "$2" = "$3" ]; then
		echo "ok - $1"
		pass=$((pass + 1))
	else
		echo "not ok - $1: got '$2', want '$3'"
		fail=$((fail + 1))
	fi
}
vals() {
	local n out=""
	for n in "$@"; do out="$out $n=$(cat "$FA_PARAMS/$n")"; done
	echo "${out# }"
}

check "mode_of one parameter" "$(mode_of fa_ss_exit_pkts_40)" "ss_exit_pkts=40"
check "mode_of two parameters" "$(mode_of fa_compete_trend_1@compete_start_1)" \
	"compete_trend=1 compete_start=1"
check "mode_of three parameters" "$(mode_of fa_compete_trend_1@compete_start_1@compete_moves_1)" \
	"compete_trend=1 compete_start=1 compete_moves=1"
check "mode_of the defaults" "$(mode_of fast_adaptive)" ""
check "cc_of a joined tag" "$(cc_of fa_compete_trend_1@compete_start_1)" fast_adaptive
check "tag_self of a pair" "$(tag_self fa_compete_trend_1@compete_start_1+reno)" \
	"fa_compete_trend_1@compete_start_1"
check "tag_self of a lone tag" "$(tag_self cubic)" cubic

# What the scenario loop does (guest-bench.sh): mode_for "$(tag_self TAG)".
for tag in fa_compete_trend_1@compete_start_1 fa_compete_trend_1@compete_start_1+reno; do
	mode_for "$(tag_self "$tag")"
	check "$tag sets both" "$(vals compete_trend compete_start)" "compete_trend=1 compete_start=1"
done
mode_for fast_adaptive
check "back to the defaults restores both" "$(vals compete_trend compete_start)" \
	"compete_trend=0 compete_start=0"
mode_for fa_classic
check "fa_classic turns the modes off" "$(vals adaptive_gain compete jitter_us)" \
	"adaptive_gain=0 compete=0 jitter_us=0"
mode_for fa_compete_start_1
check "from fa_classic to another tag restores fa_classic's writes" \
	"$(vals adaptive_gain compete jitter_us compete_start)" \
	"adaptive_gain=1 compete=1 jitter_us=1000 compete_start=1"

# fa_classic is plain FAST: every on/off mechanism of fa_params.h (a 0-1
# tunable; pacing aside, which is the host's, not the law's) must be one it
# writes 0.  A mechanism added to the law but not to tags.sh's list would
# stay on in the classic row, which then measured something else.
hdr=$HERE/../../include/fast_adaptive/fa_params.h
switches=$(sed -nE 's/^#define FA_([A-Z0-9_]+)_MAX[[:space:]]+1[[:space:]]*$/\1/p' "$hdr" |
	tr 'A-Z' 'a-z' | grep -vx pacing)
classic=$(mode_of fa_classic 2>/dev/null)
missing=""
for n in $switches; do
	grep -qw "$n=0" <<<"$classic" || missing="$missing $n"
done
check "fa_classic turns off every on/off tunable of fa_params.h ($(wc -w <<<"$switches") of them)" \
	"${missing# }" ""
echo "tags: $pass passed, $fail failed"
[ "$fail" = 0 ]
