#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vmtest.sh - run the fast_adaptive selftests in a VM on a given kernel.
#
#   selftests/vmtest.sh [-t SECONDS] KVER [TEST...]
#
# Boots /boot/vmlinuz-KVER under qemu-system-x86_64 with TCG (KVM does not
# boot the Debian kernels on this kind of machine), with a busybox initramfs
# that loads the virtio/9p modules, mounts the host root read-only over 9p
# and switch_roots into it.  The guest gets its own tmpfs for /tmp /run
# /var/tmp and a read-write 9p share for results (build/vmtest/KVER/), runs
# selftests/run_suite.sh (all tests, or the TESTs named: fa_export or
# fa_export.sh) and powers off.  The TAP stream is printed as it arrives.
#
# Exit status: 0 when the suite passed; 1 when a test failed, the TAP stream
# has no plan or fewer results than its plan, the guest did not report a
# status, or the VM hit the timeout (qemu's own exit code is never trusted);
# 2 for a usage error or a missing kernel, tool or module.
#
# Environment:
#   VMTEST_TIMEOUT  seconds for the whole VM run (default 900; -t overrides)
#   VMTEST_CC       congestion control under test (default fast_adaptive;
#                   e.g. vegas to prove the rig without the module: the
#                   module-specific tests then skip)
#   VMTEST_MODULE   module to load (default build/KVER/tcp_fast_adaptive.ko)
#   VMTEST_SMP, VMTEST_MEM   guest CPUs (default 2) and memory (default 2048 MiB)
#   VMTEST_QEMU     qemu binary (default qemu-system-x86_64)
#   FA_STRICT_BARS  0: performance bars are reported as TAP TODO instead of
#                   failing the suite (default 1; see lib/ktap.sh)
#   VMTEST_CPU      qemu CPU model (default max,cx16=off: see lib/vmboot.sh)
#   FA_STRESS       1: the long forms of the stress tests (make stress)
#   FA_TEST_TIMEOUT seconds per test in the guest (default: settings)

# The whole script is one brace group, so bash reads it all before running
# it: editing vmtest.sh while a VM runs cannot derail the run.
{
set -eu
set -o pipefail

SELF_DIR=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$SELF_DIR/.." && pwd)
BUILD=$REPO/build

usage() {
	sed -n '4,8p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

err() {
	echo "vmtest: $*" >&2
}

missing() {
	err "$*"
	exit 2
}

timeout_s=${VMTEST_TIMEOUT:-900}
while getopts "t:h" opt; do
	case $opt in
	t) timeout_s=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
KVER=$1
shift
TESTS="$*"
case $timeout_s in
'' | *[!0-9]*) missing "timeout must be a number of seconds, got '$timeout_s'" ;;
esac

# The guest mounts its own tmpfs and pseudo file systems over these.
case $REPO/ in
/tmp/* | /run/* | /var/tmp/* | /proc/* | /sys/* | /dev/*)
	missing "the checkout $REPO cannot be seen by the VM guest, which mounts its own" \
		"tmpfs and pseudo file systems on /tmp, /run, /var/tmp, /proc, /sys and /dev:" \
		"copy it out and run from the copy (.ci/run does: rsync -a $REPO/" \
		"/var/lib/fast_adaptive-ci/src/), or move it elsewhere" ;;
esac

CC_UNDER_TEST=${VMTEST_CC:-fast_adaptive}
QEMU=${VMTEST_QEMU:-qemu-system-x86_64}
# shellcheck source=lib/vmboot.sh
. "$SELF_DIR/lib/vmboot.sh"
CPU=${VMTEST_CPU:-$VMBOOT_CPU_DEFAULT}
SMP=${VMTEST_SMP:-2}
MEM=${VMTEST_MEM:-2048}

# --- what must exist --------------------------------------------------------

KERNEL=/boot/vmlinuz-$KVER
MODDIR=/lib/modules/$KVER
[ -r "$KERNEL" ] ||
	missing "kernel $KVER is missing: no readable $KERNEL (apt-get install linux-image-$KVER)"
[ -r "$MODDIR/modules.dep" ] ||
	missing "modules of $KVER are missing: no $MODDIR/modules.dep (apt-get install linux-image-$KVER)"

need_tool() { # tool package
	command -v "$1" >/dev/null 2>&1 ||
		missing "'$1' not found: install package $2 (selftests/deps.sh installs everything)"
}
need_tool "$QEMU" qemu-system-x86
need_tool busybox busybox-static
need_tool xz xz-utils
need_tool make make
need_tool cc gcc
# Used inside the guest, which runs on the host's root file system:
need_tool ip iproute2
need_tool tc iproute2
need_tool ethtool ethtool
need_tool setpriv util-linux
need_tool depmod kmod
need_tool timeout coreutils
need_tool awk mawk

BUSYBOX=$(command -v busybox)
if ! "$BUSYBOX" --list 2>/dev/null | grep -qx switch_root; then
	missing "$BUSYBOX has no switch_root applet: install busybox-static"
fi
if command -v ldd >/dev/null 2>&1 && ldd "$BUSYBOX" >/dev/null 2>&1; then
	missing "$BUSYBOX is dynamically linked: install busybox-static"
fi

MODULE=${VMTEST_MODULE:-$BUILD/$KVER/tcp_fast_adaptive.ko}
if [ "$CC_UNDER_TEST" = fast_adaptive ]; then
	[ -r "$MODULE" ] ||
		missing "module not built for $KVER: no $MODULE (run: make KVER=$KVER)"
	MODULE=$(cd "$(dirname "$MODULE")" && pwd)/$(basename "$MODULE")
else
	MODULE=
fi

# --- the userspace helpers (run in the guest from the host root) ------------

make -s -C "$SELF_DIR" OUTPUT="$BUILD/selftests" all >&2 ||
	missing "building the selftest helpers failed"
# fa_fastctl.sh runs tools/fastctl from the read-only host root
make -s -C "$REPO/tools/fastctl" all >&2 ||
	missing "building tools/fastctl failed"

# --- the initramfs (cached per kernel) --------------------------------------

VMDIR=$BUILD/vmtest
mkdir -p "$VMDIR"
INITRD=$VMDIR/initramfs-$KVER.cpio
INIT_SCRIPT=$SELF_DIR/lib/initramfs-init

# Print module paths (relative to $MODDIR) for the named modules, each after
# its dependencies, once; built-in modules are left out.
mod_closure() {
	awk -v want="$*" '
	function base(p,   b) { b = p; sub(/.*\//, "", b); sub(/\.ko(\.xz|\.zst|\.gz)?$/, "", b); gsub(/-/, "_", b); return b }
	function visit(n,   i, k, d) {
		if (n in done) return
		done[n] = 1
		if (!(n in path)) {
			if (n in builtin) return
			print "MISSING " n; return
		}
		k = split(deps[n], d, " ")
		for (i = k; i >= 1; i--) visit(base(d[i]))
		print path[n]
	}
	FILENAME ~ /modules\.builtin$/ { builtin[base($1)] = 1; next }
	{
		p = $1; sub(/:$/, "", p); n = base(p)
		path[n] = p; $1 = ""; deps[n] = $0
	}
	END {
		k = split(want, w, " ")
		for (i = 1; i <= k; i++) { m = w[i]; gsub(/-/, "_", m); visit(m) }
	}' "$MODDIR/modules.builtin" "$MODDIR/modules.dep"
}

build_initramfs() {
	local stage mods m b
	stage=$(mktemp -d "$VMDIR/initramfs.XXXXXX")
	mkdir -p "$stage"/{bin,dev,proc,sys,modules,newroot}
	cp "$BUSYBOX" "$stage/bin/busybox"
	for b in sh mount umount insmod switch_root mkdir cat poweroff sleep echo ls; do
		ln -s busybox "$stage/bin/$b"
	done
	# /dev/console for init's stdio (the kernel's built-in archive has one too)
	mknod "$stage/dev/console" c 5 1 2>/dev/null || true
	cp "$INIT_SCRIPT" "$stage/init"
	chmod 755 "$stage/init"
	echo "$SELF_DIR/lib/guest-init" > "$stage/guest-init.path"

	mods=$(mod_closure virtio_pci 9pnet_virtio 9p)
	if echo "$mods" | grep -q '^MISSING'; then
		rm -rf "$stage"
		missing "kernel $KVER lacks modules needed to boot the VM:" \
			"$(echo "$mods" | sed -n 's/^MISSING //p' | tr '\n' ' ')"
	fi
	: > "$stage/modules.order"
	for m in $mods; do
		b=$(basename "$m")
		case $b in
		*.ko.xz) xz -dc "$MODDIR/$m" > "$stage/modules/${b%.xz}"; b=${b%.xz} ;;
		*.ko.gz) gzip -dc "$MODDIR/$m" > "$stage/modules/${b%.gz}"; b=${b%.gz} ;;
		*.ko.zst) zstd -qdc "$MODDIR/$m" > "$stage/modules/${b%.zst}"; b=${b%.zst} ;;
		*) cp "$MODDIR/$m" "$stage/modules/$b" ;;
		esac
		echo "$b" >> "$stage/modules.order"
	done
	(cd "$stage" && find . | LC_ALL=C sort | "$BUSYBOX" cpio -o -H newc 2>/dev/null) \
		> "$INITRD.tmp"
	mv "$INITRD.tmp" "$INITRD"
	rm -rf "$stage"
}

initrd_stale() {
	local f
	[ -s "$INITRD" ] || return 0
	for f in "$INIT_SCRIPT" "$0" "$BUSYBOX" "$MODDIR/modules.dep"; do
		[ "$f" -nt "$INITRD" ] && return 0
	done
	# the guest-init path is baked in: a moved checkout needs a rebuild
	"$BUSYBOX" cpio -i --to-stdout guest-init.path < "$INITRD" 2>/dev/null |
		grep -qxF "$SELF_DIR/lib/guest-init" || return 0
	return 1
}

if initrd_stale; then
	echo "# vmtest: building initramfs for $KVER" >&2
	build_initramfs
fi

# --- the run ----------------------------------------------------------------

RES=$VMDIR/$KVER
rm -rf "$RES"
mkdir -p "$RES"
: > "$RES/tap.txt"
{
	echo "VMTEST_KVER='$KVER'"
	echo "VMTEST_REPO='$REPO'"
	echo "VMTEST_TESTS='$TESTS'"
	echo "FA_CC='$CC_UNDER_TEST'"
	echo "FA_MODULE='$MODULE'"
	echo "FA_BIN='$BUILD/selftests'"
	echo "FA_RESULTS='/run/vmtest/results'"
	echo "FA_STRICT_BARS='${FA_STRICT_BARS:-1}'"
	echo "FA_STRESS='${FA_STRESS:-0}'"
	echo "FA_TEST_TIMEOUT='${FA_TEST_TIMEOUT:-}'"
	echo "export FA_CC FA_MODULE FA_BIN FA_RESULTS FA_STRICT_BARS FA_STRESS"
	[ -z "${FA_TEST_TIMEOUT:-}" ] || echo "export FA_TEST_TIMEOUT"
} > "$RES/job.env"

CONSOLE=$RES/console.log
echo "# vmtest: booting $KVER under TCG (cpu $CPU, smp $SMP, ${MEM} MiB, timeout ${timeout_s}s)" >&2

# TCG timing follows the host's CPU: say how busy the host was.
hostload() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null; }
load0=$(hostload)
vm_boot "$KERNEL" "$INITRD" "$RES" "$timeout_s" 1
qrc=$VM_RC elapsed=$VM_ELAPSED
echo "# vmtest: host load average $load0 at the start, $(hostload) at the end ($(nproc) CPUs)"

# --- the verdict --------------------------------------------------------------

fail() {
	err "$KVER: $*"
	if [ -s "$RES/guest-errors.txt" ]; then
		sed 's/^/vmtest: /' "$RES/guest-errors.txt" >&2
	fi
	echo "vmtest: last lines of the console ($CONSOLE):" >&2
	tail -n 30 "$CONSOLE" 2>/dev/null | sed 's/^/  | /' >&2
	if [ -s "$RES/qemu.log" ]; then
		echo "vmtest: qemu said:" >&2
		sed 's/^/  | /' "$RES/qemu.log" >&2
	fi
	exit 1
}

if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
	fail "TIMEOUT: the VM ran longer than ${timeout_s}s and was killed"
fi
plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' "$RES/tap.txt" | tail -n 1)
[ -n "$plan" ] || fail "no TAP plan in $RES/tap.txt (qemu exit $qrc after ${elapsed}s)"
[ -s "$RES/status" ] || fail "the guest reported no status (qemu exit $qrc after ${elapsed}s)"
status=$(cat "$RES/status")
npass=$(grep -cE '^ok [0-9]+' "$RES/tap.txt" || true)
nskip=$(grep -cE '^ok [0-9]+.*# *SKIP' "$RES/tap.txt" || true)
nfail=$(grep -cE '^not ok [0-9]+' "$RES/tap.txt" || true)
# TAP TODO results (performance bars, see lib/ktap.sh) are reported apart
ntodo=$(grep -cE '^(not )?ok [0-9]+.*# TODO' "$RES/tap.txt" || true)
ntodo_fail=$(grep -cE '^not ok [0-9]+.*# TODO' "$RES/tap.txt" || true)
npass=$((npass - nskip - (ntodo - ntodo_fail)))
nfail=$((nfail - ntodo_fail))
total=$((npass + nskip + nfail + ntodo))

echo "# vmtest $KVER: $npass passed, $nfail failed, $nskip skipped, $ntodo todo" \
	"(plan 1..$plan, suite status $status, ${elapsed}s)"
if [ "$total" -ne "$plan" ]; then
	fail "TAP plan 1..$plan but $total results"
fi
if [ "$nfail" -ne 0 ] || [ "$status" != 0 ]; then
	exit 1
fi
exit 0
}
