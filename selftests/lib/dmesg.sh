# SPDX-License-Identifier: GPL-2.0
#
# Judging the kernel log (sourced by bash scripts).
#
#   dmesg_lines                  the number of lines the kernel log has now
#   dmesg_since N                the kernel log from line N+1 on
#   dmesg_scan                   reads a kernel log on stdin; prints one "# "
#                                line per problem block and a summary; exits 0
#                                when clean, 1 otherwise
#
# A block starts at "cut here", "WARNING:", "BUG:", "Oops", "general
# protection fault", "UBSAN:", "KASAN:", "Call Trace:" or "kernel BUG" and ends
# at "---[ end trace" (or after 150 lines, or at the end of the log); it is
# judged whole.  One signature alone is excused: a WARNING whose site (the
# "WARNING: CPU: n PID: n at FILE:LINE FUNC+off" line) is exc_debug_kernel,
# which qemu's TCG emulation of debug exceptions produces on 6.12 with no
# module of ours loaded.  An excused block is still reported, as excused.

dmesg_lines() {
	dmesg 2>/dev/null | wc -l
}

dmesg_since() {
	dmesg 2>/dev/null | tail -n +$(($1 + 1))
}

dmesg_scan() {
	awk '
	function strip(s) { sub(/^\[ *[0-9.]+\] /, "", s); return s }
	function start_re(s) {
		return s ~ /cut here|WARNING:|BUG:|Oops|general protection fault|UBSAN:|KASAN:|Call Trace:|kernel BUG/
	}
	function close_block(   excused) {
		if (!inb) return
		excused = (warnline ~ /WARNING: .* exc_debug_kernel\+/ && !hasbug)
		if (excused) {
			nexc++
			printf "# dmesg: excused (TCG emulation artifact, exc_debug_kernel): %s\n", warnline
		} else {
			nbad++
			printf "# dmesg: problem block %d:\n", nbad
			for (i = 1; i <= nl && i <= 14; i++) printf "#   %s\n", lines[i]
			if (nl > 14) printf "#   ... (%d lines)\n", nl
		}
		inb = 0; nl = 0; warnline = ""; hasbug = 0
	}
	{
		s = strip($0)
		if (!inb && start_re(s)) { inb = 1; nl = 0; warnline = ""; hasbug = 0 }
		if (!inb) next
		lines[++nl] = s
		if (s ~ /WARNING:/ && warnline == "") warnline = s
		if (s ~ /BUG:|kernel BUG|Oops|general protection fault|UBSAN:|KASAN:/) hasbug = 1
		if (s ~ /---\[ end trace/ || nl >= 150) close_block()
	}
	END {
		close_block()
		printf "# dmesg: %d problem block(s), %d excused\n", nbad, nexc
		exit nbad ? 1 : 0
	}'
}
