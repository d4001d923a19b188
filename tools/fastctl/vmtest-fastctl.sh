#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vmtest-fastctl.sh - fastctl against real fast_adaptive flows (KTAP).
#
# Runs inside the selftest VM (or any disposable machine, as root) with the
# selftests' helpers: lib/ktap.sh, lib/fa.sh (loads the module under test)
# and lib/net.sh (the fa_snd -> fa_rtr -> fa_rcv dumbbell, netem bottleneck
# on the router).  Only the namespaces' own addresses are used.
#
#  phase 1  three fast_adaptive bulk flows and one cubic flow (app-limited
#           at 2 Mbit/s, so that it does not fill the queue) over
#           RATE Mbit/s, RTT ms:
#             - show --json lists exactly the three fast_adaptive flows,
#               each with a base RTT within 10 % of the emulated RTT, and
#               consistent law fields (phase, avg >= base, backlog, gamma);
#             - show -a lists the cubic flow too; an unprivileged user
#               (uid 65534) reads the same three flows;
#             - doctor names the bulk flows cwnd-limited;
#             - watch --csv gives a time series that increases per flow,
#               with base RTT and backlog filled.
#  phase 2  one flow to a receiver whose tcp_rmem is clamped (in fa_rcv),
#           doctor names it rwnd-limited and advises on tcp_rmem; at the
#           same time one flow whose SO_SNDBUF is clamped, doctor names it
#           sndbuf-limited and advises on tcp_wmem/SO_SNDBUF.
#  params   lists the module's tunables, sets one and reads it back from
#           sysfs (then restores it), and refuses an out-of-range value
#           without touching the module.
#
# Environment: FA_CC, FA_MODULE, FA_BIN, FA_RESULTS as for the other
# selftests (run_suite.sh sets them); FASTCTL and FA_FLOW (default: the
# binaries next to this script, built by make -C tools/fastctl);
# FA_SELFTESTS (default: ../../selftests).  Exit 0 pass, 1 fail, 4 skip.

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
SELFTESTS=${FA_SELFTESTS:-$REPO/selftests}
FASTCTL=${FASTCTL:-$HERE/fastctl}
FA_FLOW=${FA_FLOW:-$HERE/tests/fa_flow}

RATE=50		# Mbit/s
RTT=80		# ms (a quarter of it is well above the 3 flows' standing queue)
BDP_MULT=2

for lib in ktap fa net; do
	if [ ! -r "$SELFTESTS/lib/$lib.sh" ]; then
		echo "TAP version 13"
		echo "1..0 # SKIP no $SELFTESTS/lib/$lib.sh"
		exit 4
	fi
done
# shellcheck source=/dev/null
. "$SELFTESTS/lib/ktap.sh"
# shellcheck source=/dev/null
. "$SELFTESTS/lib/fa.sh"
# shellcheck source=/dev/null
. "$SELFTESTS/lib/net.sh"

W=${FA_RESULTS:-/tmp}/fastctl
mkdir -p "$W"
ktap_plan 11

skip_all() {
	local i
	ktap_info "$1"
	for i in $(seq $((KTAP_N + 1)) "$KTAP_PLAN"); do
		ktap_skip "fastctl check $i" "$1"
	done
	ktap_finish
}

[ "$(id -u)" -eq 0 ] || skip_all "needs root (netns, module)"
if [ ! -x "$FASTCTL" ] || [ ! -x "$FA_FLOW" ]; then
	skip_all "fastctl not built: make -C tools/fastctl"
fi
fa_is_ours || skip_all "FA_CC=$FA_CC: fastctl follows fast_adaptive only"

PIDS=""
RMEM_SAVED=""
PARAM_SAVED=""
cleanup() {
	local p
	for p in $PIDS; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	[ -n "$PARAM_SAVED" ] && echo "$PARAM_SAVED" > "$FA_PARAMS/update_rtts"
	net_teardown
}
trap cleanup EXIT

if ! fa_load || ! fa_available; then
	skip_all "cannot load $FA_CC (${FA_MODULE:-modprobe})"
fi
modprobe tcp_cubic 2>/dev/null
net_setup || { ktap_info "network setup failed"; exit 1; }
net_dumbbell $RATE $RTT $BDP_MULT || { ktap_info "netem setup failed"; exit 1; }
ktap_info "bottleneck $RATE Mbit/s, RTT $RTT ms, buffer $NET_LIMIT packets; fastctl $("$FASTCTL" --version)"

fc() { in_snd "$FASTCTL" "$@"; }
at() { ktap_info "[$((SECONDS - T0)) s] $*"; }

# jvals FILE FIELD: the values of a flow-level field of fastctl's pretty
# JSON, one line per flow (flow members are indented by 6 spaces).
jvals() {
	sed -n "s/^      \"$2\": \(.*\)$/\1/p" "$1" | sed 's/,$//; s/^"\(.*\)"$/\1/'
}

# start_server PORT CONNS [ARGS...]: a bounded fa_flow server in fa_rcv.  ip netns
# exec execs the program, so $! is fa_flow itself (a function run with &
# would be a subshell, and killing it would leave fa_flow running).
start_server() {
	local port=$1 conns=$2
	shift 2
	ip netns exec "$NS_RCV" "$FA_FLOW" server -b "$RCV_IP" -p "$port" -n "$conns" -t 250 "$@" &
	PIDS="$PIDS $!"
	sleep 0.5
}

# start_client PORT ARGS...: a bounded fa_flow client in fa_snd
start_client() {
	local port=$1
	shift
	ip netns exec "$NS_SND" "$FA_FLOW" client -c "$RCV_IP" -p "$port" "$@" &
	PIDS="$PIDS $!"
}

stop_flows() {
	local p
	for p in $PIDS; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	PIDS=""
}

# --- phase 1: three fast_adaptive flows and one cubic ---------------------------

T0=$SECONDS
start_server 5601 4
# (bounded; stop_flows ends them when the phase is done)
start_client 5601 -C "$FA_CC" -n 3 -t 240
sleep 3
start_client 5601 -C cubic -w 250000 -t 240
sleep 9

at "phase 1: show"
fc show --json > "$W/show.json" 2> "$W/show.err"
rc=$?
fc show > "$W/show.txt" 2>&1
ktap_info "$(cat "$W/show.txt")"
n=$(jvals "$W/show.json" cc | grep -c .)
others=$(jvals "$W/show.json" cc | grep -vcx "$FA_CC")
[ $rc -eq 0 ] && [ "$n" -eq 3 ] && [ "$others" -eq 0 ]
ktap_result $? "show --json lists exactly the 3 $FA_CC flows (got $n, $others of another cc)"

bad=0
for b in $(jvals "$W/show.json" base_rtt_us); do
	# b in us, RTT in ms: 0.9 RTT <= b <= 1.1 RTT
	if [ "$b" = null ] || [ $((b * 10)) -lt $((RTT * 9000)) ] ||
	   [ $((b * 10)) -gt $((RTT * 11000)) ]; then
		bad=$((bad + 1))
	fi
done
bases=$(jvals "$W/show.json" base_rtt_us | tr '\n' ' ')
[ "$n" -eq 3 ] && [ $bad -eq 0 ]
ktap_result $? "base RTT of each flow within 10 % of the emulated $RTT ms: ${bases}us"

# the law's fields agree with each other
paste <(jvals "$W/show.json" phase) <(jvals "$W/show.json" base_rtt_us) \
	<(jvals "$W/show.json" avg_rtt_us) <(jvals "$W/show.json" backlog_pkts) \
	<(jvals "$W/show.json" gamma) > "$W/law.txt"
ktap_info "phase base avg backlog gamma: $(tr '\t\n' ' ;' < "$W/law.txt")"
# (no "compete": among fast_adaptive flows and an application-limited cubic
# flow, competitive mode must never start, issue 13)
awk -v gmin="$(cat "$FA_PARAMS/gamma_min")" -v gmax="$(cat "$FA_PARAMS/gamma_max")" '
	$1 !~ /^(slow_start|law|probe|recovery|loss)$/ { bad++ }
	$3 == "null" || $4 == "null" || $3 + 0 < $2 + 0 || $4 + 0 < 0 { bad++ }
	$1 == "law" && ($5 == "null" || $5 * 1024 < gmin - 1 || $5 * 1024 > gmax + 1) { bad++ }
	END { exit bad || NR != 3 }' "$W/law.txt"
ktap_result $? "phase, avg >= base RTT, backlog >= 0 and gamma within [gamma_min, gamma_max] for each flow"

fc show -a dport 5601 > "$W/show-a.txt"
cc_all=$(awk 'NR > 1 { print $3 }' "$W/show-a.txt" | sort | uniq -c | awk '{ printf "%s=%s ", $2, $1 }')
[ "$(awk 'NR > 1 && $3 == "cubic"' "$W/show-a.txt" | wc -l)" -eq 1 ] &&
	[ "$(awk -v cc="$FA_CC" 'NR > 1 && $3 == cc' "$W/show-a.txt" | wc -l)" -eq 3 ]
ktap_result $? "show -a also lists the cubic flow ($cc_all)"

at "show as uid 65534"
in_snd setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$FASTCTL" show --json > "$W/show-nobody.json" 2>&1
rc=$?
n2=$(jvals "$W/show-nobody.json" cc | grep -cx "$FA_CC")
[ $rc -eq 0 ] && [ "$n2" -eq 3 ]
ktap_result $? "an unprivileged user (uid 65534) reads the same 3 flows"

at "doctor"
fc doctor --json --interval 2000 > "$W/doctor-bulk.json"
lims=$(jvals "$W/doctor-bulk.json" limit | tr '\n' ' ')
ktap_info "$(jvals "$W/doctor-bulk.json" summary)"
fc doctor --interval 500 > "$W/doctor-bulk.txt"
ktap_info "$(cat "$W/doctor-bulk.txt")"
[ "$(jvals "$W/doctor-bulk.json" limit | grep -cx cwnd)" -eq 3 ]
ktap_result $? "doctor: the bulk $FA_CC flows are cwnd-limited (got: $lims)"

at "watch"
fc watch --interval 200 --duration 3 --csv "$W/watch.csv" > "$W/watch.txt" 2>&1
rc=$?
ktap_info "$(head -6 "$W/watch.txt")"
awk -F, -v rc=$rc '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{
		t = $col["time_s"] + 0; f = $col["flow"]; rows++; flows[f] = 1
		if ((f in last) && t <= last[f]) bad++
		last[f] = t
		if ($col["base_rtt_us"] == "" || $col["backlog_pkts"] == "" || $col["cwnd"] == "") bad++
	}
	END {
		nf = 0; for (f in flows) nf++
		printf "# watch: %d rows, %d flows, %d bad\n", rows, nf, bad
		exit rc || bad || nf != 3 || rows < 3 * 12
	}' "$W/watch.csv"
ktap_result $? "watch --csv: time increases per flow, base RTT and backlog filled, 3 flows"

stop_flows

# --- phase 2: a receiver with tcp_rmem clamped, a sender with SO_SNDBUF clamped ---
# (both at once: the clamp is on fa_rcv's tcp_rmem, so the SO_SNDBUF flow's
# receiver sets its own SO_RCVBUF of 4 MiB, far above that flow's BDP.  SO_RCVBUF
# is capped at net.core.rmem_max (global, 208 KiB by default), so it is raised
# for this phase: under the default cap the window was about one BDP, and on
# 6.12 it stalled the SO_SNDBUF flow 38-50 % of the time, next to the send buffer.)

at "phase 2"
RMEM_SAVED=$(in_rcv sysctl -n net.ipv4.tcp_rmem)
RMEM_MAX_SAVED=$(sysctl -n net.core.rmem_max)
sysctl -qw net.core.rmem_max=4194304
in_rcv sysctl -qw net.ipv4.tcp_rmem="4096 32768 65536"
start_server 5602 1
start_server 5603 1 -R 4194304
start_client 5602 -C "$FA_CC" -t 240
start_client 5603 -C "$FA_CC" -S 16384 -t 240
sleep 8
fc doctor --json --interval 2000 dport 5602 > "$W/doctor-rwnd.json"
fc doctor --json --interval 2000 dport 5603 > "$W/doctor-sndbuf.json"
fc doctor --interval 500 dport 5602 > "$W/doctor-rwnd.txt"
fc doctor --interval 500 dport 5603 > "$W/doctor-sndbuf.txt"
stop_flows
in_rcv sysctl -qw net.ipv4.tcp_rmem="$RMEM_SAVED"
sysctl -qw net.core.rmem_max="$RMEM_MAX_SAVED"

ktap_info "receiver tcp_rmem 4096 32768 65536: $(jvals "$W/doctor-rwnd.json" summary)"
ktap_info "$(cat "$W/doctor-rwnd.txt")"
lim=$(jvals "$W/doctor-rwnd.json" limit)
[ "$lim" = rwnd ] && grep -q tcp_rmem "$W/doctor-rwnd.json"
ktap_result $? "doctor names the rmem-clamped flow rwnd-limited and advises tcp_rmem (got $lim)"

ktap_info "sender SO_SNDBUF 16384: $(jvals "$W/doctor-sndbuf.json" summary)"
ktap_info "$(cat "$W/doctor-sndbuf.txt")"
lim=$(jvals "$W/doctor-sndbuf.json" limit)
[ "$lim" = sndbuf ] && grep -q SO_SNDBUF "$W/doctor-sndbuf.json"
ktap_result $? "doctor names the SO_SNDBUF-clamped flow sndbuf-limited and advises SO_SNDBUF (got $lim)"

# --- params against the module ---------------------------------------------------------

at "params"
"$FASTCTL" params > "$W/params.txt" 2>&1
rc=$?
PARAM_SAVED=$(cat "$FA_PARAMS/update_rtts")
new=$((PARAM_SAVED == 3 ? 4 : 3))
"$FASTCTL" params update_rtts=$new > "$W/params-set.txt" 2>&1
rc2=$?
got=$(cat "$FA_PARAMS/update_rtts")
ktap_info "$(cat "$W/params.txt" "$W/params-set.txt")"
nsys=$(find "$FA_PARAMS" -mindepth 1 -maxdepth 1 | wc -l)
[ $rc -eq 0 ] && [ "$(grep -c '\.\.' "$W/params.txt")" -eq "$nsys" ] && [ $rc2 -eq 0 ] &&
	[ "$got" = "$new" ]
ktap_result $? "params lists all $nsys tunables of sysfs and sets update_rtts=$new (sysfs now $got)"
echo "$PARAM_SAVED" > "$FA_PARAMS/update_rtts"
PARAM_SAVED=""

before=$(cat "$FA_PARAMS/alpha_pkts")
"$FASTCTL" params alpha_pkts=0 > /dev/null 2> "$W/params-bad.txt"
rc=$?
[ $rc -eq 2 ] && [ "$(cat "$FA_PARAMS/alpha_pkts")" = "$before" ] &&
	[ "$(wc -l < "$W/params-bad.txt")" -eq 1 ]
ktap_result $? "params refuses alpha_pkts=0 before writing: exit $rc, $(cat "$W/params-bad.txt")"

at "done"
left=$(pgrep -af "$FA_FLOW")
[ -z "$left" ] || ktap_info "still running (a bug): $left"
ktap_finish
