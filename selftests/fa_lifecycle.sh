#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Module lifecycle:
#  - while a connection uses the congestion control, unloading fails: the
#    delete_module syscall answers EAGAIN (what the kernel returns for a module
#    in use; EBUSY is accepted too) and kmod's rmmod refuses; the module stays
#    and the connection completes intact;
#  - once the socket is closed, rmmod succeeds;
#  - 100 load/unload cycles (finit_module + delete_module, with the
#    congestion control listed after each load and gone after each unload);
#  - after them the module loads and carries a connection again.
# The kernel log is judged after this test by run_suite.sh.
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
. "$DIR/lib/ktap.sh"
. "$DIR/lib/fa.sh"
. "$DIR/lib/net.sh"

W=$FA_RESULTS/lifecycle
mkdir -p "$W"
CYCLES=100
ktap_plan 6
fa_need_helpers || exit 4
trap 'net_teardown; kill $(jobs -p) 2>/dev/null' EXIT

fa_load || { ktap_info "cannot load $FA_MODNAME"; exit 1; }
net_setup || { ktap_info "network setup failed"; exit 1; }
net_bottleneck rate 50mbit limit 400
net_return delay 10ms limit 10000

# --- unload refused while in use --------------------------------------------------

net_recv 6101 1 "$W/busy.recv" || exit 1
in_snd "$FA_XFER" send -c "$RCV_IP" -p 6101 -C "$FA_CC" -t 5 > "$W/busy.send" 2>&1 &
spid=$!
sleep 2
refcnt=$(cat "/sys/module/$FA_MODNAME/refcnt" 2>/dev/null)
r=$("$FA_UTIL" delmod "$FA_MODNAME")
rm_out=$(rmmod "$FA_MODNAME" 2>&1)
rm_rc=$?
loaded=no
fa_loaded && loaded=yes
ktap_info "refcnt $refcnt during the transfer; delete_module: $r; rmmod (exit $rm_rc): $rm_out"
case $r in
EAGAIN | EBUSY) ktap_ok "delete_module while a connection uses it fails with $r" ;;
*) ktap_fail "delete_module while a connection uses it fails (got $r)" ;;
esac
[ $rm_rc -ne 0 ] && [ $loaded = yes ]
ktap_result $? "rmmod refuses while in use and the module stays loaded"
wait $spid
wait "$NET_RECV_PID"
s=$(grep '^send ' "$W/busy.send")
rv=$(grep '^recv ' "$W/busy.recv")
ktap_info "$s"
ktap_info "$rv"
sb=$(echo "$s" | sed -n 's/.* bytes=\([0-9]*\) fnv64=\([0-9a-f]*\).*/\1 \2/p')
rb=$(echo "$rv" | sed -n 's/.* bytes=\([0-9]*\) fnv64=\([0-9a-f]*\).*/\1 \2/p')
[ -n "$sb" ] && [ "$sb" = "$rb" ] && echo "$s" | grep -q "cc=$FA_CC "
ktap_result $? "the connection completes intact (bytes and checksum equal at both ends)"

# --- unload after close ------------------------------------------------------------

t0=$SECONDS
fa_unload
rc=$?
ktap_result $rc "rmmod succeeds once the socket is closed (after $((SECONDS - t0)) s)"

# --- load/unload cycles ------------------------------------------------------------

ko=$FA_MODULE
if [ -z "$ko" ]; then
	ko=$(modinfo -n "$FA_MODNAME")
	case $ko in *.xz) xz -dc "$ko" > "/tmp/$FA_MODNAME.ko"; ko=/tmp/$FA_MODNAME.ko ;; esac
	modprobe --show-depends "$FA_MODNAME" | grep -v "/$FA_MODNAME\.ko" | sh
fi
t0=$SECONDS
out=$("$FA_UTIL" cycle "$ko" "$FA_MODNAME" "$FA_CC" $CYCLES)
ktap_info "$out in $((SECONDS - t0)) s"
[ "$out" = "cycles=$CYCLES" ]
ktap_result $? "$CYCLES load/unload cycles"

# --- usable after the cycles ----------------------------------------------------------

fa_load
net_recv 6102 1 "$W/after.recv" || exit 1
s=$(in_snd "$FA_XFER" send -c "$RCV_IP" -p 6102 -C "$FA_CC" -n 2000000 2>&1)
wait "$NET_RECV_PID"
rv=$(grep '^recv ' "$W/after.recv")
ktap_info "$s"
sb=$(echo "$s" | sed -n 's/.* bytes=\([0-9]*\) fnv64=\([0-9a-f]*\).*/\1 \2/p')
rb=$(echo "$rv" | sed -n 's/.* bytes=\([0-9]*\) fnv64=\([0-9a-f]*\).*/\1 \2/p')
[ "$sb" = "2000000 ${sb#* }" ] && [ "$sb" = "$rb" ] && echo "$s" | grep -q "cc=$FA_CC "
ktap_result $? "after the cycles it loads and carries a connection intact"
ktap_finish
