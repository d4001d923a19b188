# SPDX-License-Identifier: GPL-2.0
#
# KTAP output for the fast_adaptive selftests (sourced by bash scripts).
#
#   ktap_plan N                  "TAP version 13" and "1..N"
#   ktap_ok DESC / ktap_fail DESC / ktap_skip DESC REASON
#   ktap_result RC DESC          ok when RC is 0
#   ktap_bar RC DESC             a performance bar: ktap_result; with
#                                FA_STRICT_BARS=0 (a host known to be short
#                                of CPU) its result carries "# TODO" instead
#                                (TAP: reported, not failing)
#   ktap_info TEXT...            a "# " diagnostic line
#   ktap_finish                  exit 1 on any failure, 4 when all skipped,
#                                1 when fewer results than planned, else 0

KTAP_N=0
KTAP_PLAN=0
KTAP_FAILED=0
KTAP_SKIPPED=0
KTAP_TODO=0

ktap_plan() {
	KTAP_PLAN=$1
	echo "TAP version 13"
	echo "1..$1"
}

ktap_info() {
	local line
	printf '%s\n' "$*" | while IFS= read -r line; do
		echo "# $line"
	done
}

ktap_ok() {
	KTAP_N=$((KTAP_N + 1))
	echo "ok $KTAP_N $*"
}

ktap_fail() {
	KTAP_N=$((KTAP_N + 1))
	KTAP_FAILED=$((KTAP_FAILED + 1))
	echo "not ok $KTAP_N $*"
}

ktap_skip() {
	KTAP_N=$((KTAP_N + 1))
	KTAP_SKIPPED=$((KTAP_SKIPPED + 1))
	echo "ok $KTAP_N $1 # SKIP $2"
}

ktap_result() {
	local rc=$1
	shift
	if [ "$rc" -eq 0 ]; then
		ktap_ok "$@"
	else
		ktap_fail "$@"
	fi
}

ktap_bar() {
	local rc=$1
	shift
	if [ "${FA_STRICT_BARS:-1}" != 0 ]; then
		ktap_result "$rc" "$@"
		return
	fi
	KTAP_N=$((KTAP_N + 1))
	KTAP_TODO=$((KTAP_TODO + 1))
	if [ "$rc" -eq 0 ]; then
		echo "ok $KTAP_N $* # TODO FA_STRICT_BARS=0: bar reported, not judged"
	else
		echo "not ok $KTAP_N $* # TODO FA_STRICT_BARS=0: bar reported, not judged"
	fi
}

ktap_finish() {
	if [ "$KTAP_N" -ne "$KTAP_PLAN" ]; then
		echo "# planned $KTAP_PLAN results, reported $KTAP_N"
		exit 1
	fi
	echo "# Totals: pass:$((KTAP_N - KTAP_FAILED - KTAP_SKIPPED - KTAP_TODO)) fail:$KTAP_FAILED skip:$KTAP_SKIPPED todo:$KTAP_TODO"
	[ "$KTAP_FAILED" -eq 0 ] || exit 1
	[ "$KTAP_N" -gt 0 ] && [ "$KTAP_SKIPPED" -eq "$KTAP_N" ] && exit 4
	exit 0
}
