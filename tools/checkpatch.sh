#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the kernel's checkpatch.pl --strict over every file compiled into the
# module.  checkpatch.pl comes from Debian's linux-source-6.1, extracted (not
# vendored) into build/checkpatch on first use.
#
# Three per-file exemptions, each for a construct checkpatch cannot judge:
#  - tcp_fast_adaptive_trace.h: TRACE_EVENT()'s standard layout, as in
#    include/trace/events/*.h, is "open-ended" and "misaligned" to it;
#  - fa_compat.h exists to test LINUX_VERSION_CODE (out-of-tree only);
#  - fa_types.h's userspace branch defines the kernel types from stdint.
# fa_params_table.h is an X-macro for userspace/ns-3 and never reaches the
# kernel, so it is not checked.
set -eu
cd "$(dirname "$0")/.."
src=/usr/src/linux-source-6.1.tar.xz
dir=build/checkpatch
cp=$dir/linux-source-6.1/scripts/checkpatch.pl
if [ ! -x "$cp" ]; then
	if [ ! -f "$src" ]; then
		echo "checkpatch: $src missing (apt-get install linux-source-6.1)" >&2
		exit 2
	fi
	mkdir -p "$dir"
	tar -C "$dir" -xJf "$src" linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
fi

fail=0
run() {
	local ignore=$1 f=$2 out
	if ! out=$("$cp" --strict --no-tree --show-types --max-line-length=100 \
			--ignore "FILE_PATH_CHANGES$ignore" -f "$f" 2>&1) ||
	   ! grep -q "total: 0 errors, 0 warnings, 0 checks" <<<"$out"; then
		echo "$out"
		fail=1
	else
		echo "checkpatch --strict: $f clean"
	fi
}
run "" tcp_fast_adaptive.c
run ",OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT" tcp_fast_adaptive_trace.h
run ",LINUX_VERSION_CODE" include/fast_adaptive/fa_compat.h
run ",PREFER_KERNEL_TYPES" include/fast_adaptive/fa_types.h
for f in include/fast_adaptive/fa_law.h include/fast_adaptive/fa_params.h \
	 include/uapi/linux/tcp_fast_adaptive.h; do
	run "" "$f"
done
exit $fail
