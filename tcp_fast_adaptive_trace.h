/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of fast_adaptive.
 *
 * fast_adaptive:update carries every input and output of one update of the
 * control law, so that a recorded trace can be replayed through the
 * userspace build of fa_law() and must give identical outputs.
 * fast_adaptive:ss_exit says when and why slow start ended.
 * fast_adaptive:loss says how a loss or CE mark was read and answered.
 * fast_adaptive:mode says when the flow starts competing with
 * buffer-filling traffic (mode=compete) and when it stops (mode=fast).
 * fast_adaptive:probe follows each base-RTT probe: its start, the window
 * early_restore gives back, and its end, with the RTTs it read and the
 * phase it left the flow in (ramp: slow start again).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM fast_adaptive

#if !defined(_TCP_FAST_ADAPTIVE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TCP_FAST_ADAPTIVE_TRACE_H

#include <linux/tracepoint.h>
#include <net/inet_sock.h>
#include "fast_adaptive/fa_law.h"

/* The moments of a base-RTT probe that fast_adaptive:probe records. */
#define FA_PROBE_EV_START	0
#define FA_PROBE_EV_RESTORE	1
#define FA_PROBE_EV_END		2

/* Why slow start ended: the law's own rule, or the host's ssthresh. */
#define FA_SS_EXIT_BACKLOG	0
#define FA_SS_EXIT_DELAY	1
#define FA_SS_EXIT_SSTHRESH	2

TRACE_EVENT(update,
	TP_PROTO(const struct sock *sk, const struct fa_params *p,
		 const struct fa_update *u),
	TP_ARGS(sk, p, u),
	TP_STRUCT__entry(
		__field(u16, sport)
		__field(u16, dport)
		__field(u32, cwnd)
		__field(u32, base_rtt_us)
		__field(u32, avg_rtt_us)
		__field(u32, cwnd_limited)
		__field(u32, alpha_pkts)
		__field(u32, gamma_min)
		__field(u32, gamma_max)
		__field(u32, gamma_fixed)
		__field(u32, gain_k)
		__field(u32, adaptive_gain)
		__field(u64, backlog_q10)
		__field(u32, dist_q10)
		__field(u32, gamma)
		__field(u32, target)
		__field(u32, cwnd_out)
	),
	TP_fast_assign(
		__entry->sport = ntohs(inet_sk(sk)->inet_sport);
		__entry->dport = ntohs(inet_sk(sk)->inet_dport);
		__entry->cwnd = u->cwnd;
		__entry->base_rtt_us = u->base_rtt_us;
		__entry->avg_rtt_us = u->avg_rtt_us;
		__entry->cwnd_limited = u->cwnd_limited;
		__entry->alpha_pkts = p->alpha_pkts;
		__entry->gamma_min = p->gamma_min;
		__entry->gamma_max = p->gamma_max;
		__entry->gamma_fixed = p->gamma_fixed;
		__entry->gain_k = p->gain_k;
		__entry->adaptive_gain = p->adaptive_gain;
		__entry->backlog_q10 = u->backlog_q10;
		__entry->dist_q10 = u->dist_q10;
		__entry->gamma = u->gamma;
		__entry->target = u->target;
		__entry->cwnd_out = u->cwnd_out;
	),
	TP_printk("sport=%u dport=%u cwnd=%u base_rtt_us=%u avg_rtt_us=%u cwnd_limited=%u alpha_pkts=%u gamma_min=%u gamma_max=%u gamma_fixed=%u gain_k=%u adaptive_gain=%u backlog_q10=%llu dist_q10=%u gamma=%u target=%u cwnd_out=%u",
		  __entry->sport, __entry->dport, __entry->cwnd,
		  __entry->base_rtt_us, __entry->avg_rtt_us,
		  __entry->cwnd_limited, __entry->alpha_pkts,
		  __entry->gamma_min, __entry->gamma_max, __entry->gamma_fixed,
		  __entry->gain_k, __entry->adaptive_gain,
		  (unsigned long long)__entry->backlog_q10, __entry->dist_q10,
		  __entry->gamma, __entry->target, __entry->cwnd_out)
);

TRACE_EVENT(ss_exit,
	TP_PROTO(const struct sock *sk, const struct fa_state *s,
		 const struct fa_params *p, u32 cwnd, int rule),
	TP_ARGS(sk, s, p, cwnd, rule),
	TP_STRUCT__entry(
		__field(u16, sport)
		__field(u16, dport)
		__field(u32, cwnd)
		__field(u32, rtt_us)
		__field(u32, base_rtt_us)
		__field(u8, rule)
		__field(u32, ss_exit_pkts)
		__field(u32, ss_delay_us)
	),
	TP_fast_assign(
		__entry->sport = ntohs(inet_sk(sk)->inet_sport);
		__entry->dport = ntohs(inet_sk(sk)->inet_dport);
		__entry->cwnd = cwnd;
		__entry->rtt_us = fa_ss_rtt_us(s);
		__entry->base_rtt_us = s->base_rtt_us;
		__entry->rule = rule;
		__entry->ss_exit_pkts = fa_ss_exit_pkts(p, cwnd);
		__entry->ss_delay_us = p->ss_delay_us;
	),
	TP_printk("sport=%u dport=%u cwnd=%u rtt_us=%u base_rtt_us=%u rule=%s ss_exit_pkts=%u ss_delay_us=%u",
		  __entry->sport, __entry->dport, __entry->cwnd,
		  __entry->rtt_us, __entry->base_rtt_us,
		  __print_symbolic(__entry->rule,
				   { FA_SS_EXIT_BACKLOG, "backlog" },
				   { FA_SS_EXIT_DELAY, "delay" },
				   { FA_SS_EXIT_SSTHRESH, "ssthresh" }),
		  __entry->ss_exit_pkts, __entry->ss_delay_us)
);

TRACE_EVENT(loss,
	TP_PROTO(const struct sock *sk, const struct fa_state *s, u32 cwnd,
		 u32 backlog, u32 kind, u32 ssthresh),
	TP_ARGS(sk, s, cwnd, backlog, kind, ssthresh),
	TP_STRUCT__entry(
		__field(u16, sport)
		__field(u16, dport)
		__field(u32, cwnd)
		__field(u32, base_rtt_us)
		__field(u32, avg_rtt_us)
		__field(u32, backlog)
		__field(u8, kind)
		__field(u32, ssthresh)
		__field(u16, alpha_cap)
	),
	TP_fast_assign(
		__entry->sport = ntohs(inet_sk(sk)->inet_sport);
		__entry->dport = ntohs(inet_sk(sk)->inet_dport);
		__entry->cwnd = cwnd;
		__entry->base_rtt_us = s->base_rtt_us;
		__entry->avg_rtt_us = s->avg_rtt_us;
		__entry->backlog = backlog;
		__entry->kind = kind;
		__entry->ssthresh = ssthresh;
		__entry->alpha_cap = s->alpha_cap;
	),
	TP_printk("sport=%u dport=%u cwnd=%u base_rtt_us=%u avg_rtt_us=%u backlog=%u kind=%s ssthresh=%u alpha_cap=%u",
		  __entry->sport, __entry->dport, __entry->cwnd,
		  __entry->base_rtt_us, __entry->avg_rtt_us, __entry->backlog,
		  __print_symbolic(__entry->kind,
				   { FA_LOSS_CONGESTION, "congestion" },
				   { FA_LOSS_ECN, "ecn" },
				   { FA_LOSS_RANDOM, "random" },
				   { FA_LOSS_REPEAT, "repeat" },
				   { FA_LOSS_MARK, "mark" },
				   { FA_LOSS_COMPETE, "compete" }),
		  __entry->ssthresh, __entry->alpha_cap)
);

TRACE_EVENT(mode,
	TP_PROTO(const struct sock *sk, const struct fa_state *s, u32 cwnd),
	TP_ARGS(sk, s, cwnd),
	TP_STRUCT__entry(
		__field(u16, sport)
		__field(u16, dport)
		__field(u8, compete)
		__field(u32, cwnd)
		__field(u32, base_rtt_us)
		__field(u32, avg_rtt_us)
	),
	TP_fast_assign(
		__entry->sport = ntohs(inet_sk(sk)->inet_sport);
		__entry->dport = ntohs(inet_sk(sk)->inet_dport);
		__entry->compete = fa_competing(s);
		__entry->cwnd = cwnd;
		__entry->base_rtt_us = s->base_rtt_us;
		__entry->avg_rtt_us = s->avg_rtt_us;
	),
	TP_printk("sport=%u dport=%u mode=%s cwnd=%u base_rtt_us=%u avg_rtt_us=%u",
		  __entry->sport, __entry->dport,
		  __entry->compete ? "compete" : "fast", __entry->cwnd,
		  __entry->base_rtt_us, __entry->avg_rtt_us)
);

/*
 * min_us: the probe's minimum RTT so far (at the start, the route window's);
 * avg_us: the RTT the quick probe started from (0 for the others); mean_us
 * and samples: the RTT samples the probe's round has taken so far (at the
 * end, all of them), which probe_mean reads.
 */
TRACE_EVENT(probe,
	TP_PROTO(const struct sock *sk, const struct fa_state *s, int ev,
		 u32 cwnd, u32 min_us, u32 mean_us, u32 samples),
	TP_ARGS(sk, s, ev, cwnd, min_us, mean_us, samples),
	TP_STRUCT__entry(
		__field(u16, sport)
		__field(u16, dport)
		__field(u8, ev)
		__field(u8, phase)
		__field(u32, cwnd)
		__field(u32, probe_cwnd)
		__field(u32, base_rtt_us)
		__field(u32, min_us)
		__field(u32, avg_us)
		__field(u32, mean_us)
		__field(u32, samples)
	),
	TP_fast_assign(
		__entry->sport = ntohs(inet_sk(sk)->inet_sport);
		__entry->dport = ntohs(inet_sk(sk)->inet_dport);
		__entry->ev = ev;
		__entry->phase = s->phase;
		__entry->cwnd = cwnd;
		__entry->probe_cwnd = s->probe_cwnd;
		__entry->base_rtt_us = s->base_rtt_us;
		__entry->min_us = min_us;
		__entry->avg_us = s->probe_avg_us;
		__entry->mean_us = mean_us;
		__entry->samples = samples;
	),
	TP_printk("sport=%u dport=%u event=%s cwnd=%u probe_cwnd=%u base_rtt_us=%u min_us=%u avg_us=%u mean_us=%u samples=%u phase=%s",
		  __entry->sport, __entry->dport,
		  __print_symbolic(__entry->ev,
				   { FA_PROBE_EV_START, "start" },
				   { FA_PROBE_EV_RESTORE, "restore" },
				   { FA_PROBE_EV_END, "end" }),
		  __entry->cwnd, __entry->probe_cwnd, __entry->base_rtt_us,
		  __entry->min_us, __entry->avg_us, __entry->mean_us,
		  __entry->samples,
		  __print_symbolic(__entry->phase,
				   { FA_PHASE_SS, "slow_start" },
				   { FA_PHASE_LAW, "law" },
				   { FA_PHASE_PROBE, "probe" },
				   { FA_PHASE_RAMP, "ramp" },
				   { FA_PHASE_COMPETE, "compete" }))
);

#endif /* _TCP_FAST_ADAPTIVE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE tcp_fast_adaptive_trace
#include <trace/define_trace.h>
