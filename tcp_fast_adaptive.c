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
 * Loss is handled like Reno: the window halves and the kernel's PRR and
 * undo machinery run recovery; cong_avoid is not called meanwhile.
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
struct fa_tunable {
	unsigned int val;
	unsigned int min;
	unsigned int max;
};

enum {
#define FA_TUNABLE_ENUM(name, def, lo, hi, desc) FA_T_##name,
	FA_PARAM_TABLE(FA_TUNABLE_ENUM)
#undef FA_TUNABLE_ENUM
	FA_T_COUNT
};

static struct fa_tunable fa_tunables[FA_T_COUNT] = {
#define FA_TUNABLE_INIT(name, def, lo, hi, desc) \
	[FA_T_##name] = { .val = (def), .min = (lo), .max = (hi) },
	FA_PARAM_TABLE(FA_TUNABLE_INIT)
#undef FA_TUNABLE_INIT
};

static unsigned int fa_tunable_get(int idx)
{
	return READ_ONCE(fa_tunables[idx].val);
}

static int fa_param_set(const char *val, const struct kernel_param *kp)
{
	struct fa_tunable *t = kp->arg;
	unsigned int v;

	/* Any parse error, ERANGE included, is a bad value: EINVAL. */
	if (kstrtouint(val, 10, &v) || v < t->min || v > t->max)
		return -EINVAL;
	if (t == &fa_tunables[FA_T_gamma_min] &&
	    v > fa_tunable_get(FA_T_gamma_max))
		return -EINVAL;
	if (t == &fa_tunables[FA_T_gamma_max] &&
	    v < fa_tunable_get(FA_T_gamma_min))
		return -EINVAL;
	WRITE_ONCE(t->val, v);
	return 0;
}

static int fa_param_get(char *buffer, const struct kernel_param *kp)
{
	const struct fa_tunable *t = kp->arg;

	return sysfs_emit(buffer, "%u\n", READ_ONCE(t->val));
}

static const struct kernel_param_ops fa_param_ops = {
	.set = fa_param_set,
	.get = fa_param_get,
};

#define FA_MODULE_PARAM(name, def, lo, hi, desc)				\
	module_param_cb(name, &fa_param_ops, &fa_tunables[FA_T_##name], 0644); \
	__MODULE_PARM_TYPE(name, "uint");					\
	MODULE_PARM_DESC(name, desc " [" #lo ".." #hi ", default " #def "]");
FA_PARAM_TABLE(FA_MODULE_PARAM)
#undef FA_MODULE_PARAM

static void tcp_fa_params_read(struct fa_params *p)
{
#define FA_PARAM_READ(name, def, lo, hi, desc) \
	p->name = fa_tunable_get(FA_T_##name);
	FA_PARAM_TABLE(FA_PARAM_READ)
#undef FA_PARAM_READ
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
}

static void tcp_fa_pkts_acked(struct sock *sk, const struct ack_sample *sample)
{
	struct fa_sock *ca = inet_csk_ca(sk);

	fa_rtt_sample(&ca->law, sample->rtt_us, fa_now_us(tcp_sk(sk)));
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
	bool cwnd_limited = tcp_is_cwnd_limited(sk);
	bool round_end = after(ack, ca->round_end_seq);
	struct fa_params p;

	if (round_end || tcp_in_slow_start(tp))
		tcp_fa_params_read(&p);

	if (round_end) {
		struct fa_update u;
		enum fa_action act;

		ca->round_end_seq = tp->snd_nxt;
		act = fa_round_end(&ca->law, &p, tcp_snd_cwnd(tp),
				   tcp_in_slow_start(tp), cwnd_limited,
				   fa_now_us(tp), &u);
		if (act == FA_ACT_UPDATE)
			trace_update(sk, &p, &u);
		if (act != FA_ACT_NONE)
			fa_set_cwnd(tp, fa_apply(act, tcp_snd_cwnd(tp), &u));
	}

	if (tcp_in_slow_start(tp)) {
		if (cwnd_limited)
			tcp_fa_slow_start(sk, &p, acked);
		return;
	}
	fa_set_cwnd(tp, fa_cwnd_on_ack(&ca->law, tcp_snd_cwnd(tp), acked,
				       cwnd_limited));
}

static u32 tcp_fa_ssthresh(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct fa_sock *ca = inet_csk_ca(sk);

	return fa_ssthresh(&ca->law, tcp_snd_cwnd(tp));
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
		fa_restart(&ca->law, fa_now_us(tp));
		ca->round_end_seq = tp->snd_nxt;
	}
}

static size_t tcp_fa_get_info(struct sock *sk, u32 ext, int *attr,
			  union tcp_cc_info *info)
{
	const struct fa_sock *ca = inet_csk_ca(sk);
	const struct fa_state *s = &ca->law;

	if (!(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;

	info->vegas.tcpv_enabled = FA_INFO_ENABLED |
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
	.ssthresh	= tcp_fa_ssthresh,
	.undo_cwnd	= tcp_fa_undo_cwnd,
	.cong_avoid	= tcp_fa_cong_avoid,
	.cwnd_event	= tcp_fa_cwnd_event,
	.pkts_acked	= tcp_fa_pkts_acked,
	.get_info	= tcp_fa_get_info,

	.owner		= THIS_MODULE,
	.flags		= TCP_CONG_NON_RESTRICTED,
	.name		= FA_CC_NAME,
};

static int __init tcp_fa_register(void)
{
	BUILD_BUG_ON(sizeof(struct fa_sock) > ICSK_CA_PRIV_SIZE);
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
