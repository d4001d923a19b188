# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The algorithm tags of the bench, written once: sourced by guest-lib.sh
# (in the VM, to run a tag) and report.sh (on the host, to name it).
# A tag is a congestion control's name, or fa_classic (fast_adaptive with
# adaptive_gain=0 adaptive_ss=0 and every later mode off: plain FAST), or fa_NAME_VALUE
# (fast_adaptive with the one parameter NAME set to VALUE: an ablation run
# side by side with the defaults, e.g. fa_ss_exit_pkts_40, or issue 13's
# fa_compete_0: competitive mode off), or several joined by '@'
# (fa_compete_trend_1@compete_start_1).  Not '+': that joins a tag to its
# competitor in the pair scenarios (lossharm's X+reno), and the scenario
# loop sets the mode of tag_self (guest-lib.sh), the part before the '+'.

# The congestion control tag $1 runs, on stdout.
cc_of() {
	case $1 in
	fa_*) echo fast_adaptive ;;
	*) echo "$1" ;;
	esac
}

# The parameter writes tag $1 needs, "name=value ...", on stdout.
mode_of() {
	local n
	case $1 in
	fa_classic)
		# In the guest (FA_PARAMS, from selftests/lib/fa.sh, is a
		# directory) a tunable this module does not have is a mode it
		# does not have: left out, said on stderr (e.g. compete before
		# issue 13's law is in the module).
		local kv out=""
		for kv in adaptive_gain=0 adaptive_ss=0 ramp=0 own_queue=0 drain_check=0 quick_probe=0 \
			jitter_us=0 short_probe=0 shorter_path=0 random_loss=0 queue_fit=0 compete=0 overshoot=0 \
			compete_moves=0 compete_trend=0 compete_start=0 compete_rise=0 early_restore=0 fit_hold=0 fit_low=0 fit_noise=0 restore_pace=0 ramp_double=0 probe_mean=0 probe_pause=0 path_settle=0 ramp_scatter=0 compete_refill=0 compete_quit=0 compete_adopt=0 compete_recheck=0 compete_keep=0 fit_regrow=0 join_reprobe=0; do
			if [ -n "${FA_PARAMS:-}" ] && [ -d "$FA_PARAMS" ] && [ ! -e "$FA_PARAMS/${kv%%=*}" ]; then
				echo "# fa_classic: this module has no ${kv%%=*}, left out" >&2
				continue
			fi
			out="$out $kv"
		done
		echo "${out# }"
		;;
	fa_*@*)
		# several parameters: fa_NAME_VALUE@NAME_VALUE...
		local part rest=${1#fa_} out=""
		while [ -n "$rest" ]; do
			part=${rest%%@*}
			out="$out ${part%_*}=${part##*_}"
			[ "$part" = "$rest" ] && rest="" || rest=${rest#*@}
		done
		echo "${out# }"
		;;
	fa_*_*)
		n=${1#fa_}
		echo "${n%_*}=${1##*_}"
		;;
	esac
}
