// SPDX-License-Identifier: GPL-2.0
/*
 * fast_adaptive: FAST TCP with a backlog-based slow-start exit and an
 * adaptive control-law gain.
 *
 * FAST TCP (Jin, Wei and Low) is a delay-based congestion control: each flow
 * aims to keep alpha packets of its own queued at the bottleneck, and once
 * per update period moves its window toward
 *	w base_rtt / avg_rtt + alpha
 * with gain gamma.  At equilibrium the link is full and the queue holds
 * N * alpha packets for N flows, whatever the link rate.
 *
 * The improvements come from "an improved FAST TCP for personalized medical
 * systems" (Wireless Communications and Mobile Computing, 2021):
 *  1. slow start ends when the flow's own backlog reaches ss_exit_pkts
 *     packets, rather than at a queueing delay in seconds, which is a
 *     different number of packets at every link rate;
 *  2. gamma is chosen per update from the flow's normalised distance to
 *     equilibrium, |backlog - alpha| / alpha: large far away for fast
 *     convergence, small near equilibrium to avoid overshoot and jitter.
 * adaptive_gain=0 adaptive_ss=0 gives classic FAST for comparison.
 *
 * The law itself lives in include/fast_adaptive/fa_law.h, shared with the
 * userspace tests and the ns-3 model; this file is the kernel glue: it finds
 * round boundaries (as Vegas does, by snd_nxt), feeds RTT samples, applies
 * the windows the law returns, and exports state and tunables.
 *
 * A loss that finds the flow's backlog small cuts only that backlog, one
 * with a larger backlog or an ECN echo halves the window as Reno does (see
 * fa_law.h, "Loss"); the kernel's PRR and undo machinery run recovery;
 * cong_avoid is not called meanwhile.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/inet_diag.h>
#include <net/tcp.h>

#include "fast_adaptive/fa_compat.h"
#include "fast_adaptive/fa_law.h"
#include "uapi/linux/tcp_fast_adaptive.h"

#define CREATE_TRACE_POINTS
#include "tcp_fast_adaptive_trace.h"

/* Per-socket state, in inet_csk_ca(sk). */
struct fa_sock {
	struct fa_state law;
	u32 round_end_seq;	/* a round ends when this is acked */
};

/*
 * Tunables: one range-checked module parameter per row of fa_params.h.
 * Writes are serialised by the module's kernel_param_lock; readers take a
 * snapshot with READ_ONCE() and fa_params_sanitize() it, so that a reader
 * racing two writes still sees gamma_min <= gamma_max.
 */
static unsigned int fa_tunables[FA_P_COUNT] = {
	[FA_P_ALPHA_PKTS]	= FA_ALPHA_PKTS_DEFAULT,
	[FA_P_GAMMA_MIN]	= FA_GAMMA_MIN_DEFAULT,
	[FA_P_GAMMA_MAX]	= FA_GAMMA_MAX_DEFAULT,
	[FA_P_GAMMA_FIXED]	= FA_GAMMA_FIXED_DEFAULT,
	[FA_P_GAIN_K]		= FA_GAIN_K_DEFAULT,
	[FA_P_SS_EXIT_PKTS]	= FA_SS_EXIT_PKTS_DEFAULT,
	[FA_P_SS_DELAY_US]	= FA_SS_DELAY_US_DEFAULT,
	[FA_P_UPDATE_RTTS]	= FA_UPDATE_RTTS_DEFAULT,
	[FA_P_ADAPTIVE_GAIN]	= FA_ADAPTIVE_GAIN_DEFAULT,
	[FA_P_ADAPTIVE_SS]	= FA_ADAPTIVE_SS_DEFAULT,
	[FA_P_BASE_WIN_MS]	= FA_BASE_WIN_MS_DEFAULT,
	[FA_P_PACING]		= FA_PACING_DEFAULT,
	[FA_P_RAMP]		= FA_RAMP_DEFAULT,
	[FA_P_OWN_QUEUE]	= FA_OWN_QUEUE_DEFAULT,
	[FA_P_ROUTE_ROUNDS]	= FA_ROUTE_ROUNDS_DEFAULT,
	[FA_P_QUICK_PROBE]	= FA_QUICK_PROBE_DEFAULT,
	[FA_P_DRAIN_CHECK]	= FA_DRAIN_CHECK_DEFAULT,
	[FA_P_JITTER_US]	= FA_JITTER_US_DEFAULT,
	[FA_P_SHORT_PROBE]	= FA_SHORT_PROBE_DEFAULT,
	[FA_P_SHORTER_PATH]	= FA_SHORTER_PATH_DEFAULT,
	[FA_P_RANDOM_LOSS]	= FA_RANDOM_LOSS_DEFAULT,
	[FA_P_QUEUE_FIT]	= FA_QUEUE_FIT_DEFAULT,
	[FA_P_COMPETE]		= FA_COMPETE_DEFAULT,
	[FA_P_OVERSHOOT]	= FA_OVERSHOOT_DEFAULT,
	[FA_P_COMPETE_MOVES]	= FA_COMPETE_MOVES_DEFAULT,
	[FA_P_COMPETE_TREND]	= FA_COMPETE_TREND_DEFAULT,
	[FA_P_COMPETE_START]	= FA_COMPETE_START_DEFAULT,
	[FA_P_COMPETE_RISE]	= FA_COMPETE_RISE_DEFAULT,
	[FA_P_EARLY_RESTORE]	= FA_EARLY_RESTORE_DEFAULT,
	[FA_P_FIT_HOLD]		= FA_FIT_HOLD_DEFAULT,
	[FA_P_FIT_LOW]		= FA_FIT_LOW_DEFAULT,
	[FA_P_FIT_NOISE]	= FA_FIT_NOISE_DEFAULT,
	[FA_P_RESTORE_PACE]	= FA_RESTORE_PACE_DEFAULT,
	[FA_P_RAMP_DOUBLE]	= FA_RAMP_DOUBLE_DEFAULT,
	[FA_P_PROBE_MEAN]	= FA_PROBE_MEAN_DEFAULT,
	[FA_P_PROBE_PAUSE]	= FA_PROBE_PAUSE_DEFAULT,
	[FA_P_PATH_SETTLE]	= FA_PATH_SETTLE_DEFAULT,
	[FA_P_RAMP_SCATTER]	= FA_RAMP_SCATTER_DEFAULT,
	[FA_P_COMPETE_REFILL]	= FA_COMPETE_REFILL_DEFAULT,
	[FA_P_COMPETE_QUIT]	= FA_COMPETE_QUIT_DEFAULT,
	[FA_P_COMPETE_ADOPT]	= FA_COMPETE_ADOPT_DEFAULT,
	[FA_P_COMPETE_RECHECK]	= FA_COMPETE_RECHECK_DEFAULT,
	[FA_P_COMPETE_KEEP]	= FA_COMPETE_KEEP_DEFAULT,
	[FA_P_FIT_REGROW]	= FA_FIT_REGROW_DEFAULT,
	[FA_P_JOIN_REPROBE]	= FA_JOIN_REPROBE_DEFAULT,
};

static unsigned int fa_tunable_get(enum fa_param_id id)
{
	return READ_ONCE(fa_tunables[id]);
}

static enum fa_param_id fa_param_id_of(const struct kernel_param *kp)
{
	return (unsigned int *)kp->arg - fa_tunables;
}

static int fa_param_set(const char *val, const struct kernel_param *kp)
{
	enum fa_param_id id = fa_param_id_of(kp);
	const struct fa_param_desc *d = &fa_param_descs[id];
	unsigned int v;

	/* Any parse error, ERANGE included, is a bad value: EINVAL. */
	if (kstrtouint(val, 10, &v) || v < d->min || v > d->max)
		return -EINVAL;
	if (id == FA_P_GAMMA_MIN && v > fa_tunable_get(FA_P_GAMMA_MAX))
		return -EINVAL;
	if (id == FA_P_GAMMA_MAX && v < fa_tunable_get(FA_P_GAMMA_MIN))
		return -EINVAL;
	WRITE_ONCE(fa_tunables[id], v);
	return 0;
}

static int fa_param_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%u\n", READ_ONCE(*(unsigned int *)kp->arg));
}

static const struct kernel_param_ops fa_param_ops = {
	.set = fa_param_set,
	.get = fa_param_get,
};

#define fa_module_param(name, id) \
	module_param_cb(name, &fa_param_ops, &fa_tunables[id], 0644)

fa_module_param(alpha_pkts, FA_P_ALPHA_PKTS);
MODULE_PARM_DESC(alpha_pkts, FA_PARAM_DESC(FA_ALPHA_PKTS));
fa_module_param(gamma_min, FA_P_GAMMA_MIN);
MODULE_PARM_DESC(gamma_min, FA_PARAM_DESC(FA_GAMMA_MIN));
fa_module_param(gamma_max, FA_P_GAMMA_MAX);
MODULE_PARM_DESC(gamma_max, FA_PARAM_DESC(FA_GAMMA_MAX));
fa_module_param(gamma_fixed, FA_P_GAMMA_FIXED);
MODULE_PARM_DESC(gamma_fixed, FA_PARAM_DESC(FA_GAMMA_FIXED));
fa_module_param(gain_k, FA_P_GAIN_K);
MODULE_PARM_DESC(gain_k, FA_PARAM_DESC(FA_GAIN_K));
fa_module_param(ss_exit_pkts, FA_P_SS_EXIT_PKTS);
MODULE_PARM_DESC(ss_exit_pkts, FA_PARAM_DESC(FA_SS_EXIT_PKTS));
fa_module_param(ss_delay_us, FA_P_SS_DELAY_US);
MODULE_PARM_DESC(ss_delay_us, FA_PARAM_DESC(FA_SS_DELAY_US));
fa_module_param(update_rtts, FA_P_UPDATE_RTTS);
MODULE_PARM_DESC(update_rtts, FA_PARAM_DESC(FA_UPDATE_RTTS));
fa_module_param(adaptive_gain, FA_P_ADAPTIVE_GAIN);
MODULE_PARM_DESC(adaptive_gain, FA_PARAM_DESC(FA_ADAPTIVE_GAIN));
fa_module_param(adaptive_ss, FA_P_ADAPTIVE_SS);
MODULE_PARM_DESC(adaptive_ss, FA_PARAM_DESC(FA_ADAPTIVE_SS));
fa_module_param(base_win_ms, FA_P_BASE_WIN_MS);
MODULE_PARM_DESC(base_win_ms, FA_PARAM_DESC(FA_BASE_WIN_MS));
fa_module_param(pacing, FA_P_PACING);
MODULE_PARM_DESC(pacing, FA_PARAM_DESC(FA_PACING));
fa_module_param(ramp, FA_P_RAMP);
MODULE_PARM_DESC(ramp, FA_PARAM_DESC(FA_RAMP));
fa_module_param(own_queue, FA_P_OWN_QUEUE);
MODULE_PARM_DESC(own_queue, FA_PARAM_DESC(FA_OWN_QUEUE));
fa_module_param(route_rounds, FA_P_ROUTE_ROUNDS);
MODULE_PARM_DESC(route_rounds, FA_PARAM_DESC(FA_ROUTE_ROUNDS));
fa_module_param(quick_probe, FA_P_QUICK_PROBE);
MODULE_PARM_DESC(quick_probe, FA_PARAM_DESC(FA_QUICK_PROBE));
fa_module_param(drain_check, FA_P_DRAIN_CHECK);
MODULE_PARM_DESC(drain_check, FA_PARAM_DESC(FA_DRAIN_CHECK));
fa_module_param(jitter_us, FA_P_JITTER_US);
MODULE_PARM_DESC(jitter_us, FA_PARAM_DESC(FA_JITTER_US));
fa_module_param(short_probe, FA_P_SHORT_PROBE);
MODULE_PARM_DESC(short_probe, FA_PARAM_DESC(FA_SHORT_PROBE));
fa_module_param(shorter_path, FA_P_SHORTER_PATH);
MODULE_PARM_DESC(shorter_path, FA_PARAM_DESC(FA_SHORTER_PATH));
fa_module_param(random_loss, FA_P_RANDOM_LOSS);
MODULE_PARM_DESC(random_loss, FA_PARAM_DESC(FA_RANDOM_LOSS));
fa_module_param(queue_fit, FA_P_QUEUE_FIT);
MODULE_PARM_DESC(queue_fit, FA_PARAM_DESC(FA_QUEUE_FIT));
fa_module_param(compete, FA_P_COMPETE);
MODULE_PARM_DESC(compete, FA_PARAM_DESC(FA_COMPETE));
fa_module_param(overshoot, FA_P_OVERSHOOT);
MODULE_PARM_DESC(overshoot, FA_PARAM_DESC(FA_OVERSHOOT));
fa_module_param(compete_moves, FA_P_COMPETE_MOVES);
MODULE_PARM_DESC(compete_moves, FA_PARAM_DESC(FA_COMPETE_MOVES));
fa_module_param(compete_trend, FA_P_COMPETE_TREND);
MODULE_PARM_DESC(compete_trend, FA_PARAM_DESC(FA_COMPETE_TREND));
fa_module_param(compete_start, FA_P_COMPETE_START);
MODULE_PARM_DESC(compete_start, FA_PARAM_DESC(FA_COMPETE_START));
fa_module_param(compete_rise, FA_P_COMPETE_RISE);
MODULE_PARM_DESC(compete_rise, FA_PARAM_DESC(FA_COMPETE_RISE));
fa_module_param(early_restore, FA_P_EARLY_RESTORE);
MODULE_PARM_DESC(early_restore, FA_PARAM_DESC(FA_EARLY_RESTORE));
fa_module_param(fit_hold, FA_P_FIT_HOLD);
MODULE_PARM_DESC(fit_hold, FA_PARAM_DESC(FA_FIT_HOLD));
fa_module_param(fit_low, FA_P_FIT_LOW);
MODULE_PARM_DESC(fit_low, FA_PARAM_DESC(FA_FIT_LOW));
fa_module_param(fit_noise, FA_P_FIT_NOISE);
MODULE_PARM_DESC(fit_noise, FA_PARAM_DESC(FA_FIT_NOISE));
fa_module_param(restore_pace, FA_P_RESTORE_PACE);
MODULE_PARM_DESC(restore_pace, FA_PARAM_DESC(FA_RESTORE_PACE));
fa_module_param(ramp_double, FA_P_RAMP_DOUBLE);
MODULE_PARM_DESC(ramp_double, FA_PARAM_DESC(FA_RAMP_DOUBLE));
fa_module_param(probe_mean, FA_P_PROBE_MEAN);
MODULE_PARM_DESC(probe_mean, FA_PARAM_DESC(FA_PROBE_MEAN));
fa_module_param(probe_pause, FA_P_PROBE_PAUSE);
MODULE_PARM_DESC(probe_pause, FA_PARAM_DESC(FA_PROBE_PAUSE));
fa_module_param(path_settle, FA_P_PATH_SETTLE);
MODULE_PARM_DESC(path_settle, FA_PARAM_DESC(FA_PATH_SETTLE));
fa_module_param(ramp_scatter, FA_P_RAMP_SCATTER);
MODULE_PARM_DESC(ramp_scatter, FA_PARAM_DESC(FA_RAMP_SCATTER));
fa_module_param(compete_refill, FA_P_COMPETE_REFILL);
MODULE_PARM_DESC(compete_refill, FA_PARAM_DESC(FA_COMPETE_REFILL));
fa_module_param(compete_quit, FA_P_COMPETE_QUIT);
MODULE_PARM_DESC(compete_quit, FA_PARAM_DESC(FA_COMPETE_QUIT));
fa_module_param(compete_adopt, FA_P_COMPETE_ADOPT);
MODULE_PARM_DESC(compete_adopt, FA_PARAM_DESC(FA_COMPETE_ADOPT));
fa_module_param(compete_recheck, FA_P_COMPETE_RECHECK);
MODULE_PARM_DESC(compete_recheck, FA_PARAM_DESC(FA_COMPETE_RECHECK));
fa_module_param(compete_keep, FA_P_COMPETE_KEEP);
MODULE_PARM_DESC(compete_keep, FA_PARAM_DESC(FA_COMPETE_KEEP));
fa_module_param(fit_regrow, FA_P_FIT_REGROW);
MODULE_PARM_DESC(fit_regrow, FA_PARAM_DESC(FA_FIT_REGROW));
fa_module_param(join_reprobe, FA_P_JOIN_REPROBE);
MODULE_PARM_DESC(join_reprobe, FA_PARAM_DESC(FA_JOIN_REPROBE));

static void tcp_fa_params_read(struct fa_params *p)
{
	p->alpha_pkts = fa_tunable_get(FA_P_ALPHA_PKTS);
	p->gamma_min = fa_tunable_get(FA_P_GAMMA_MIN);
	p->gamma_max = fa_tunable_get(FA_P_GAMMA_MAX);
	p->gamma_fixed = fa_tunable_get(FA_P_GAMMA_FIXED);
	p->gain_k = fa_tunable_get(FA_P_GAIN_K);
	p->ss_exit_pkts = fa_tunable_get(FA_P_SS_EXIT_PKTS);
	p->ss_delay_us = fa_tunable_get(FA_P_SS_DELAY_US);
	p->update_rtts = fa_tunable_get(FA_P_UPDATE_RTTS);
	p->adaptive_gain = fa_tunable_get(FA_P_ADAPTIVE_GAIN);
	p->adaptive_ss = fa_tunable_get(FA_P_ADAPTIVE_SS);
	p->base_win_ms = fa_tunable_get(FA_P_BASE_WIN_MS);
	p->pacing = fa_tunable_get(FA_P_PACING);
	p->ramp = fa_tunable_get(FA_P_RAMP);
	p->own_queue = fa_tunable_get(FA_P_OWN_QUEUE);
	p->route_rounds = fa_tunable_get(FA_P_ROUTE_ROUNDS);
	p->quick_probe = fa_tunable_get(FA_P_QUICK_PROBE);
	p->drain_check = fa_tunable_get(FA_P_DRAIN_CHECK);
	p->jitter_us = fa_tunable_get(FA_P_JITTER_US);
	p->short_probe = fa_tunable_get(FA_P_SHORT_PROBE);
	p->shorter_path = fa_tunable_get(FA_P_SHORTER_PATH);
	p->random_loss = fa_tunable_get(FA_P_RANDOM_LOSS);
	p->queue_fit = fa_tunable_get(FA_P_QUEUE_FIT);
	p->compete = fa_tunable_get(FA_P_COMPETE);
	p->overshoot = fa_tunable_get(FA_P_OVERSHOOT);
	p->compete_moves = fa_tunable_get(FA_P_COMPETE_MOVES);
	p->compete_trend = fa_tunable_get(FA_P_COMPETE_TREND);
	p->compete_start = fa_tunable_get(FA_P_COMPETE_START);
	p->compete_rise = fa_tunable_get(FA_P_COMPETE_RISE);
	p->early_restore = fa_tunable_get(FA_P_EARLY_RESTORE);
	p->fit_hold = fa_tunable_get(FA_P_FIT_HOLD);
	p->fit_low = fa_tunable_get(FA_P_FIT_LOW);
	p->fit_noise = fa_tunable_get(FA_P_FIT_NOISE);
	p->restore_pace = fa_tunable_get(FA_P_RESTORE_PACE);
	p->ramp_double = fa_tunable_get(FA_P_RAMP_DOUBLE);
	p->probe_mean = fa_tunable_get(FA_P_PROBE_MEAN);
	p->probe_pause = fa_tunable_get(FA_P_PROBE_PAUSE);
	p->path_settle = fa_tunable_get(FA_P_PATH_SETTLE);
	p->ramp_scatter = fa_tunable_get(FA_P_RAMP_SCATTER);
	p->compete_refill = fa_tunable_get(FA_P_COMPETE_REFILL);
	p->compete_quit = fa_tunable_get(FA_P_COMPETE_QUIT);
	p->compete_adopt = fa_tunable_get(FA_P_COMPETE_ADOPT);
	p->compete_recheck = fa_tunable_get(FA_P_COMPETE_RECHECK);
	p->compete_keep = fa_tunable_get(FA_P_COMPETE_KEEP);
	p->fit_regrow = fa_tunable_get(FA_P_FIT_REGROW);
	p->join_reprobe = fa_tunable_get(FA_P_JOIN_REPROBE);
	fa_params_sanitize(p);
}

static u32 fa_now_us(const struct tcp_sock *tp)
{
	/* The law keeps times in u32 us and compares them wrap-safely. */
	return (u32)tp->tcp_mstamp;
}

static void fa_set_cwnd(struct tcp_sock *tp, u32 cwnd)
{
	tcp_snd_cwnd_set(tp, clamp(cwnd, FA_CWND_MIN, tp->snd_cwnd_clamp));
}

static void tcp_fa_init(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct fa_sock *ca = inet_csk_ca(sk);

	fa_init(&ca->law, fa_now_us(tp));
	ca->round_end_seq = tp->snd_nxt;
	/*
	 * Unpaced, slow start sends line-rate trains whose own transient
	 * queue would end it early; paced (as BBR asks), the backlog the
	 * exit rule measures is the standing one.
	 */
	if (fa_tunable_get(FA_P_PACING))
		cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE,
			SK_PACING_NEEDED);
}

static void tcp_fa_pkts_acked(struct sock *sk, const struct ack_sample *sample)
{
	struct fa_sock *ca = inet_csk_ca(sk);

	fa_rtt_sample(&ca->law, sample->rtt_us, fa_now_us(tcp_sk(sk)));
}

/*
 * Is the window in use?  The stack's answer (tcp_is_cwnd_limited) is no
 * when a pacer, not the window, holds the data back: with internal pacing
 * tcp_write_xmit() stops at the pacing timer before the window is full, and
 * under emulation or with coarse timers the achieved rate stays below the
 * 1.2 cwnd / srtt the stack asks for.  The law then never grows (8.8 against
 * 29.6 Mbit/s unpaced under QEMU TCG).  A paced flow with data queued that
 * the receiver's window would take is limited by the sender, not by the
 * application, so it counts as using its window; as the stack does in slow
 * start, only while the window is less than twice the flight, so that a
 * pacer that cannot keep up does not inflate the window without bound.
 */
static bool tcp_fa_window_used(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	const struct sk_buff *skb;

	if (tcp_is_cwnd_limited(sk))
		return true;
	if (READ_ONCE(sk->sk_pacing_status) == SK_PACING_NONE)
		return false;
	skb = tcp_send_head(sk);
	return skb && !after(TCP_SKB_CB(skb)->end_seq, tcp_wnd_end(tp)) &&
	       tcp_snd_cwnd(tp) < 2 * tp->packets_out;
}

/*
 * restore_pace (fa_params.h): a probe gave back a window far larger than the
 * flight.  Take the stack's internal pacer for it, unless the socket is
 * paced already (the pacing tunable, or fq's SK_PACING_FQ); the stack then
 * sends at sk_pacing_rate, which tcp_update_pacing_rate() sets from this
 * window after every ACK.
 */
static void tcp_fa_pace_restore(struct sock *sk, const struct fa_params *p)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct fa_sock *ca = inet_csk_ca(sk);

	if (fa_pace_restore_due(&ca->law, p, tcp_snd_cwnd(tp),
				tcp_packets_in_flight(tp)) &&
	    cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE,
		    SK_PACING_NEEDED) == SK_PACING_NONE)
		ca->law.pace_restore = 1;
}

/* Give the pacer back: the window is in flight, or the flow is done with it. */
static void tcp_fa_pace_release(struct sock *sk)
{
	struct fa_sock *ca = inet_csk_ca(sk);

	if (!ca->law.pace_restore)
		return;
	ca->law.pace_restore = 0;
	cmpxchg(&sk->sk_pacing_status, SK_PACING_NEEDED, SK_PACING_NONE);
}

/* Slow start: the law's exit rule per ACK, else double per round. */
static void tcp_fa_slow_start(struct sock *sk, const struct fa_params *p,
			      u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct fa_sock *ca = inet_csk_ca(sk);
	u32 cwnd = tcp_snd_cwnd(tp);
	int rule;

	if (fa_ss_exit(&ca->law, p, cwnd)) {
		tp->snd_ssthresh = cwnd;
		rule = p->adaptive_ss ? FA_SS_EXIT_BACKLOG : FA_SS_EXIT_DELAY;
	} else {
		tcp_slow_start(tp, acked);
		if (tcp_in_slow_start(tp))
			return;
		rule = FA_SS_EXIT_SSTHRESH;
	}
	fa_ss_done(&ca->law);
	trace_ss_exit(sk, &ca->law, p, tcp_snd_cwnd(tp), rule);
}

static void tcp_fa_cong_avoid(struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct fa_sock *ca = inet_csk_ca(sk);
	bool cwnd_limited = tcp_fa_window_used(sk);
	bool round_end = after(ack, ca->round_end_seq);
	bool have_p = round_end || tcp_in_slow_start(tp);
	struct fa_params p;
	u32 cwnd;

	if (have_p)
		tcp_fa_params_read(&p);

	if (fa_pace_restore_done(&ca->law, tcp_snd_cwnd(tp),
				 tcp_packets_in_flight(tp)))
		tcp_fa_pace_release(sk);

	if (round_end) {
		bool probing = ca->law.phase == FA_PHASE_PROBE;
		bool competing = fa_competing(&ca->law);
		/* what the probe read, for fast_adaptive:probe at its end */
		u32 pmin = ca->law.probe_min_us, pn = ca->law.cycle_samples;
		u32 pmean = probing ? fa_cycle_mean(&ca->law) : 0;
		struct fa_update u;
		enum fa_action act;

		ca->round_end_seq = tp->snd_nxt;
		act = fa_round_end(&ca->law, &p, tcp_snd_cwnd(tp),
				   tcp_in_slow_start(tp), cwnd_limited,
				   fa_now_us(tp), &u);
		if (act == FA_ACT_UPDATE)
			trace_update(sk, &p, &u);
		if (competing != fa_competing(&ca->law))
			trace_mode(sk, &ca->law, tcp_snd_cwnd(tp));
		if (act != FA_ACT_NONE) {
			fa_set_cwnd(tp, fa_apply(act, tcp_snd_cwnd(tp), &u));
			/*
			 * The law owns the window now: ssthresh follows it,
			 * or a window it lowered (or a probe's) would put the
			 * flow back in slow start, regrowing what it took;
			 * only a ramp re-enters slow start on purpose.
			 */
			tp->snd_ssthresh = fa_ssthresh_for(&ca->law, act,
							   tcp_snd_cwnd(tp));
			if (probing && ca->law.phase != FA_PHASE_PROBE)
				tcp_fa_pace_restore(sk, &p);
			if (act == FA_ACT_PROBE_START)
				trace_probe(sk, &ca->law, FA_PROBE_EV_START,
					    tcp_snd_cwnd(tp),
					    ca->law.probe_min_us, 0, 0);
			else if (act == FA_ACT_PROBE_END)
				trace_probe(sk, &ca->law, FA_PROBE_EV_END,
					    tcp_snd_cwnd(tp), pmin, pmean, pn);
		}
	}

	/*
	 * early_restore: the old flight is acknowledged and the next packet
	 * sent is the one the probe reads; the window comes back with it.
	 * The tunables are read only at that ACK, not at every ACK of the
	 * probe (fa_probe_drained() does nothing while the probe's window or
	 * more packets are in flight).
	 */
	if (fa_probe_pause_over(&ca->law, tcp_snd_cwnd(tp),
				tcp_packets_in_flight(tp))) {
		if (!have_p)
			tcp_fa_params_read(&p);
		/* probe_pause: the old flight's ACKs may ask for a longer pause */
		cwnd = fa_pause_longer(&ca->law, &p, tcp_snd_cwnd(tp));
		if (cwnd < tcp_snd_cwnd(tp)) {
			fa_set_cwnd(tp, cwnd);
			tp->snd_ssthresh = tcp_snd_cwnd(tp);
		}
		cwnd = fa_probe_drained(&ca->law, &p, tcp_snd_cwnd(tp),
					tcp_packets_in_flight(tp));
		if (cwnd != tcp_snd_cwnd(tp)) {
			fa_set_cwnd(tp, cwnd);
			tp->snd_ssthresh = tcp_snd_cwnd(tp);
			tcp_fa_pace_restore(sk, &p);
			trace_probe(sk, &ca->law, FA_PROBE_EV_RESTORE,
				    tcp_snd_cwnd(tp), ca->law.probe_min_us,
				    fa_cycle_mean(&ca->law), ca->law.cycle_samples);
		}
	}

	if (tcp_in_slow_start(tp)) {
		if (cwnd_limited)
			tcp_fa_slow_start(sk, &p, acked);
		return;
	}
	fa_set_cwnd(tp, fa_cwnd_on_ack(&ca->law, tcp_snd_cwnd(tp), acked,
				       cwnd_limited));
}

/*
 * Loss (recovery, RTO) or an ECE the stack answers with CWR: the law tells
 * a random loss from congestion by its backlog (fa_law.h, "Loss").  The
 * stack calls this once per recovery or CWR episode.
 */
static u32 tcp_fa_ssthresh(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct fa_sock *ca = inet_csk_ca(sk);
	u32 cwnd = tcp_snd_cwnd(tp), backlog, kind, ssthresh;
	bool competing = fa_competing(&ca->law);
	struct fa_params p;

	tcp_fa_params_read(&p);
	ssthresh = fa_ssthresh(&ca->law, &p, cwnd, &backlog, &kind);
	trace_loss(sk, &ca->law, cwnd, backlog, kind, ssthresh);
	if (competing != fa_competing(&ca->law))
		trace_mode(sk, &ca->law, cwnd);
	return ssthresh;
}

/* Each ACK: does it echo a CE mark?  A loss it reveals is then congestion. */
static void tcp_fa_in_ack_event(struct sock *sk, u32 flags)
{
	struct fa_sock *ca = inet_csk_ca(sk);

	fa_ack_ece(&ca->law, flags & CA_ACK_ECE);
}

static u32 tcp_fa_undo_cwnd(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct fa_sock *ca = inet_csk_ca(sk);

	return fa_undo(&ca->law, tcp_snd_cwnd(tp));
}

static void tcp_fa_cwnd_event(struct sock *sk, enum tcp_ca_event event)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct fa_sock *ca = inet_csk_ca(sk);

	if (event == CA_EVENT_TX_START) {
		/*
		 * lsndtime is still the previous send, rcv_tstamp the last
		 * ACK; in jiffies, so one tick less is a lower bound of the
		 * time the flow was idle.
		 */
		u32 idle = fa_silence(tcp_jiffies32, tp->lsndtime,
				      tp->rcv_tstamp);
		u32 idle_us = idle ? jiffies_to_usecs(idle - 1) : 0;

		if (fa_tx_start(&ca->law, idle_us, fa_now_us(tp)))
			ca->round_end_seq = tp->snd_nxt;
	}
}

static size_t tcp_fa_get_info(struct sock *sk, u32 ext, int *attr,
			      union tcp_cc_info *info)
{
	const struct fa_sock *ca = inet_csk_ca(sk);
	const struct fa_state *s = &ca->law;
	u32 secs = 0;

	if (!(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;

	if (s->phase == FA_PHASE_COMPETE)
		secs = fa_compete_secs(s, fa_now_us(tcp_sk(sk)),
				       FA_INFO_COMPETE_S_MAX);
	info->vegas.tcpv_enabled = FA_INFO_ENABLED |
				   secs << FA_INFO_COMPETE_S_SHIFT |
				   (u32)s->phase << FA_INFO_PHASE_SHIFT |
				   (u32)s->gamma << FA_INFO_GAMMA_SHIFT;
	info->vegas.tcpv_rttcnt = s->round_samples;
	info->vegas.tcpv_rtt = s->avg_rtt_us == FA_RTT_NONE ? 0 : s->avg_rtt_us;
	info->vegas.tcpv_minrtt = s->base_rtt_us == FA_RTT_NONE ?
				  0 : s->base_rtt_us;
	*attr = INET_DIAG_VEGASINFO;
	return sizeof(info->vegas);
}

static struct tcp_congestion_ops tcp_fast_adaptive __read_mostly = {
	.init		= tcp_fa_init,
	.release	= tcp_fa_pace_release,
	.ssthresh	= tcp_fa_ssthresh,
	.undo_cwnd	= tcp_fa_undo_cwnd,
	.cong_avoid	= tcp_fa_cong_avoid,
	.cwnd_event	= tcp_fa_cwnd_event,
	.in_ack_event	= tcp_fa_in_ack_event,
	.pkts_acked	= tcp_fa_pkts_acked,
	.get_info	= tcp_fa_get_info,

	.owner		= THIS_MODULE,
	.flags		= TCP_CONG_NON_RESTRICTED,
	.name		= FA_CC_NAME,
};

static int __init tcp_fa_register(void)
{
	BUILD_BUG_ON(sizeof(struct fa_sock) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(FA_PHASE_COMPETE != FA_INFO_PHASE_COMPETE);
	BUILD_BUG_ON(FA_SS_PROBE_UPDATES > FA_SS_UPDATES_MAX);
	return tcp_register_congestion_control(&tcp_fast_adaptive);
}

static void __exit tcp_fa_unregister(void)
{
	tcp_unregister_congestion_control(&tcp_fast_adaptive);
}

module_init(tcp_fa_register);
module_exit(tcp_fa_unregister);

MODULE_AUTHOR("fast_adaptive developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("FAST TCP with backlog slow-start exit and adaptive gain");
