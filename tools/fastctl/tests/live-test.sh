#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# live-test.sh - fastctl against the running kernel, on loopback only.
#
# This host cannot load fast_adaptive, so the flows use the kernel's own
# congestion controls (cubic; -a / --cc): what is proven here is the
# NETLINK_SOCK_DIAG path (IPv4 and IPv6, tcp_info, cc name, meminfo),
# filters, doctor on real counters (a receive-window-limited flow made by a
# 4 KiB SO_RCVBUF), watch/CSV/plot, unprivileged reading, the exit statuses
# and messages, and params against a scratch directory.  The fast_adaptive
# flows themselves are checked in the VM (vmtest-fastctl.sh).
#
# Every transfer is bounded (fa_flow -t) and stopped on exit.  Traffic goes
# to 127.0.0.1 and ::1 only.  Ends with "live: N passed, N failed".

set -u

DIR=$(cd "$(dirname "$0")/.." && pwd)
FASTCTL=${FASTCTL:-$DIR/fastctl}
FA_FLOW=${FA_FLOW:-$DIR/tests/fa_flow}
CC=${LIVE_CC:-cubic}
TMP=$(mktemp -d /tmp/fastctl-live.XXXXXX)
PORT=$((20000 + $$ % 6000 * 2))	# 20000..31998: below the ephemeral range
PORT2=$((PORT + 1))
PASS=0
FAIL=0
SKIP=0
PIDS=""

cleanup() {
	local p rev=""
	for p in $PIDS; do
		rev="$p $rev"	# clients first, then the servers
	done
	for p in $rev; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	wait 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

ok() { PASS=$((PASS + 1)); echo "ok - $*"; }
nok() { FAIL=$((FAIL + 1)); echo "not ok - $*"; }
skip() { SKIP=$((SKIP + 1)); echo "ok - $* # SKIP"; }
check() { # rc description
	local rc=$1
	shift
	if [ "$rc" -eq 0 ]; then ok "$*"; else nok "$*"; fi
}

have_python() { python3 -c 'import json' 2>/dev/null; }

# json_eval FILE EXPR: evaluate a Python expression over the parsed JSON d
json_eval() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# expect_usage DESC CMD...: exit 2 and exactly one line on stderr
expect_usage() {
	local desc=$1 rc lines
	shift
	"$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	lines=$(wc -l < "$TMP/err")
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -q '^fastctl: ' "$TMP/err"; then
		ok "$desc (exit 2: $(cat "$TMP/err"))"
	else
		nok "$desc: exit $rc, $lines stderr lines: $(head -3 "$TMP/err")"
	fi
}

if [ ! -x "$FASTCTL" ] || [ ! -x "$FA_FLOW" ]; then
	echo "live-test: build first (make -C tools/fastctl)" >&2
	exit 1
fi
if ! grep -qw "$CC" /proc/sys/net/ipv4/tcp_available_congestion_control; then
	CC=$(awk '{print $1}' /proc/sys/net/ipv4/tcp_available_congestion_control)
fi
echo "# live fastctl test on $(uname -r), flows use $CC, ports $PORT $PORT2"

# --- traffic: one IPv4 and one IPv6 bulk flow, and an rwnd-limited one -----

# (bounded at 60 s; the trap ends them as soon as the checks are done)
"$FA_FLOW" server -p "$PORT" -t 60 -n 2 & PIDS="$PIDS $!"
"$FA_FLOW" server -p "$PORT2" -b 127.0.0.1 -R 4096 -t 60 -n 1 & PIDS="$PIDS $!"
sleep 0.3
"$FA_FLOW" client -c 127.0.0.1 -p "$PORT" -C "$CC" -t 50 & PIDS="$PIDS $!"
"$FA_FLOW" client -c ::1 -p "$PORT" -C "$CC" -t 50 & PIDS="$PIDS $!"
"$FA_FLOW" client -c 127.0.0.1 -p "$PORT2" -C "$CC" -t 50 & PIDS="$PIDS $!"
sleep 1

# --- show ---------------------------------------------------------------------

"$FASTCTL" show -a dport "$PORT" > "$TMP/show" 2> "$TMP/err"
rc=$?
sed 's/^/# /' "$TMP/show"
check $rc "show -a exits 0"
[ "$(grep -c "$CC" "$TMP/show")" -eq 2 ] &&
	grep -q "^127.0.0.1:[0-9]* *127.0.0.1:$PORT " "$TMP/show" &&
	grep -q "^\[::1\]:[0-9]* *\[::1\]:$PORT " "$TMP/show"
check $? "show -a dport $PORT lists the IPv4 and the IPv6 sender"

"$FASTCTL" show -a -4 dport "$PORT" > "$TMP/show4" &&
	[ "$(grep -c "$CC" "$TMP/show4")" -eq 1 ] &&
	"$FASTCTL" show -a -6 dport "$PORT" > "$TMP/show6" &&
	[ "$(grep -c "$CC" "$TMP/show6")" -eq 1 ]
check $? "-4 and -6 each list one of them"

"$FASTCTL" show -a dst ::1/128 dport "$PORT" > "$TMP/showd" &&
	[ "$(grep -c "$CC" "$TMP/showd")" -eq 1 ] &&
	"$FASTCTL" show -a sport "$PORT" dst 127.0.0.0/8 > "$TMP/shows" &&
	[ "$(grep -c "^127.0.0.1:$PORT " "$TMP/shows")" -eq 1 ] &&
	[ "$(wc -l < "$TMP/shows")" -eq 2 ]
check $? "dst ADDR/PLEN and sport filters (IPv4-mapped receiver matches 127.0.0.0/8)"

"$FASTCTL" show --cc "$CC" --json dport "$PORT" > "$TMP/show.json"
check $? "show --cc $CC --json exits 0"
if have_python; then
	n=$(json_eval "$TMP/show.json" 'len(d["flows"])')
	good=$(json_eval "$TMP/show.json" 'all(f["cc"]=="'"$CC"'" and f["cwnd"]>0 and f["srtt_us"]>0 and f["min_rtt_us"] is not None and f["state"]=="ESTAB" and f["dport"]=='"$PORT"' and f["bytes_acked"]>0 and f["sndbuf"]>0 for f in d["flows"])')
	[ "$n" = 2 ] && [ "$good" = True ]
	check $? "show --json: 2 flows with cc, cwnd, srtt_us, min_rtt_us, bytes_acked, sndbuf (n=$n)"
	json_eval "$TMP/show.json" 'sorted(d["flows"][0].keys())' | tr -d "[]'" | sed 's/^/# fields: /'
else
	[ "$(grep -c '"sport"' "$TMP/show.json")" -eq 2 ]
	check $? "show --json lists 2 flows (no python3: not parsed)"
fi

# --- unprivileged reading ---------------------------------------------------

if [ "$(id -u)" -eq 0 ] && command -v setpriv > /dev/null; then
	cp "$FASTCTL" "$TMP/fastctl"
	chmod 755 "$TMP" "$TMP/fastctl"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$TMP/fastctl" show -a dport "$PORT" > "$TMP/shownobody" 2>&1
	rc=$?
	[ $rc -eq 0 ] && [ "$(grep -c "$CC" "$TMP/shownobody")" -eq 2 ]
	check $? "show -a works as uid 65534 (no root needed to read)"
else
	[ "$(id -u)" -ne 0 ]
	check $? "running unprivileged already"
fi

# --- doctor -----------------------------------------------------------------

"$FASTCTL" doctor -a dport "$PORT" > "$TMP/doc" 2> "$TMP/err"
rc=$?
sed 's/^/# /' "$TMP/doc"
[ $rc -eq 0 ] && [ "$(grep -c '^  limit:  ' "$TMP/doc")" -eq 2 ] &&
	grep -q '^  advice: ' "$TMP/doc"
check $? "doctor -a names a limit and gives advice for both senders"

"$FASTCTL" doctor -a --json --interval 500 dport "$PORT2" > "$TMP/docr.json"
rc=$?
sed 's/^/# /' "$TMP/docr.json" | grep -E '"(limit|summary|rwnd|advice)"|tcp_rmem' | head -8
if have_python; then
	lim=$(json_eval "$TMP/docr.json" 'd["flows"][0]["limit"]')
	[ $rc -eq 0 ] && [ "$lim" = rwnd ]
	check $? "doctor: a 4 KiB receive buffer makes the sender rwnd-limited (got $lim)"
else
	grep -q '"limit": "rwnd"' "$TMP/docr.json"
	check $? "doctor: a 4 KiB receive buffer makes the sender rwnd-limited"
fi

"$FASTCTL" doctor -a --json --interval 300 sport "$PORT" > "$TMP/docs.json"
if have_python; then
	lims=$(json_eval "$TMP/docs.json" '" ".join(sorted(set(f["limit"] for f in d["flows"])))')
	[ "$lims" = receiver ]
	check $? "doctor: the receiving ends are named receivers (got $lims)"
else
	grep -q '"limit": "receiver"' "$TMP/docs.json"
	check $? "doctor: the receiving ends are named receivers"
fi

"$FASTCTL" doctor -a --interval 0 --rate 100mbit dport "$PORT2" > "$TMP/doc0"
check $? "doctor --interval 0 --rate 100mbit (counters since start) exits 0"

# --- watch, CSV, plot -------------------------------------------------------

t0=$(date +%s%N)
"$FASTCTL" watch -a dport "$PORT" --interval 100 --count 10 --csv "$TMP/w.csv" > "$TMP/watch" 2>&1
rc=$?
t1=$(date +%s%N)
head -4 "$TMP/watch" | sed 's/^/# /'
ms=$(((t1 - t0) / 1000000))
rows=$(($(wc -l < "$TMP/w.csv") - 1))
[ $rc -eq 0 ] && [ "$rows" -eq 20 ] && [ $ms -ge 850 ] && [ $ms -lt 10000 ]
check $? "watch --count 10 --interval 100: 20 CSV rows for 2 flows in ${ms} ms"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ t = $col["time_s"]; f = $col["flow"];
	  if ((f in last) && t <= last[f]) bad++; last[f] = t;
	  if ($col["cwnd"] == "" || $col["srtt_us"] == "") bad++ }
	END { exit bad ? 1 : 0 }' "$TMP/w.csv"
check $? "watch CSV: time_s strictly increasing per flow, cwnd and srtt_us filled"
head -1 "$TMP/w.csv" | grep -q '^time_s,flow,src,sport,dst,dport,cc,phase,cwnd,ssthresh,srtt_us,min_rtt_us,base_rtt_us,avg_rtt_us,backlog_pkts,gamma,'
check $? "watch CSV header is the documented one"

t0=$(date +%s%N)
"$FASTCTL" watch -a dport "$PORT" --interval 100 --duration 0.5 --json > "$TMP/w.jsonl"
rc=$?
t1=$(date +%s%N)
ms=$(((t1 - t0) / 1000000))
lines=$(wc -l < "$TMP/w.jsonl")
[ $rc -eq 0 ] && [ "$lines" -eq 10 ] && [ $ms -lt 10000 ]
check $? "watch --duration 0.5 --json: 5 samples x 2 flows as JSON lines ($lines lines, ${ms} ms)"
if have_python; then
	python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$TMP/w.jsonl"
	check $? "watch --json lines parse"
fi

if command -v gnuplot > /dev/null; then
	"$FASTCTL" plot "$TMP/w.csv" -o "$TMP/w.png" > "$TMP/plot" 2>&1
	rc=$?
	[ $rc -eq 0 ] && [ -s "$TMP/w.png" ] &&
		[ "$(head -c 8 "$TMP/w.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]
	check $? "plot writes a PNG ($(cat "$TMP/plot"))"
else
	skip "plot (gnuplot not installed)"
fi
"$FASTCTL" plot "$TMP/w.csv" --script "$TMP/w.gp" && grep -q 'set multiplot layout 3,1' "$TMP/w.gp"
check $? "plot --script writes the gnuplot script"

# --- errors: one line on stderr, exit 2 ------------------------------------

if grep -qw fast_adaptive /proc/sys/net/ipv4/tcp_available_congestion_control ||
   [ -d /sys/module/tcp_fast_adaptive ]; then
	skip "module missing -> exit 2 (module is loaded here)"
	skip "params without module -> exit 2 (module is loaded here)"
else
	expect_usage "show without the module" "$FASTCTL" show
	expect_usage "params without the module" "$FASTCTL" params
fi
expect_usage "unknown command" "$FASTCTL" frobnicate
expect_usage "no command" "$FASTCTL"
expect_usage "bad port" "$FASTCTL" show -a dport 70000
expect_usage "unknown filter" "$FASTCTL" show -a daddr 1.2.3.4
expect_usage "option for another command" "$FASTCTL" show -a --csv x.csv
expect_usage "interval below 10 ms" "$FASTCTL" watch -a --interval 5
expect_usage "bad rate" "$FASTCTL" doctor -a --rate fast
expect_usage "out-of-range tunable" "$FASTCTL" params alpha_pkts=0
expect_usage "non-numeric tunable" "$FASTCTL" params gamma_min=half
expect_usage "gamma_min > gamma_max" "$FASTCTL" params gamma_min=900 gamma_max=800
expect_usage "unknown tunable" "$FASTCTL" params alpha=3

# --- params against a scratch directory -------------------------------------

# Every tunable of fa_params.h's table, at its default, as the module has
# them: "[FA_P_X] = FA_PARAM_ROW(name, FA_X)" and "#define FA_X_DEFAULT N".
PD=$TMP/params
mkdir -p "$PD"
PARAMS_H=$DIR/../../include/fast_adaptive/fa_params.h
sed -n 's/.*= FA_PARAM_ROW(\([a-z_0-9]*\), *\([A-Z_0-9]*\)).*/\1 \2/p' "$PARAMS_H" |
while read -r name macro; do
	sed -n "s/^#define ${macro}_DEFAULT[[:space:]]*\([0-9]*\).*/\1/p" "$PARAMS_H" > "$PD/$name"
done
[ -s "$PD/alpha_pkts" ] && [ "$(cat "$PD/alpha_pkts")" = 20 ] && [ "$(cat "$PD/gain_k")" = 2048 ]
check $? "scratch tunables from fa_params.h ($(ls "$PD" | wc -l) of them)"
export FASTCTL_PARAM_DIR=$PD
"$FASTCTL" params > "$TMP/plist" && grep -q '^alpha_pkts *20 *20 *1\.\.65536' "$TMP/plist"
check $? "params lists the tunables with value, default and range"
"$FASTCTL" params alpha_pkts=30 gamma_max=1000 gamma_min=900 > "$TMP/pset" &&
	[ "$(cat "$PD/alpha_pkts")" = 30 ] && [ "$(cat "$PD/gamma_min")" = 900 ] &&
	[ "$(cat "$PD/gamma_max")" = 1000 ] && grep -q 'alpha_pkts = 30 (was 20)' "$TMP/pset"
check $? "params NAME=VALUE writes each value and reports the old one"
"$FASTCTL" params --json gamma_min > "$TMP/pjson"
if have_python; then
	v=$(json_eval "$TMP/pjson" '(len(d["params"]), d["params"][0]["name"], d["params"][0]["value"])')
	[ "$v" = "(1, 'gamma_min', 900)" ]
	check $? "params --json NAME ($v)"
fi
# A write the kernel refuses: gain_k on a read-only bind mount (EROFS),
# in a private mount namespace.
if [ "$(id -u)" -eq 0 ] && unshare -m true 2> /dev/null; then
	# shellcheck disable=SC2016
	unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" &&
		exec "$2" params gain_k=100' sh "$PD/gain_k" "$FASTCTL" > /dev/null 2> "$TMP/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q 'gain_k=100: the kernel refused: Read-only file system' "$TMP/err" &&
		[ "$(cat "$PD/gain_k")" = 2048 ]
	check $? "a refused write is reported with the kernel's errno text, exit 1 ($(cat "$TMP/err"))"
else
	skip "refused write (needs root and unshare -m)"
fi
if [ "$(id -u)" -eq 0 ] && command -v setpriv > /dev/null; then
	chmod 644 "$PD"/*
	chmod 755 "$PD"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		env FASTCTL_PARAM_DIR="$PD" "$TMP/fastctl" params alpha_pkts=40 > /dev/null 2> "$TMP/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q 'needs root' "$TMP/err"
	check $? "an unprivileged write says it needs root ($(cat "$TMP/err"))"
fi
unset FASTCTL_PARAM_DIR

echo "live: $PASS passed, $FAIL failed, $SKIP skipped"
[ "$FAIL" -eq 0 ]
