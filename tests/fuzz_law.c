// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer target for the fast_adaptive law, built with UBSan and ASan.
 *
 * The input picks raw (unsanitized) tunables and then drives one flow
 * through a sequence of events exactly as a host does: RTT samples, round
 * ends, slow-start checks, ACK growth, loss, undo and idle restarts.  After
 * every step it checks the invariants every host relies on; any violation,
 * or any undefined behaviour UBSan sees, aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fast_adaptive/fa_law.h"

struct reader {
	const uint8_t *p;
	size_t n;
};

static u32 take32(struct reader *r)
{
	u32 v = 0;
	size_t i;

	for (i = 0; i < 4 && r->n; i++, r->p++, r->n--)
		v |= (u32)r->p[0] << (8 * i);
	return v;
}

static u8 take8(struct reader *r)
{
	u8 v;

	if (!r->n)
		return 0;
	v = r->p[0];
	r->p++;
	r->n--;
	return v;
}

#define ASSERT(c) do { if (!(c)) abort(); } while (0)

static void check_update(const struct fa_params *p, const struct fa_update *u)
{
	unsigned __int128 b, t;
	u32 w = u->cwnd < 1 ? 1 : (u->cwnd > FA_CWND_MAX ? FA_CWND_MAX : u->cwnd);

	ASSERT(u->base_rtt_us >= 1 && u->base_rtt_us <= u->avg_rtt_us);
	b = (unsigned __int128)w * (u->avg_rtt_us - u->base_rtt_us) * 1024 /
	    u->avg_rtt_us;
	t = (unsigned __int128)w * u->base_rtt_us / u->avg_rtt_us + p->alpha_pkts;
	ASSERT(u->backlog_q10 == (u64)b);
	ASSERT(u->target == (u32)t);
	ASSERT(u->gamma >= (p->adaptive_gain ? p->gamma_min : 1));
	ASSERT(u->gamma <= (p->adaptive_gain ? p->gamma_max : FA_ONE));
	ASSERT(u->cwnd_out >= FA_CWND_MIN && u->cwnd_out <= FA_CWND_MAX);
	ASSERT((u64)u->cwnd_out <= 2ULL * w || u->cwnd_out == FA_CWND_MIN);
	if (!u->cwnd_limited)
		ASSERT(u->cwnd_out <= w || u->cwnd_out == FA_CWND_MIN);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reader r = { data, size };
	struct fa_state s;
	struct fa_params p;
	struct fa_update u;
	u32 now, cwnd = 10;
	int steps = 0;

	p.alpha_pkts = take32(&r);
	p.gamma_min = take32(&r);
	p.gamma_max = take32(&r);
	p.gamma_fixed = take32(&r);
	p.gain_k = take32(&r);
	p.ss_exit_pkts = take32(&r);
	p.ss_delay_us = take32(&r);
	p.update_rtts = take8(&r);
	p.adaptive_gain = take8(&r);
	p.adaptive_ss = take8(&r);
	p.base_win_ms = take32(&r);
	p.pacing = take8(&r);
	p.ramp = take8(&r);
	p.own_queue = take8(&r);
	p.route_rounds = take8(&r);
	p.quick_probe = take8(&r);
	p.drain_check = take8(&r);
	p.jitter_us = take32(&r);
	p.short_probe = take32(&r);
	p.shorter_path = take32(&r);
	p.random_loss = take32(&r);
	p.queue_fit = take32(&r);
	p.compete = take32(&r);
	p.overshoot = take8(&r);
	p.compete_moves = take8(&r);
	p.compete_trend = take8(&r);
	p.compete_start = take8(&r);
	p.compete_rise = take8(&r);
	p.early_restore = take8(&r);
	p.fit_hold = take8(&r);
	p.fit_low = take8(&r);
	p.fit_noise = take8(&r);
	p.restore_pace = take8(&r);
	p.ramp_double = take8(&r);
	p.probe_mean = take8(&r);
	p.probe_pause = take8(&r);
	p.path_settle = take8(&r);
	p.ramp_scatter = take8(&r);
	p.compete_refill = take8(&r);
	p.compete_quit = take8(&r);
	p.compete_adopt = take8(&r);
	p.compete_recheck = take8(&r);
	p.compete_keep = take8(&r);
	p.fit_regrow = take8(&r);
	p.join_reprobe = take8(&r);
	fa_params_sanitize(&p);
	ASSERT(p.gamma_min >= 1 && p.gamma_min <= p.gamma_max &&
	       p.gamma_max <= FA_ONE &&
	       fa_ss_exit_pkts(&p, take32(&r)) >= 1);

	now = take32(&r);
	fa_init(&s, now);
	while (r.n && steps++ < 4096) {
		u8 op = take8(&r);
		u32 v = take32(&r);
		bool limited = op & 0x80;
		enum fa_action act;

		now += v & 0xfffff;
		switch (op & 7) {
		case 0:
		case 1:
			fa_rtt_sample(&s, (s32)v, now);
			ASSERT(s.base_rtt_us == FA_RTT_NONE ||
			       (s.base_rtt_us >= 1 &&
				s.base_rtt_us <= FA_RTT_MAX_US));
			break;
		case 2: {
			/* the law runs with alpha as queue_fit capped it */
			struct fa_params fit;
			const struct fa_params *pe = fa_fit_params(&s, &p, &fit);

			act = fa_round_end(&s, &p, cwnd, op & 0x40, limited,
					   now, &u);
			if (act == FA_ACT_UPDATE)
				check_update(pe, &u);
			cwnd = fa_apply(act, cwnd, &u);
			ASSERT(cwnd >= 1);
			/* ssthresh follows the window, but for a ramp */
			if (act == FA_ACT_RAMP)
				ASSERT(p.ramp && limited &&
				       fa_ssthresh_for(&s, act, cwnd) > cwnd &&
				       s.phase == FA_PHASE_RAMP);
			else if (act == FA_ACT_PROBE_END &&
				 s.phase == FA_PHASE_RAMP)
				/* a longer path was adopted: ramp from there */
				ASSERT(p.ramp &&
				       fa_ssthresh_for(&s, act, cwnd) >= cwnd);
			else if (act == FA_ACT_PROBE_END &&
				 s.phase == FA_PHASE_COMPETE)
				/*
				 * competing: at most one doubling, then AIMD;
				 * with compete_start, a slow start to a loss,
				 * and with compete_refill after an exit test
				 */
				ASSERT(p.compete &&
				       (fa_ssthresh_for(&s, act, cwnd) == cwnd ||
					fa_ssthresh_for(&s, act, cwnd) ==
					(p.compete_start ? FA_CWND_MAX :
					 2 * fa_min_u32(cwnd, FA_CWND_MAX >> 1)) ||
					(p.compete_refill &&
					 fa_ssthresh_for(&s, act, cwnd) == FA_CWND_MAX)));
			else
				ASSERT(fa_ssthresh_for(&s, act, cwnd) == cwnd);
			break;
		}
		case 3:
			if (fa_ss_exit(&s, &p, cwnd))
				fa_ss_done(&s);
			else if (cwnd < FA_CWND_MAX)
				cwnd++;
			break;
		case 4: {
			u32 before = cwnd;

			/* grows by at most acked, only up to the target */
			cwnd = fa_cwnd_on_ack(&s, cwnd, v & 0xffff, limited);
			ASSERT(cwnd >= before && cwnd - before <= (v & 0xffff));
			ASSERT(cwnd == before || (limited && cwnd <= s.target_cwnd));
			break;
		}
		case 5:
		{
			u32 b, kind, w, ret;

			fa_ack_ece(&s, op & 0x40);
			ret = fa_ssthresh(&s, &p, cwnd, &b, &kind);
			/* never above the host's window (PRR); the law keeps
			 * its target, which the checks below read
			 */
			ASSERT(ret == fa_min_u32(s.target_cwnd,
						 fa_max_u32(cwnd, FA_CWND_MIN)));
			cwnd = s.target_cwnd;
			w = s.prior_cwnd;	/* the window the loss found */
			ASSERT(cwnd >= FA_CWND_MIN && cwnd <= FA_CWND_MAX);
			switch (kind) {
			case FA_LOSS_CONGESTION:
			case FA_LOSS_ECN:
				/* halves; a CE echo always does */
				ASSERT(cwnd == fa_max_u32(w >> 1, FA_CWND_MIN));
				ASSERT((kind == FA_LOSS_ECN) == !!(op & 0x40));
				break;
			case FA_LOSS_RANDOM:
			case FA_LOSS_REPEAT:
			case FA_LOSS_MARK:
				/* a loss only below 3/2 alpha; a mark only with
				 * queue_fit, at any backlog
				 */
				ASSERT(kind == FA_LOSS_MARK ||
				       (kind == FA_LOSS_REPEAT && (op & 0x40)) ||
				       (u64)b * FA_LOSS_CONG_DEN <
				       (u64)p.alpha_pkts * FA_LOSS_CONG_NUM);
				ASSERT(kind == FA_LOSS_REPEAT ||
				       (kind == FA_LOSS_MARK) == !!(op & 0x40));
				ASSERT(kind != FA_LOSS_RANDOM || p.random_loss);
				ASSERT(kind != FA_LOSS_MARK || p.queue_fit);
				if (kind == FA_LOSS_RANDOM)
					w -= fa_min_u32(b, w);
				if (kind == FA_LOSS_MARK)
					w -= fa_min_u32(fa_max_u32(b, w >> 3),
							w >> 1);
				ASSERT(cwnd == fa_clamp_u32(w, FA_CWND_MIN,
							    FA_CWND_MAX));
				/* the next one in the round cuts nothing */
				ASSERT(s.flags & FA_F_CUT);
				/*
				 * alpha only ever fits down, not below alpha/4;
				 * fit_low: 3/4 of a backlog of alpha/4 or more
				 */
				ASSERT(!s.alpha_cap ||
				       s.alpha_cap >= (p.fit_low ?
						       fa_max_u32(fa_fit_floor(&p) * 3 / 4, 1) :
						       fa_fit_floor(&p)));
				break;
			case FA_LOSS_COMPETE:
				/* competing: AIMD's decrease, loss or mark */
				ASSERT(p.compete || s.phase == FA_PHASE_COMPETE);
				ASSERT(cwnd == fa_clamp_u32((u32)((u64)w * FA_COMP_MD_NUM /
								  FA_COMP_MD_DEN),
							    FA_CWND_MIN, FA_CWND_MAX));
				ASSERT(s.phase == FA_PHASE_COMPETE);
				break;
			default:
				ASSERT(0);
			}
			cwnd = ret;
			break;
		}
		case 6:
			if ((op & 0x60) == 0x60) {
				u32 before = cwnd, was = fa_probe_window(&s);

				/*
				 * probe_pause: a longer pause only lowers the
				 * window, by alpha or more, to the probe's new
				 * window, and keeps a quarter of the old one
				 */
				cwnd = fa_pause_longer(&s, &p, cwnd);
				ASSERT(cwnd <= before);
				ASSERT(cwnd == before ||
				       (p.probe_pause && s.phase == FA_PHASE_PROBE &&
					cwnd == fa_probe_window(&s) &&
					fa_probe_window(&s) + p.alpha_pkts <= was &&
					fa_probe_window(&s) >=
					s.probe_cwnd >> FA_PAUSE_KEEP_SHIFT));
				ASSERT(cwnd == before || fa_probe_window(&s) >= FA_CWND_MIN);
				break;
			}
			if (op & 0x40) {
				u32 before = cwnd;

				/*
				 * early_restore: only raises a probe's window,
				 * once fewer than it are in flight (FA_CWND_MIN,
				 * or a pause's window)
				 */
				cwnd = fa_probe_drained(&s, &p, cwnd, v & 0xff);
				ASSERT(cwnd >= before);
				ASSERT(cwnd == before ||
				       (cwnd <= FA_CWND_MAX && p.early_restore &&
					s.phase == FA_PHASE_PROBE &&
					before <= fa_probe_window(&s) &&
					(v & 0xff) < fa_probe_window(&s)));
				ASSERT(s.phase != FA_PHASE_PROBE ||
				       fa_probe_window(&s) >= FA_CWND_MIN);
				break;
			}
			cwnd = fa_undo(&s, cwnd);
			break;
		case 7:
			if (op & 0x40)
				fa_tx_start(&s, v >> 8, now);
			else
				cwnd = v ? v : 1;
			break;
		}
		fa_law(&p, cwnd, v >> 1, (v >> 1) + (now & 0xffff), limited,
		       &u);
		check_update(&p, &u);
	}
	return 0;
}
