#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel log of the whole boot, read at the end of the suite: no
# WARNING, BUG or Call Trace (one TCG emulation artifact excused, see
# lib/dmesg.sh).  Also checks that the module is still listed and that the
# suite's module (when one was given) never tainted the kernel beyond
# out-of-tree/unsigned (O/E).
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
. "$DIR/lib/ktap.sh"
. "$DIR/lib/dmesg.sh"

ktap_plan 2

log=$(dmesg 2>&1)
if out=$(printf '%s\n' "$log" | dmesg_scan); then
	ktap_ok "no WARNING/BUG/Call Trace in the kernel log of the whole boot"
else
	ktap_fail "no WARNING/BUG/Call Trace in the kernel log of the whole boot"
fi
echo "$out"

# Taint bits other than O (4096, out-of-tree), E (8192, unsigned module)
# mean something went wrong: W (512) is a warning, D (128) an oops, ...
taint=$(cat /proc/sys/kernel/tainted)
other=$((taint & ~(4096 | 8192)))
ktap_info "kernel taint: $taint"
if [ "$other" -eq 0 ]; then
	ktap_ok "kernel not tainted beyond out-of-tree/unsigned module (taint=$taint)"
else
	# W alone is allowed when the only warnings were excused above
	if [ "$other" -eq 512 ] && echo "$out" | grep -q '0 problem block(s), [1-9]'; then
		ktap_ok "kernel taint W comes from the excused TCG artifact only (taint=$taint)"
	else
		ktap_fail "kernel tainted: $taint (bits beyond O/E: $other)"
	fi
fi
ktap_finish
