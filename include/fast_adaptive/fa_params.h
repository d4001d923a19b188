/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The tunables of fast_adaptive, in one table.
 *
 * The kernel module turns each row into a range-checked module parameter
 * (/sys/module/tcp_fast_adaptive/parameters/NAME), fastctl uses the same rows
 * to reject bad values before it writes, the ns-3 model turns them into
 * attributes, and the unit tests check the law at the ends of each range.
 *
 * FA_PARAM(name, default, min, max, description)
 *
 * Gains are in 1/1024 units (FA_ONE): gamma_max = 1024 means a gain of 1.0.
 */
#ifndef _FA_PARAMS_H
#define _FA_PARAMS_H

/* Fixed-point unit of gamma_* and gain_k: 1.0 == 1024. */
#define FA_SHIFT	10
#define FA_ONE		(1U << FA_SHIFT)

#define FA_PARAM_TABLE(FA_PARAM)					\
	FA_PARAM(alpha_pkts, 20, 1, 65536,					\
		 "packets each flow keeps queued at equilibrium (alpha)")	\
	FA_PARAM(gamma_min, 256, 1, 1024,					\
		 "adaptive gain near equilibrium, 1/1024 units")		\
	FA_PARAM(gamma_max, 768, 1, 1024,					\
		 "adaptive gain far from equilibrium, 1/1024 units")		\
	FA_PARAM(gamma_fixed, 512, 1, 1024,					\
		 "fixed gain when adaptive_gain=0 (classic FAST), 1/1024 units") \
	FA_PARAM(gain_k, 2048, 1, 65536,					\
		 "slope k of gamma(e) = min + (max-min)(1-exp(-k e)), 1/1024 units") \
	FA_PARAM(ss_exit_pkts, 0, 0, 65536,					\
		 "leave slow start at this own backlog; 0 = alpha_pkts/2 (min 2)") \
	FA_PARAM(ss_delay_us, 750, 1, 10000000,				\
		 "classic slow-start exit queueing delay when adaptive_ss=0")	\
	FA_PARAM(update_rtts, 2, 1, 16,					\
		 "RTTs between two window updates of the control law")		\
	FA_PARAM(adaptive_gain, 1, 0, 1,					\
		 "1: gain adapts to |backlog-alpha|/alpha; 0: gamma_fixed")	\
	FA_PARAM(adaptive_ss, 1, 0, 1,						\
		 "1: slow start ends on own backlog; 0: on ss_delay_us")	\
	FA_PARAM(base_win_ms, 2000, 100, 60000,				\
		 "window after which a base RTT that looks stale is probed")

#endif /* _FA_PARAMS_H */
