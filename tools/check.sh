#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: every test of the project, in order, with one closing line.
#
# Each stage is one result, or as many as its own "N passed, N failed"
# line says (the unit tests, the VM suites, ns-3).  A stage that exits
# non-zero without such a line counts as one failure.  The last line is the
# total: "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
KVERS=${KVERS:-"6.1.0-57-amd64 6.12.117+deb12-amd64"}
export KVERS
mkdir -p build/check
total_pass=0
total_fail=0
summary=""
failed_logs=""

stage() {
	local name=$1 log
	shift
	log=build/check/$(echo "$name" | tr -c 'A-Za-z0-9.\n-' '_').log
	echo "=== $name: $*"
	local t0=$SECONDS rc counts p f
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	counts=$(grep -oE '(^|[^0-9])[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	if [ -n "$counts" ]; then
		p=$(sed -E 's/^[^0-9]?([0-9]+) passed.*/\1/' <<<"$counts")
		f=$(sed -E 's/.* ([0-9]+) failed$/\1/' <<<"$counts")
		if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
			f=1	# it said all passed but still failed
		fi
	elif [ "$rc" = 0 ]; then
		p=1 f=0
	else
		p=0 f=1
	fi
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	[ "$f" = 0 ] || failed_logs="$failed_logs $log"
	summary="$summary$(printf '%-28s %4d passed %4d failed %5ds' "$name" "$p" "$f" $((SECONDS - t0)))\n"
}

# Build warnings are failures: W=1 output must be silent.
build_clean() {
	local v=$1 out
	out=$(make --no-print-directory KVER="$v" modules 2>&1)
	echo "$out"
	if grep -E 'warning:|error:' <<<"$out"; then
		echo "build for $v is not warning-free"
		return 1
	fi
	[ -f "build/$v/tcp_fast_adaptive.ko" ]
}

modinfo_ranges() {
	local v=$1 n
	n=$(/sbin/modinfo "build/$v/tcp_fast_adaptive.ko" |
		grep -cE '^parm: +[a-z_]+:.*\[[0-9]+\.\.[0-9]+, default [0-9]+\]$')
	echo "modinfo: $n tunables with ranges"
	[ "$n" -ge 11 ]
}

stage deps tools/deps.sh
for v in $KVERS; do
	stage "build W=1 $v" build_clean "$v"
	stage "modinfo $v" modinfo_ranges "$v"
done
stage "sparse C=2" make --no-print-directory sparse
stage "checkpatch --strict" tools/checkpatch.sh
stage "glue tunables" tools/check-glue-tunables.sh
stage "unit tests" make --no-print-directory unit
stage "fuzz (UBSan+ASan)" make --no-print-directory fuzz FUZZ_SECONDS=${FUZZ_SECONDS:-60}
if [ -f tools/fastctl/Makefile ]; then
	stage "fastctl tests" make --no-print-directory -C tools/fastctl test
	stage "fastctl fuzz" make --no-print-directory -C tools/fastctl fuzz \
		FUZZ_SECONDS=${FASTCTL_FUZZ_SECONDS:-30}
fi
stage "bench tags" tools/bench/test-tags.sh
stage "bench-ack" make --no-print-directory bench-ack BENCH_ACK_QUICK=1
stage "deb package" tools/deb-test.sh
stage "demo copy-out" tools/demo/copyout-test.sh
# One VM suite; rerun once only when the guest kernel panicked in code that
# is not ours (TCG once double-faulted in the slab allocator on 6.12): the
# first console is kept as build/vmtest/console.first-KVER.log (vmtest.sh
# empties build/vmtest/KVER/ when it starts), its oops is printed, and the
# rerun is announced.
vm_suite() {
	local v=$1 con=build/vmtest/$1/console.log keep=build/vmtest/console.first-$1.log
	selftests/vmtest.sh "$v" && return 0
	if grep -q "Kernel panic" "$con" 2>/dev/null &&
	   ! grep -qE "tcp_fa_|fa_law|\[tcp_fast_adaptive\]" "$con"; then
		cp "$con" "$keep"
		echo "check: the $v guest panicked outside tcp_fast_adaptive" \
			"($(grep -m1 -E 'Oops|BUG' "$con")); its oops (all of it in $keep):"
		grep -m1 -A45 -E 'BUG:|Oops' "$con" | sed 's/^/check:   /'
		echo "check: running the $v suite again"
		selftests/vmtest.sh "$v"
		return
	fi
	return 1
}

if [ -x selftests/vmtest.sh ]; then
	for v in $KVERS; do
		stage "VM selftests $v" vm_suite "$v"
	done
fi
if [ -f sim/Makefile ]; then
	stage "ns-3 check" make --no-print-directory -C sim check
fi

# A CI record keeps only the end of the output: repeat, just above the
# summary, the lines that say why each failed stage failed.
for log in $failed_logs; do
	echo
	echo "=== failed: $log (its failures, then its last lines)"
	grep -E '^not ok|FAIL|ERROR|error:|deadly|runtime error|SUMMARY|panic' "$log" |
		grep -v '# TODO' | tail -n 15
	echo "---"
	tail -n 15 "$log"
done
echo
echo "=== summary"
printf '%b' "$summary"
echo "check: $total_pass passed, $total_fail failed"
[ "$total_fail" = 0 ]
