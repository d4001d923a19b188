/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Userspace and ns-3 only: the tunables of fa_params.h as an X-macro, for
 * hosts that generate code per tunable (ns-3 attributes, fastctl tables).
 * Not compiled into the kernel module.  tests/test_law.c checks that it
 * agrees with fa_param_descs[] row for row.
 *
 * FA_PARAM_TABLE(X) calls X(name, default, min, max, help) for each.
 */
#ifndef _FA_PARAMS_TABLE_H
#define _FA_PARAMS_TABLE_H

#include "fa_params.h"

#define FA_PARAM_X(X, name, NAME) \
	X(name, NAME##_DEFAULT, NAME##_MIN, NAME##_MAX, NAME##_HELP)

#define FA_PARAM_TABLE(X)		\
	FA_PARAM_X(X, alpha_pkts, FA_ALPHA_PKTS)	\
	FA_PARAM_X(X, gamma_min, FA_GAMMA_MIN)	\
	FA_PARAM_X(X, gamma_max, FA_GAMMA_MAX)	\
	FA_PARAM_X(X, gamma_fixed, FA_GAMMA_FIXED)	\
	FA_PARAM_X(X, gain_k, FA_GAIN_K)	\
	FA_PARAM_X(X, ss_exit_pkts, FA_SS_EXIT_PKTS)	\
	FA_PARAM_X(X, ss_delay_us, FA_SS_DELAY_US)	\
	FA_PARAM_X(X, update_rtts, FA_UPDATE_RTTS)	\
	FA_PARAM_X(X, adaptive_gain, FA_ADAPTIVE_GAIN)	\
	FA_PARAM_X(X, adaptive_ss, FA_ADAPTIVE_SS)	\
	FA_PARAM_X(X, base_win_ms, FA_BASE_WIN_MS)	\
	FA_PARAM_X(X, pacing, FA_PACING)	\
	FA_PARAM_X(X, ramp, FA_RAMP)	\
	FA_PARAM_X(X, own_queue, FA_OWN_QUEUE)	\
	FA_PARAM_X(X, route_rounds, FA_ROUTE_ROUNDS)	\
	FA_PARAM_X(X, quick_probe, FA_QUICK_PROBE)	\
	FA_PARAM_X(X, drain_check, FA_DRAIN_CHECK)	\
	FA_PARAM_X(X, jitter_us, FA_JITTER_US)	\
	FA_PARAM_X(X, short_probe, FA_SHORT_PROBE)	\
	FA_PARAM_X(X, shorter_path, FA_SHORTER_PATH)	\
	FA_PARAM_X(X, random_loss, FA_RANDOM_LOSS)	\
	FA_PARAM_X(X, queue_fit, FA_QUEUE_FIT)	\
	FA_PARAM_X(X, compete, FA_COMPETE)	\
	FA_PARAM_X(X, overshoot, FA_OVERSHOOT)	\
	FA_PARAM_X(X, compete_moves, FA_COMPETE_MOVES)	\
	FA_PARAM_X(X, compete_trend, FA_COMPETE_TREND)	\
	FA_PARAM_X(X, compete_start, FA_COMPETE_START)	\
	FA_PARAM_X(X, compete_rise, FA_COMPETE_RISE)	\
	FA_PARAM_X(X, early_restore, FA_EARLY_RESTORE)	\
	FA_PARAM_X(X, fit_hold, FA_FIT_HOLD)	\
	FA_PARAM_X(X, fit_low, FA_FIT_LOW)	\
	FA_PARAM_X(X, fit_noise, FA_FIT_NOISE)	\
	FA_PARAM_X(X, restore_pace, FA_RESTORE_PACE)	\
	FA_PARAM_X(X, ramp_double, FA_RAMP_DOUBLE)	\
	FA_PARAM_X(X, probe_mean, FA_PROBE_MEAN)	\
	FA_PARAM_X(X, probe_pause, FA_PROBE_PAUSE)	\
	FA_PARAM_X(X, path_settle, FA_PATH_SETTLE)	\
	FA_PARAM_X(X, ramp_scatter, FA_RAMP_SCATTER)	\
	FA_PARAM_X(X, compete_refill, FA_COMPETE_REFILL)	\
	FA_PARAM_X(X, compete_quit, FA_COMPETE_QUIT)	\
	FA_PARAM_X(X, compete_adopt, FA_COMPETE_ADOPT)	\
	FA_PARAM_X(X, compete_recheck, FA_COMPETE_RECHECK)	\
	FA_PARAM_X(X, compete_keep, FA_COMPETE_KEEP)	\
	FA_PARAM_X(X, fit_regrow, FA_FIT_REGROW)	\
	FA_PARAM_X(X, join_reprobe, FA_JOIN_REPROBE)

#endif /* _FA_PARAMS_TABLE_H */
