# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034  # MIB, FA_MANY are for the tests
#
# Shared by the stress and fault tests (fa_flows, fa_faults, fa_churn,
# fa_longrun; sourced by bash scripts, after fa.sh and net.sh).
#
# FA_STRESS=1 selects the long forms (make stress); the short forms run in
# make check.  Under TCG every exec costs ~0.5 s, so the helpers here use
# bash builtins where they run often.
#
#   st_sleep SECS            sleep without a process
#   st_now_us                CLOCK_MONOTONIC-compatible time in us (10 ms
#                            resolution, /proc/uptime: the guest never suspends)
#   st_slab_kb               "Slab SUnreclaim" of /proc/meminfo, kB
#   st_params_load           PARAM_NAMES/PARAM_MIN/PARAM_MAX from modinfo's
#                            "[MIN..MAX, default D]" of each tunable
#   st_params_save / st_params_restore   the tunables' values around a test
#   st_rewriter_start OUT / st_rewriter_stop   rewrite every tunable at random,
#                            in range, every 100 ms from another process
#   st_refcnt                the module's reference count
#   st_netstat KEY...        TcpExt counters of the sender's namespace
#   st_recovery FILE FROM_US RTT_MS CAP_MBIT   see below

FA_STRESS=${FA_STRESS:-0}
MIB=$((1024 * 1024))
FA_MANY=$FA_BIN/fa_many

st_sleep() {
	if [ -z "${ST_SLEEP_FD:-}" ]; then
		local f
		f=$(mktemp -u /tmp/.st_sleep.XXXXXX)
		mkfifo "$f" && exec {ST_SLEEP_FD}<> "$f" && rm -f "$f"
	fi
	read -r -t "$1" -u "$ST_SLEEP_FD" _ 2>/dev/null
	return 0
}

st_now_us() {
	local up _
	read -r up _ < /proc/uptime
	echo "${up/./}0000"
}

st_slab_kb() {
	local k v _ slab="" sunr=""
	while read -r k v _; do
		case $k in
		Slab:) slab=$v ;;
		SUnreclaim:) sunr=$v ;;
		esac
	done < /proc/meminfo
	echo "$slab $sunr"
}

# The TCP socket slab: "active_objs objsize" of /proc/slabinfo's TCP line.
st_tcp_slab() {
	local name active _num objsize _
	while read -r name active _num objsize _; do
		[ "$name" = TCP ] && { echo "$active $objsize"; return 0; }
	done < /proc/slabinfo
	echo "0 0"
}

# The tunables and their ranges, from modinfo of the module under test
# ("parm: NAME:description [MIN..MAX, default D]").
st_params_load() {
	local line n r
	PARAM_NAMES=() PARAM_MIN=() PARAM_MAX=()
	while IFS= read -r line; do
		case $line in parm:*) ;; *) continue ;; esac
		n=${line#parm:}
		n=${n#"${n%%[! ]*}"}
		n=${n%%:*}
		r=${line##*[}
		case $r in
		[0-9]*..[0-9]*", default "*) ;;
		*) continue ;;
		esac
		PARAM_NAMES+=("$n")
		PARAM_MIN+=("${r%%..*}")
		r=${r#*..}
		PARAM_MAX+=("${r%%,*}")
	done < <(/sbin/modinfo "${FA_MODULE:-$FA_MODNAME}" 2>/dev/null)
	[ ${#PARAM_NAMES[@]} -gt 0 ]
}

declare -A ST_SAVED
st_params_save() {
	local p v
	for p in "${PARAM_NAMES[@]}"; do
		read -r v < "$FA_PARAMS/$p" && ST_SAVED[$p]=$v
	done
}

# Back to the saved values; gamma_min first when that keeps min <= max.
st_params_restore() {
	local p pass
	[ -d "$FA_PARAMS" ] || return 0
	for pass in 1 2; do
		for p in "${!ST_SAVED[@]}"; do
			echo "${ST_SAVED[$p]}" > "$FA_PARAMS/$p" 2>/dev/null
		done
	done
	return 0
}

# A random number in [MIN, MAX]: the ends a quarter of the time, else
# uniform (30 random bits).
st_rand_in() {
	local lo=$1 hi=$2 r
	r=$((RANDOM % 8))
	if [ $r = 0 ]; then ST_R=$lo; return; fi
	if [ $r = 1 ]; then ST_R=$hi; return; fi
	ST_R=$((lo + ((RANDOM << 15 | RANDOM) % (hi - lo + 1))))
}

# The rewriter: a background bash loop (no exec) that every 100 ms writes a
# random in-range value to every tunable, in a random order, keeping
# gamma_min <= gamma_max (the module refuses a write that breaks it, so the
# two are written in the order that keeps the rule at every step).  When
# the file $ST_STOP appears it writes "rounds=R writes=W refused=F" to OUT
# (and the first refused write, and max_gap_ms, the longest time from the
# start of one round to the start of the next) and exits.
st_rewriter_start() { # OUT
	local out=$1
	ST_STOP=$(mktemp -u /tmp/.st_stop.XXXXXX)
	(
		rounds=0 writes=0 refused=0 first="" began="" gap=0
		n=${#PARAM_NAMES[@]}
		while [ ! -e "$ST_STOP" ]; do
			now=${EPOCHREALTIME/./}
			if [ -n "$began" ] && [ $((now - began)) -gt $gap ]; then
				gap=$((now - began))
			fi
			began=$now
			gmin="" gmax=""
			start=$((RANDOM % n))
			for ((k = 0; k < n; k++)); do
				i=$(((start + k) % n))
				p=${PARAM_NAMES[$i]}
				st_rand_in "${PARAM_MIN[$i]}" "${PARAM_MAX[$i]}"
				case $p in
				gamma_min) gmin=$ST_R; continue ;;
				gamma_max) gmax=$ST_R; continue ;;
				esac
				writes=$((writes + 1))
				if ! echo "$ST_R" > "$FA_PARAMS/$p" 2>/dev/null; then
					refused=$((refused + 1))
					[ -n "$first" ] || first="$p=$ST_R"
				fi
			done
			if [ -n "$gmin" ] && [ -n "$gmax" ]; then
				[ "$gmin" -le "$gmax" ] || { t=$gmin; gmin=$gmax; gmax=$t; }
				read -r cur < "$FA_PARAMS/gamma_max"
				if [ "$gmin" -le "$cur" ]; then
					order="gamma_min:$gmin gamma_max:$gmax"
				else
					order="gamma_max:$gmax gamma_min:$gmin"
				fi
				for pv in $order; do
					writes=$((writes + 1))
					if ! echo "${pv#*:}" > "$FA_PARAMS/${pv%%:*}" 2>/dev/null; then
						refused=$((refused + 1))
						[ -n "$first" ] || first="${pv%%:*}=${pv#*:}"
					fi
				done
			fi
			rounds=$((rounds + 1))
			# the next round 100 ms after this one began (a round takes
			# tens of ms of emulated CPU itself)
			now=${EPOCHREALTIME/./}
			[ -n "${next:-}" ] || next=$now
			next=$((next + 100000))
			if [ $next -gt "$now" ]; then
				st_sleep "$(printf '0.%06d' $((next - now)))"
			else
				next=$now
			fi
		done
		echo "rounds=$rounds writes=$writes refused=$refused first_refused=${first:-none} max_gap_ms=$((gap / 1000))" > "$out"
	) &
	ST_REWRITER_PID=$!
}

st_rewriter_stop() {
	[ -n "${ST_REWRITER_PID:-}" ] || return 0
	: > "$ST_STOP"
	wait "$ST_REWRITER_PID" 2>/dev/null
	rm -f "$ST_STOP"
	ST_REWRITER_PID=""
}

st_refcnt() {
	local r
	read -r r < "/sys/module/$FA_MODNAME/refcnt" 2>/dev/null && echo "$r"
}

# st_unload_check: wait (up to 10 s) for the module's reference count to
# drop to 0, then rmmod.  Prints "refcnt=R rmmod=ok|<error>"; status 0 when
# the count reached 0 and rmmod succeeded.
st_unload_check() {
	local i r="" out
	for i in $(seq 1 50); do
		r=$(st_refcnt)
		[ "$r" = 0 ] && break
		st_sleep 0.2
	done
	if out=$(rmmod "$FA_MODNAME" 2>&1); then
		echo "refcnt=${r:-?} rmmod=ok"
		[ "$r" = 0 ]
	else
		echo "refcnt=${r:-?} rmmod=failed: $out"
		return 1
	fi
}

# TcpExt counters of the sender's namespace: "KEY=V ..."
st_netstat() {
	in_snd cat /proc/net/netstat | awk -v keys="$*" '
		$1 == "TcpExt:" { if (!h) { for (i = 2; i <= NF; i++) n[i] = $i; h = 1 } else { for (i = 2; i <= NF; i++) v[n[i]] = $i } }
		END { k = split(keys, w, " "); for (i = 1; i <= k; i++) printf "%s%s=%s", (i > 1 ? " " : ""), w[i], v[w[i]] + 0; print "" }'
}

# st_recovery FILE FROM_US RTT_MS CAP_MBIT: after an event at FROM_US
# (fa_xfer's sample clock), the first 1 s window [t, t + 1 s] of samples in
# which the goodput (bytes_acked) is within 10 % of CAP_MBIT (above it
# only while a queue built at an old, higher rate drains) and every sample's
# base RTT (TCP_CC_INFO tcpv_minrtt, the module's estimate) is within 10 %
# of RTT_MS.  Prints
#   recover_s=S rtt_back_s=R rate_back_s=G base_rtt_ms=B goodput_mbit=M
# S is the end of that window after FROM_US ("nc": none in the file);
# R and G are the first times each condition alone held; B and M their
# values in the window found.
st_recovery() {
	awk -v from="$2" -v rtt="$3" -v cap="$4" '
	/^#/ { next }
	$1 >= from { n++; t[n] = $1; b[n] = $6; base[n] = $16 }
	END {
		rec = "nc"; rb = "nc"; gb = "nc"; bo = "nc"; go = "nc"
		lo = 0.9 * rtt * 1000; hi = 1.1 * rtt * 1000
		for (i = 1; i <= n; i++)
			if (rb == "nc" && base[i] >= lo && base[i] <= hi)
				rb = sprintf("%.2f", (t[i] - from) / 1e6)
		j = 1
		for (i = 1; i <= n; i++) {
			while (j <= n && t[j] < t[i] + 1000000) j++
			if (j > n) break
			g = (b[j] - b[i]) * 8 / (t[j] - t[i])
			if (g < 0.9 * cap || g > 1.1 * cap) continue
			if (gb == "nc") gb = sprintf("%.2f", (t[j] - from) / 1e6)
			ok = 1
			for (k = i; k <= j; k++) if (base[k] < lo || base[k] > hi) { ok = 0; break }
			if (ok) {
				rec = sprintf("%.2f", (t[j] - from) / 1e6)
				bo = sprintf("%.2f", base[j] / 1000); go = sprintf("%.2f", g)
				break
			}
		}
		printf "recover_s=%s rtt_back_s=%s rate_back_s=%s base_rtt_ms=%s goodput_mbit=%s\n", rec, rb, gb, bo, go
	}' "$1"
}

# st_goodput FILE FROM_US TO_US: Mbit/s of bytes_acked between two times
st_goodput() {
	awk -v from="$2" -v to="$3" '!/^#/ && $1 >= from && $1 <= to {
		if (t0 == "") { t0 = $1; b0 = $6 } t1 = $1; b1 = $6 }
		END { if (t1 > t0) printf "%.2f", (b1 - b0) * 8 / (t1 - t0); else print "nan" }' "$1"
}

# The payload rate a bottleneck of RATE Mbit/s carries (1448 of every 1514
# bytes on the wire), Mbit/s.
st_payload_mbit() {
	awk -v r="$1" 'BEGIN { printf "%.2f", r * 1448 / 1514 }'
}
