#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run_suite.sh [TEST...] - run the fast_adaptive selftests as one flat TAP
# stream (as root; vmtest.sh runs it inside the VM).
#
# Runs TEST_PROGS of the Makefile in order (or the TESTs named, with or
# without .sh), each under the timeout of ./settings.  Every result a test
# reports becomes one top-level test point "ok N prog: description"; its
# other output becomes "# " diagnostics.  After each test the kernel log
# written during it is judged (lib/dmesg.sh) as one more test point.  A test
# that times out, exits abnormally or breaks its own plan is a failure.  The
# plan "1..N" comes last, then "# Totals: pass:P fail:F skip:S".
#
# Environment (all optional): FA_CC (default fast_adaptive), FA_MODULE (the
# .ko to load; default ../build/$(uname -r)/tcp_fast_adaptive.ko), FA_BIN
# (helpers; default ../build/selftests), FA_RESULTS (where tests leave
# traces and samples; default a fresh directory under /tmp), FA_STRESS=1
# (the long forms of the stress tests), FA_TEST_TIMEOUT (seconds per test,
# instead of ./settings').
#
# Exit status: 0 when nothing failed, 1 otherwise.

set -u

DIR=$(cd "$(dirname "$0")" && pwd)
cd "$DIR" || exit 1
. "$DIR/lib/dmesg.sh"

export FA_CC=${FA_CC:-fast_adaptive}
export FA_BIN=${FA_BIN:-$DIR/../build/selftests}
if [ -z "${FA_MODULE+x}" ] && [ "$FA_CC" = fast_adaptive ]; then
	FA_MODULE=$DIR/../build/$(uname -r)/tcp_fast_adaptive.ko
fi
export FA_MODULE=${FA_MODULE:-}
export FA_RESULTS=${FA_RESULTS:-$(mktemp -d /tmp/fa_results.XXXXXX)}
mkdir -p "$FA_RESULTS"

timeout_s=$(sed -n 's/^timeout=\([0-9][0-9]*\)$/\1/p' settings 2>/dev/null)
timeout_s=${timeout_s:-300}
# make stress: the long forms need more than settings' per-test timeout
timeout_s=${FA_TEST_TIMEOUT:-$timeout_s}

if [ $# -gt 0 ]; then
	progs=""
	for t in "$@"; do
		t=${t%.sh}.sh
		[ -x "$DIR/$t" ] || { echo "run_suite: no test $t" >&2; exit 1; }
		progs="$progs $t"
	done
else
	progs=$(make -s -C "$DIR" print-tests) || {
		echo "run_suite: cannot read TEST_PROGS from the Makefile" >&2
		exit 1
	}
fi

N=0
PASS=0
FAIL=0
SKIP=0
TODO=0

point() { # ok|fail|skip text
	N=$((N + 1))
	case $1 in
	ok) PASS=$((PASS + 1)); echo "ok $N $2" ;;
	skip) SKIP=$((SKIP + 1)); echo "ok $N $2" ;;
	todo-ok) TODO=$((TODO + 1)); echo "ok $N $2" ;;
	todo-fail) TODO=$((TODO + 1)); echo "not ok $N $2" ;;
	*) FAIL=$((FAIL + 1)); echo "not ok $N $2" ;;
	esac
}

echo "TAP version 13"
echo "# fast_adaptive selftests on $(uname -r), cc under test: $FA_CC"
echo "# module: ${FA_MODULE:-(none; tests that need it skip)}"
suite_start=$(date +%s)

for prog in $progs; do
	name=${prog%.sh}
	echo "# ---- $name"
	mark=$(dmesg_lines)
	t0=$(date +%s)
	plan=""
	results=0
	failed=0
	rc=""
	while IFS= read -r line; do
		case $line in
		__FA_EXIT__\ *)
			rc=${line#__FA_EXIT__ }
			;;
		"TAP version"*) ;;
		1..*)
			plan=${line#1..}
			plan=${plan%% *}
			;;
		"ok "* | "not ok "*)
			results=$((results + 1))
			verdict=ok
			case $line in "not ok "*) verdict=fail; failed=$((failed + 1)) ;; esac
			desc=${line#ok }
			desc=${desc#not ok }
			desc=${desc#* }      # the program's own number
			desc=${desc#- }
			case $desc in
			*"# SKIP"* | *"# skip"*) [ $verdict = ok ] && verdict=skip ;;
			*"# TODO"*)
				# TAP: a TODO result is reported but does not fail
				[ $verdict = fail ] && failed=$((failed - 1))
				verdict=todo-$verdict
				;;
			esac
			point $verdict "$name: $desc"
			;;
		"# Totals:"*) echo "# $name totals:${line#\# Totals:}" ;;
		\#*) echo "$line" ;;
		*) echo "# $line" ;;
		esac
	done < <(timeout -k 10 "$timeout_s" "$DIR/$prog" 2>&1 </dev/null; echo "__FA_EXIT__ $?")
	dt=$(($(date +%s) - t0))

	case $rc in
	124 | 137)
		point fail "$name: timed out after ${timeout_s}s" ;;
	4)
		[ "$results" -gt 0 ] || point skip "$name # SKIP (exit 4)" ;;
	0 | 1)
		if [ -z "$plan" ]; then
			point fail "$name: no TAP plan (exit $rc)"
		elif [ "$results" -ne "$plan" ]; then
			point fail "$name: planned $plan results, reported $results"
		elif [ "$rc" = 1 ] && [ "$failed" -eq 0 ]; then
			point fail "$name: exit 1 without a failing result"
		elif [ "$rc" = 0 ] && [ "$failed" -gt 0 ]; then
			point fail "$name: exit 0 despite failures"
		fi
		;;
	*)
		point fail "$name: exited with status $rc" ;;
	esac
	echo "# $name took ${dt}s"

	if [ "$name" != fa_dmesg ]; then
		if out=$(dmesg_since "$mark" | dmesg_scan); then
			point ok "$name: no WARNING/BUG/Call Trace in dmesg during the test"
		else
			point fail "$name: WARNING/BUG/Call Trace in dmesg during the test"
		fi
		echo "$out"
	fi
done

echo "1..$N"
echo "# Totals: pass:$PASS fail:$FAIL skip:$SKIP todo:$TODO ($(($(date +%s) - suite_start))s)"
[ "$FAIL" -eq 0 ]
