# SPDX-License-Identifier: GPL-2.0
#
# The module under test and its interfaces (sourced by bash scripts).
#
# FA_CC is the congestion control under test (default fast_adaptive); with
# any other (e.g. vegas, to prove the rig) the tests that need fast_adaptive's
# own interfaces (tunables, tracepoints) skip.  FA_MODULE is the .ko to
# insmod (default: modprobe tcp_$FA_CC).  FA_BIN holds the C helpers.

FA_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FA_REPO=$(cd "$FA_LIB_DIR/../.." && pwd)
FA_CC=${FA_CC:-fast_adaptive}
FA_MODNAME=tcp_$FA_CC
FA_BIN=${FA_BIN:-$FA_REPO/build/selftests}
if [ -z "${FA_MODULE+x}" ] && [ "$FA_CC" = fast_adaptive ]; then
	FA_MODULE=$FA_REPO/build/$(uname -r)/tcp_fast_adaptive.ko
fi
FA_MODULE=${FA_MODULE:-}
FA_RESULTS=${FA_RESULTS:-/tmp}
FA_PARAMS=/sys/module/tcp_fast_adaptive/parameters
FA_TRACE=/sys/kernel/tracing

FA_XFER=$FA_BIN/fa_xfer
FA_UTIL=$FA_BIN/fa_util
FA_DIAG=$FA_BIN/fa_diag
FA_REPLAY=$FA_BIN/fa_replay

fa_is_ours() {
	[ "$FA_CC" = fast_adaptive ]
}

fa_need_helpers() {
	local h
	for h in "$FA_XFER" "$FA_UTIL" "$FA_DIAG" "$FA_REPLAY"; do
		if [ ! -x "$h" ]; then
			echo "# missing helper $h: run make -C selftests" >&2
			return 1
		fi
	done
}

fa_loaded() {
	[ -d "/sys/module/$FA_MODNAME" ]
}

fa_available() {
	grep -qw "$FA_CC" /proc/sys/net/ipv4/tcp_available_congestion_control
}

# Load the module under test (the built .ko, or the kernel's own module).
fa_load() {
	fa_loaded && return 0
	if [ -n "$FA_MODULE" ]; then
		insmod "$FA_MODULE"
	else
		modprobe "$FA_MODNAME"
	fi
}

# Unload it, retrying while closing sockets and dying namespaces let go.
fa_unload() {
	local i
	for i in $(seq 1 50); do
		fa_loaded || return 0
		rmmod "$FA_MODNAME" 2>/dev/null && return 0
		sleep 0.2
	done
	rmmod "$FA_MODNAME"
}

# "name default min max" for each tunable, from fa_param_descs[] of
# include/fast_adaptive/fa_params.h (compiled into fa_replay).
fa_param_table() {
	"$FA_REPLAY" -P
}

fa_param_get() {
	local v
	read -r v < "$FA_PARAMS/$1" && echo "$v"
}

# Prints "ok" or the errno name; status 0 when the write succeeded.
fa_param_set() {
	"$FA_UTIL" write "$FA_PARAMS/$1" "$2"
}

# Record fast_adaptive's tracepoints with CLOCK_MONOTONIC time stamps (the
# clock of fa_xfer's samples).
fa_trace_start() {
	echo 0 > "$FA_TRACE/tracing_on"
	echo 0 > "$FA_TRACE/events/enable"
	echo mono > "$FA_TRACE/trace_clock"
	echo 8192 > "$FA_TRACE/buffer_size_kb"
	: > "$FA_TRACE/trace"
	echo 1 > "$FA_TRACE/events/fast_adaptive/enable"
	echo 1 > "$FA_TRACE/tracing_on"
}

fa_trace_stop() { # FILE
	echo 0 > "$FA_TRACE/tracing_on"
	echo 0 > "$FA_TRACE/events/fast_adaptive/enable"
	cat "$FA_TRACE/trace" > "$1"
}

fa_trace_available() {
	[ -d "$FA_TRACE/events/fast_adaptive/update" ] &&
		[ -d "$FA_TRACE/events/fast_adaptive/ss_exit" ]
}

# fa_modtree_build ROOT KVER: a module tree of kernel KVER under
# ROOT/lib/modules/KVER holding kernel/net/ipv4 and the dependencies of its
# modules (per the installed modules.dep) and the modules.builtin files, for
# an install + depmod test that does not have to scan thousands of modules.
fa_modtree_build() {
	local root=$1 kver=$2 src=/lib/modules/$2 dst f
	dst=$root/lib/modules/$kver
	rm -rf "$root"
	mkdir -p "$dst"
	for f in modules.builtin modules.builtin.modinfo modules.builtin.alias.bin modules.order; do
		[ -e "$src/$f" ] && cp "$src/$f" "$dst/"
	done
	# one cp for all of them: every exec costs ~0.1 s in the TCG guest
	(cd "$src" && awk '{ sub(/:$/, "", $1) } $1 ~ /^kernel\/net\/ipv4\// { for (i = 1; i <= NF; i++) print $i }' \
		modules.dep | sort -u | xargs cp --parents -t "$dst")
}
