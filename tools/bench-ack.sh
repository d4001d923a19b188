#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-ack.sh - make bench-ack: CPU cost of the law's per-ACK path.
#
#   tools/bench-ack.sh BENCH_ACK_BINARY [--quick]
#
# Runs tests/bench_ack.c's binary (ns per ACK of fast_adaptive's per-ACK
# path and of a Reno-style update, best of several replays of one recorded
# trace; --quick: a shorter trace and fewer replays, for make check), then
# counts the instructions per ACK of each under valgrind's callgrind, which
# is deterministic.  Checks only what must hold on any machine: every time
# positive and finite, and the law's instructions per ACK below
# LAW_INSN_MAX (150; measured 68.9 on law de0769f, 80.1 on eba55ef; see
# README "Packaging and CPU cost").  Ends with "bench-ack: N passed, N failed".
set -eu
LAW_INSN_MAX=${LAW_INSN_MAX:-150}
CG_ACKS=100000

[ $# -ge 1 ] || { echo "usage: $0 BENCH_ACK_BINARY [--quick]" >&2; exit 2; }
bin=$1
args=""
[ "${2:-}" = --quick ] && args="-n 262144 -r 6"
[ -x "$bin" ] || { echo "bench-ack: $bin is not built (make bench-ack)" >&2; exit 2; }
command -v valgrind >/dev/null 2>&1 ||
	{ echo "bench-ack: valgrind missing (tools/deps.sh installs it)" >&2; exit 2; }

pass=0 fail=0
check() { # description condition...
	local d=$1
	shift
	if "$@"; then
		echo "ok: $d"
		pass=$((pass + 1))
	else
		echo "FAIL: $d"
		fail=$((fail + 1))
	fi
}
# a positive, finite decimal number
positive() { [[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]] && awk -v v="$1" 'BEGIN { exit !(v > 0) }'; }

# shellcheck disable=SC2086
out=$("$bin" $args)
echo "$out"
line=$(grep '^ns_per_ack ' <<<"$out" || true)
kv() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" ${line#ns_per_ack}"; }
law=$(kv law) reno=$(kv reno) ratio=$(kv ratio)
check "law ns per ACK is a positive number ($law)" positive "$law"
check "reno ns per ACK is a positive number ($reno)" positive "$reno"
check "ratio law/reno is a positive number ($ratio)" positive "$ratio"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ipa() { # step: instructions per ACK of one replay, or "" on failure
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1" \
		--toggle-collect=replay "$bin" -n $CG_ACKS -o "$1" >/dev/null 2>"$tmp/vg.$1" ||
		{ sed 's/^/  | /' "$tmp/vg.$1" >&2; return 0; }
	awk -v n=$CG_ACKS '/^summary:/ { printf "%.1f", $2 / n }' "$tmp/cg.$1"
}
law_i=$(ipa law)
reno_i=$(ipa reno)
loop_i=$(ipa none)
echo "instructions_per_ack law=$law_i reno=$reno_i loop=$loop_i (callgrind, $CG_ACKS ACKs; loop: the replay and call alone, included in both)"
check "law instructions per ACK counted ($law_i)" positive "${law_i:-x}"
check "reno instructions per ACK counted ($reno_i)" positive "${reno_i:-x}"
check "law instructions per ACK below $LAW_INSN_MAX ($law_i)" \
	awk -v v="${law_i:-1e9}" -v m="$LAW_INSN_MAX" 'BEGIN { exit !(v < m) }'

echo "bench-ack: $pass passed, $fail failed"
[ "$fail" = 0 ]
