#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# copyout-test.sh - demo.sh from a checkout under /tmp, without a VM.
#
# The VM guest cannot see a checkout under /tmp, /run or /var/tmp, so
# demo.sh copies such a checkout out, runs there and copies the results
# back.  This test copies the working tree to /tmp, seeds guest results in
# the copy-out directory and runs demo.sh --report-only (no VM, no build),
# then checks the refusals: an unwritable copy-out directory (as an
# unprivileged user) and a copy-out directory under /tmp.  Ends with
# "N passed, N failed"; needs root (it writes under /var/lib) and rsync.
set -eu
REPO=$(cd "$(dirname "$0")/../.." && pwd)
KVER=6.1.0-57-amd64
pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
nok() { echo "FAIL: $*"; fail=$((fail + 1)); }
check() { # description command...
	local d=$1
	shift
	if "$@"; then ok "$d"; else nok "$d"; fi
}

[ "$(id -u)" = 0 ] || { echo "copyout-test: needs root (writes under /var/lib)" >&2; exit 2; }
command -v rsync >/dev/null || { echo "copyout-test: rsync missing (tools/deps.sh installs it)" >&2; exit 2; }

T=$(mktemp -d /tmp/fa-copyout.XXXXXX)
V=$(mktemp -d /var/lib/fa-copyout.XXXXXX)
trap 'rm -rf "$T" "$V"' EXIT
chmod 755 "$T"
rsync -a --exclude=/build/ --exclude=/.git/ "$REPO/" "$T/"
C=$V/src
mkdir -p "$T/build"
echo stale > "$T/build/marker"

# 1. no results yet: copied out, then the copy's one-line reason
set +e
out=$(DEMO_COPY_DIR=$C "$T/tools/demo/demo.sh" --report-only 2>"$V/err")
rc=$?
set -e
check "no results: exit 1 (got $rc)" [ "$rc" = 1 ]
check "announces the copy-out" grep -q "running from a copy in $C" <<<"$out"
check "the copy has the tree" cmp -s "$T/tools/demo/demo.sh" "$C/tools/demo/demo.sh"
check "the checkout's build/ is not copied" [ ! -e "$C/build/marker" ]
check "reason names the copy's results folder" grep -q "no results in $C/build/demo/$KVER" "$V/err"

# 2. results in the copy: reported there and copied back to the checkout
R=$C/build/demo/$KVER
mkdir -p "$R"
printf '# path rate_mbit=50 rtt_ms=100 limit=413\n# study files=2 bytes=2097152\n' > "$R/demo.txt"
printf 'alg=cubic cc=cubic start_us=1000000 end_us=2000000 ttlb_s=1.0 link_bytes=5000000 integrity=ok files=2\n' >> "$R/demo.txt"
printf '900000 100000\n1500000 150000\n' > "$R/ping.cubic.log"
set +e
out=$(DEMO_COPY_DIR=$C "$T/tools/demo/demo.sh" --report-only 2>"$V/err")
rc=$?
set -e
check "report from the copy: exit 0 (got $rc)" [ "$rc" = 0 ]
check "results copied back" [ -s "$T/build/demo/$KVER/summary.txt" ]
check "the summary has the row" grep -qE '^cubic +1\.0 s' "$T/build/demo/$KVER/summary.txt"
check "says where they went" grep -q "results copied back to $T/build/demo/$KVER" <<<"$out"

# 3. an unprivileged user cannot copy out: one line, exit 2
set +e
setpriv --reuid=nobody --regid=nogroup --clear-groups \
	env DEMO_COPY_DIR=$V/nope/src "$T/tools/demo/demo.sh" >/dev/null 2>"$V/err"
rc=$?
set -e
check "unwritable copy-out dir: exit 2 (got $rc)" [ "$rc" = 2 ]
check "one line of reason" [ "$(wc -l < "$V/err")" = 1 ]
check "says what to do" grep -q "move the checkout elsewhere" "$V/err"

# 4. a copy-out directory the guest cannot see either
set +e
DEMO_COPY_DIR=$T/x/src "$T/tools/demo/demo.sh" >/dev/null 2>"$V/err"
rc=$?
set -e
check "copy-out dir under /tmp refused: exit 2 (got $rc)" [ "$rc" = 2 ]
check "says why" grep -q "is itself under /tmp" "$V/err"

echo "copyout-test: $pass passed, $fail failed"
[ "$fail" = 0 ]
