#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Registration and selection of the congestion control:
#  - it is listed in tcp_available_congestion_control once loaded, and in
#    tcp_allowed_congestion_control (TCP_CONG_NON_RESTRICTED);
#  - the sysctl default selects it for new connections (in a namespace);
#  - an unprivileged user (nobody) may select it with setsockopt(TCP_CONGESTION)
#    while a restricted one is refused to the same user (EPERM);
#  - a route's congctl selects it for connections over that route;
#  - installed under /lib/modules/$(uname -r)/extra and depmod'ed, it loads
#    on first use (setsockopt by root, and the sysctl).  The install goes to
#    a small tmpfs module tree bound on /lib/modules/$(uname -r) for this test
#    (a full depmod over 9p takes minutes under TCG).
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
. "$DIR/lib/ktap.sh"
. "$DIR/lib/fa.sh"
. "$DIR/lib/net.sh"

W=$FA_RESULTS/registration
mkdir -p "$W"
ktap_plan 9
fa_need_helpers || exit 4
orig_default=$(cat /proc/sys/net/ipv4/tcp_congestion_control)
cleanup() {
	sysctl -qw net.ipv4.tcp_congestion_control="$orig_default"
	net_teardown
	kill $(jobs -p) 2>/dev/null
	rm -f /tmp/fa_util.nobody
	if mountpoint -q "/lib/modules/$(uname -r)"; then
		umount "/lib/modules/$(uname -r)"
	fi
}
trap cleanup EXIT

# --- registration ---------------------------------------------------------------

fa_load
ktap_result $? "$FA_MODNAME loads (${FA_MODULE:-modprobe})"
avail=$(cat /proc/sys/net/ipv4/tcp_available_congestion_control)
ktap_info "available: $avail"
if fa_available; then
	ktap_ok "$FA_CC is listed in tcp_available_congestion_control"
else
	ktap_fail "$FA_CC is listed in tcp_available_congestion_control"
fi
allowed=$(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)
ktap_info "allowed: $allowed"
if fa_is_ours; then
	if echo " $allowed " | grep -q " $FA_CC "; then
		ktap_ok "$FA_CC is in tcp_allowed_congestion_control (non-restricted)"
	else
		ktap_fail "$FA_CC is in tcp_allowed_congestion_control (non-restricted)"
	fi
else
	ktap_skip "$FA_CC is in tcp_allowed_congestion_control" "only fast_adaptive is non-restricted"
fi

# --- selection: sysctl default, unprivileged setsockopt, route congctl -----------

net_setup || { ktap_info "network setup failed"; exit 1; }
net_return delay 2ms limit 10000

if fa_is_ours; then
	in_snd sysctl -qw net.ipv4.tcp_congestion_control="$FA_CC"
	net_recv 6001 1 "$W/default.recv" || exit 1
	out=$(in_snd "$FA_XFER" send -c "$RCV_IP" -p 6001 -n 100000 2>&1)
	wait "$NET_RECV_PID"
	ktap_info "sysctl default in $NS_SND: $out"
	if echo "$out" | grep -q "^send cc=$FA_CC "; then
		ktap_ok "net.ipv4.tcp_congestion_control=$FA_CC selects it for a new connection"
	else
		ktap_fail "net.ipv4.tcp_congestion_control=$FA_CC selects it for a new connection"
	fi
else
	# (and on 6.1 the refused write leaks a module reference)
	ktap_skip "sysctl default in a namespace" "a namespace may only default to a non-restricted cc"
fi
in_snd sysctl -qw net.ipv4.tcp_congestion_control=cubic

# nobody, with no capabilities; the helper copied to tmpfs so that nobody
# can execute it whatever the permissions of the checkout's directories.
cp "$FA_UTIL" /tmp/fa_util.nobody
chmod 755 /tmp/fa_util.nobody
nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		--bounding-set=-all /tmp/fa_util.nobody "$@"
}
out=$(nobody cc "$FA_CC" 2>&1)
ktap_info "as nobody: setsockopt(TCP_CONGESTION, $FA_CC): $out"
if fa_is_ours; then
	if echo "$out" | grep -q "^cc=$FA_CC uid=65534$"; then
		ktap_ok "setsockopt(TCP_CONGESTION, $FA_CC) works for an unprivileged user"
	else
		ktap_fail "setsockopt(TCP_CONGESTION, $FA_CC) works for an unprivileged user"
	fi
else
	ktap_skip "setsockopt(TCP_CONGESTION) by an unprivileged user" "$FA_CC is restricted"
fi
ctl=vegas	# restricted (bbr is not: it sets TCP_CONG_NON_RESTRICTED itself)
[ "$FA_CC" = vegas ] && ctl=htcp
modprobe "tcp_$ctl" 2>/dev/null
out=$(nobody cc "$ctl" 2>&1)
ktap_info "as nobody: setsockopt(TCP_CONGESTION, $ctl): $out"
if echo "$out" | grep -q "EPERM uid=65534"; then
	ktap_ok "control: the same user is refused the restricted $ctl (EPERM), so the check above ran unprivileged"
else
	ktap_fail "control: the same user is refused the restricted $ctl (EPERM)"
fi

in_snd ip route add "$RCV_IP/32" via "$RTR_SND_IP" congctl "$FA_CC"
ktap_info "route: $(in_snd ip route show "$RCV_IP/32")"
net_recv 6002 1 "$W/route.recv" || exit 1
out=$(in_snd "$FA_XFER" send -c "$RCV_IP" -p 6002 -n 100000 2>&1)
wait "$NET_RECV_PID"
ktap_info "over the congctl route (namespace default cubic): $out"
if echo "$out" | grep -q "^send cc=$FA_CC "; then
	ktap_ok "ip route ... congctl $FA_CC selects it"
else
	ktap_fail "ip route ... congctl $FA_CC selects it"
fi
net_teardown

# --- autoload from /lib/modules/.../extra -------------------------------------------

kver=$(uname -r)
T=/run/fa_modtree
fa_unload || ktap_info "cannot unload $FA_MODNAME before the autoload test"
ktap_info "${SECONDS}s: autoload test"
if [ -n "$FA_MODULE" ]; then
	# The guest's /lib/modules is the host's, read-only over 9p, and a full
	# depmod of it takes minutes under TCG (6.12's modules are .ko.xz).  So
	# the install goes to a tmpfs module tree of this kernel holding
	# kernel/net/ipv4 (with dependencies), the modules.builtin files and
	# extra/, bind-mounted on /lib/modules/$kver for this test only.
	rc=0
	fa_modtree_build "$T" "$kver" &&
		mkdir -p "$T/lib/modules/$kver/extra" &&
		cp "$FA_MODULE" "$T/lib/modules/$kver/extra/" &&
		mount --bind "$T/lib/modules/$kver" "/lib/modules/$kver" &&
		depmod -a "$kver" || rc=1
	ktap_info "${SECONDS}s: module tree of $(find "/lib/modules/$kver" -name '*.ko*' | wc -l) modules, depmod done"
	where=$(modinfo -n "$FA_MODNAME" 2>&1)
	ktap_info "modinfo -n $FA_MODNAME: $where"
	[ $rc -eq 0 ] && [ "$where" = "/lib/modules/$kver/extra/$FA_MODNAME.ko" ]
	ktap_result $? "installed under /lib/modules/$kver/extra, depmod finds it"
else
	ktap_skip "installed under extra/" "$FA_MODNAME comes with the kernel"
fi
a1=no
a2=no
out=$(fa_loaded && echo "still loaded"; "$FA_UTIL" cc "$FA_CC" 2>&1)
ktap_info "root setsockopt with the module unloaded: $out"
fa_loaded && echo "$out" | grep -q "^cc=$FA_CC " && a1=yes
if fa_unload; then
	sysctl -qw net.ipv4.tcp_congestion_control="$FA_CC" &&
		fa_loaded &&
		[ "$(cat /proc/sys/net/ipv4/tcp_congestion_control)" = "$FA_CC" ] && a2=yes
	sysctl -qw net.ipv4.tcp_congestion_control="$orig_default"
fi
if [ $a1 = yes ] && [ "$a2" = yes ]; then
	ktap_ok "autoloads on first use (setsockopt by root; sysctl default)"
else
	ktap_fail "autoloads on first use (setsockopt: $a1; sysctl: $a2)"
fi
if [ -n "$FA_MODULE" ]; then
	umount "/lib/modules/$kver" 2>/dev/null
	rm -rf "$T"
fi
ktap_info "${SECONDS}s: autoload test done"
fa_load
ktap_finish
