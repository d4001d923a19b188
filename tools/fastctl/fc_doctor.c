// SPDX-License-Identifier: GPL-2.0
/*
 * fastctl doctor: what limits a flow, in words.
 *
 * The kernel keeps three stopwatches per socket (tcp_chrono), read through
 * tcp_info in microseconds:
 *   tcpi_busy_time       time with data to send (any of the three below)
 *   tcpi_rwnd_limited    stalled: the peer's receive window was full
 *   tcpi_sndbuf_limited  stalled: the send buffer was full, the write queue
 *                        empty and the congestion window not (the
 *                        application would write more but may not)
 * Over a window of dt seconds between two samples:
 *   rwnd   = d(rwnd_limited) / dt
 *   sndbuf = d(sndbuf_limited) / dt
 *   cwnd   = (d(busy) - d(rwnd_limited) - d(sndbuf_limited)) / dt
 *            (sending with room in both buffers: the congestion
 *            control, i.e. the network path, sets the pace)
 *   app    = 1 - d(busy) / dt (nothing queued: the application is slow)
 * The largest fraction names the limit.  A socket that mostly receives is
 * the receiver of a transfer whose sender decides the pace.  Without a
 * window (--interval 0) the counters since the connection started are used,
 * as fractions of busy time, and the application-limited bit of the last
 * delivery-rate sample stands in for the idle fraction.
 */
#include <string.h>

#include "fc.h"

const char *fc_limit_name(enum fc_limit l)
{
	switch (l) {
	case FC_LIM_CWND:
		return "cwnd";
	case FC_LIM_RWND:
		return "rwnd";
	case FC_LIM_SNDBUF:
		return "sndbuf";
	case FC_LIM_APP:
		return "application";
	case FC_LIM_RECEIVER:
		return "receiver";
	case FC_LIM_IDLE:
		return "idle";
	}
	return "unknown";
}

#define NOTE(r, ...)							\
	do {								\
		if ((r)->nnotes < FC_ADVICE_MAX)			\
			snprintf((r)->notes[(r)->nnotes++], FC_LINE,	\
				 __VA_ARGS__);				\
	} while (0)

#define ADVICE(r, ...)							\
	do {								\
		if ((r)->nadvice < FC_ADVICE_MAX)			\
			snprintf((r)->advice[(r)->nadvice++], FC_LINE,	\
				 __VA_ARGS__);				\
	} while (0)

static uint64_t sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static double fc_min_dbl(double a, double b)
{
	return a < b ? a : b;
}

static double clamp01(double x)
{
	return x < 0 ? 0 : (x > 1 ? 1 : x);
}

/* x rounded to an integer, saturated to 0..UINT64_MAX (a cast would be UB). */
static uint64_t dbl_to_u64(double x)
{
	x += 0.5;
	if (!(x >= 1))
		return 0;
	if (x >= 18446744073709551616.0)	/* 2^64 */
		return UINT64_MAX;
	return (uint64_t)x;
}

/* Buffer needed to keep rate_bps in flight over rtt_us, doubled for overhead. */
static uint64_t buf_for(uint64_t rate_bps, uint32_t rtt_us)
{
	uint64_t bdp = dbl_to_u64((double)rate_bps / 8 * rtt_us / 1e6);

	return bdp > UINT64_MAX / 2 ? UINT64_MAX : 2 * bdp;
}

/*
 * Buffer advice: "sysctl -w net.ipv4.SYSCTL='4096 MID N'" sized 2 x BDP for
 * --rate, or for two example links.  cur is the window or buffer the flow
 * has now (0 if unknown): when it already holds what the rate needs, the
 * buffer is not what is small, the other end is slow, and the advice says so.
 */
static void advice_buffer(struct fc_verdict *r, const struct fc_view *v,
			  const struct fc_doctor_opts *o, const char *where,
			  const char *sysctl, const char *sockopt,
			  const char *mid, const char *noun, uint64_t cur,
			  unsigned int overhead, const char *slow)
{
	/* what cur carries: a window all of it, a buffer 1/overhead of it */
	uint64_t carry = cur / overhead;

	char a[24], b[24], c[24], d[24];
	uint32_t rtt = v->min_rtt_known ? v->min_rtt_us : v->srtt_us;

	if (!rtt) {
		ADVICE(r, "%s: raise net.ipv4.%s's maximum (no RTT measured yet to size it)",
		       where, sysctl);
		return;
	}
	fc_fmt_us(rtt, true, c, sizeof(c));
	fc_fmt_bytes(cur, d, sizeof(d));
	if (cur && cur < 65536)
		NOTE(r, "a %s of only %s usually means the application set %s (or net.ipv4.%s was lowered)",
		     noun, d, sockopt, sysctl);
	if (o && o->rate_bps) {
		uint64_t need = buf_for(o->rate_bps, rtt);

		fc_fmt_rate(o->rate_bps, a, sizeof(a));
		fc_fmt_bytes(need, b, sizeof(b));
		if (cur && carry >= need / 2)
			ADVICE(r, "the %s (%s) already holds the BDP of %s x %s = %s: %s",
			       noun, d, a, c, fc_fmt_bytes(need / 2, b, sizeof(b)),
			       slow);
		else
			ADVICE(r, "%s: sysctl -w net.ipv4.%s='4096 %s %llu' (%s = 2 x BDP of %s x %s); an application that sets %s disables autotuning: raise or drop it",
			       where, sysctl, mid, (unsigned long long)need, b, a,
			       c, sockopt);
		return;
	}
	if (cur && carry >= buf_for(1000000000, rtt) / 2) {
		ADVICE(r, "the %s (%s) already holds the BDP of 1 Gbit/s at %s: %s",
		       noun, d, c, slow);
		return;
	}
	fc_fmt_bytes(buf_for(100000000, rtt), a, sizeof(a));
	fc_fmt_bytes(buf_for(1000000000, rtt), b, sizeof(b));
	ADVICE(r, "%s: raise net.ipv4.%s's maximum to 2 x rate x RTT: at %s that is %s for 100 Mbit/s, %s for 1 Gbit/s (--rate RATE sizes it for your link); an application that sets %s disables autotuning",
	       where, sysctl, c, a, b, sockopt);
}

/* Adaptive slow start: the exit backlog, as the law resolves it now. */
static void explain_ss_exit(struct fc_verdict *r, const struct fc_view *v,
			    const struct fa_params *p)
{
	char rule[64] = "";
	char now[32] = "";

	if (!p->ss_exit_pkts)
		snprintf(rule, sizeof(rule), "ss_exit_pkts = 0: cwnd/4 within [%u, %u]",
			 fa_ss_exit_pkts(p, 0), fa_ss_exit_pkts(p, FA_CWND_MAX));
	else
		snprintf(rule, sizeof(rule), "ss_exit_pkts = %u", p->ss_exit_pkts);
	if (v->backlog_known)
		snprintf(now, sizeof(now), " (now %.1f)", v->backlog_pkts);
	NOTE(r, "slow start: ends when the flow's own backlog reaches %u packets, %s%s",
	     fa_ss_exit_pkts(p, v->cwnd), rule, now);
}

/*
 * Competitive mode: how long, as the module counts it (whole seconds,
 * FA_INFO_COMPETE_S_MAX meaning that many or more).
 */
static void explain_compete(struct fc_verdict *r, const struct fc_view *v)
{
	char since[32];

	if (v->compete_s >= FA_INFO_COMPETE_S_MAX)
		snprintf(since, sizeof(since), "over %u min",
			 FA_INFO_COMPETE_S_MAX / 60);
	else if (!v->compete_s)
		snprintf(since, sizeof(since), "under 1 s");
	else
		snprintf(since, sizeof(since), "%u s", v->compete_s);
	NOTE(r, "competing with loss-based traffic since %s: the bottleneck queue never drained to this flow's own backlog; the flow runs Reno-like AIMD until it does",
	     since);
}

static void explain_fa(struct fc_verdict *r, const struct fc_view *v,
		       const struct fa_params *p)
{
	char base[16], avg[16];

	fc_fmt_us(v->base_rtt_us, v->base_known, base, sizeof(base));
	fc_fmt_us(v->avg_rtt_us, v->avg_known, avg, sizeof(avg));

	if (v->competing)
		explain_compete(r, v);
	if (!strcmp(v->phase, "slow_start")) {
		if (p->adaptive_ss)
			explain_ss_exit(r, v, p);
		else
			NOTE(r, "slow start (classic): ends when the queueing delay reaches ss_delay_us = %u us",
			     p->ss_delay_us);
	} else if (!strcmp(v->phase, "ramp")) {
		NOTE(r, "ramp: the flow's own backlog stayed under alpha/4 = %u packets for two update cycles, so it re-entered slow start (doubling per round until the backlog exit; tunable ramp = %u)",
		     p->alpha_pkts >> FA_RAMP_SHIFT, p->ramp);
	} else if (!strcmp(v->phase, "probe")) {
		NOTE(r, "probe: the window is %u packets for %u round(s) to re-measure the base RTT (once after slow start, or the path looked longer than %s: base_win_ms = %u ms, drain_check = %u; short_probe = %u)",
		     FA_CWND_MIN, fa_probe_rounds(p), base, p->base_win_ms,
		     p->drain_check, p->short_probe);
	} else if (!strcmp(v->phase, "recovery") || !strcmp(v->phase, "loss")) {
		NOTE(r, "loss recovery: fast_adaptive halved the window on loss (ssthresh %u) and restores it on undo",
		     v->ssthresh);
	}
	if (v->backlog_known)
		NOTE(r, "law: backlog = cwnd (avg - base) / avg = %u (%s - %s) / %s = %.1f packets, alpha = %u; |b - alpha| / alpha = %.2f gives gain %.3f (last update %.3f), target window %u",
		     v->cwnd, avg, base, avg, v->backlog_pkts, p->alpha_pkts,
		     v->dist, v->gamma_next,
		     v->gamma_known ? v->gamma_q10 / (double)FA_ONE : 0.0,
		     v->target_cwnd);
}

static void advise_cwnd(struct fc_verdict *r, const struct fc_flow *fl,
			const struct fc_view *v, const struct fa_params *p)
{
	char dlv[24], srtt[16], minrtt[16];

	fc_fmt_rate(v->delivery_bps, dlv, sizeof(dlv));
	if (v->is_fa) {
		explain_fa(r, v, p);
		if (!strcmp(v->phase, "law") && v->backlog_known &&
		    v->backlog_pkts >= 0.5 * p->alpha_pkts)
			ADVICE(r, "the bottleneck is full (this flow keeps %.1f packets queued there): the path's capacity is the limit and %s is this flow's share; more throughput needs a faster path, not tuning",
			       v->backlog_pkts, dlv);
		else if (!strcmp(v->phase, "law") && v->backlog_known)
			ADVICE(r, "little standing queue (%.1f of alpha = %u packets): the window is still moving toward its target %u; if it stays there, the base RTT may be stale or the path is not the bottleneck",
			       v->backlog_pkts, p->alpha_pkts, v->target_cwnd);
		else if (v->competing)
			ADVICE(r, "the bottleneck's queue is held by loss-based flows (cubic, reno): %s is the share this flow wins from them with AIMD, and the queueing delay is theirs; the flow returns to the law once they leave",
			       dlv);
		else if (!strcmp(v->phase, "slow_start"))
			ADVICE(r, "still in slow start: the window doubles each RTT until the flow's own queue reaches ss_exit_pkts; check again in a few RTTs");
		else
			ADVICE(r, "the congestion control sets the pace (%s); delivery rate %s",
			       v->phase, dlv);
	} else {
		fc_fmt_us(v->srtt_us, true, srtt, sizeof(srtt));
		fc_fmt_us(v->min_rtt_us, v->min_rtt_known, minrtt,
			  sizeof(minrtt));
		if (v->min_rtt_known && v->srtt_us > v->min_rtt_us + 1000 &&
		    v->srtt_us * 2 > v->min_rtt_us * 3) {
			double q = (double)v->cwnd *
				   (v->srtt_us - v->min_rtt_us) / v->srtt_us;

			ADVICE(r, "%s fills the bottleneck queue: RTT %s against a minimum of %s, about %.0f packets queued; the path's capacity is the limit (delivery rate %s); a delay-based congestion control such as fast_adaptive would keep the queue near alpha",
			       fl->cc[0] ? fl->cc : "the congestion control",
			       srtt, minrtt, q, dlv);
		} else {
			ADVICE(r, "the congestion window (%s, cwnd %u) sets the pace: the network path is the limit at %s",
			       fl->cc[0] ? fl->cc : "?", v->cwnd, dlv);
		}
	}
}

bool fc_snap_sndbuf_limited(const struct fc_flow *fl)
{
	const struct tcp_info *ti = &fl->info;
	uint32_t sndbuf, queued, mss;

	if (!fl->has_info || !FC_HAS(fl, tcpi_notsent_bytes) ||
	    fl->mem_n <= SK_MEMINFO_WMEM_QUEUED)
		return false;
	sndbuf = fl->mem[SK_MEMINFO_SNDBUF];
	queued = fl->mem[SK_MEMINFO_WMEM_QUEUED];
	mss = ti->tcpi_snd_mss ? ti->tcpi_snd_mss : 1;
	return sndbuf && queued >= sndbuf / 2 && ti->tcpi_unacked &&
	       ti->tcpi_notsent_bytes < mss &&
	       ti->tcpi_unacked + 1 < ti->tcpi_snd_cwnd;
}

void fc_doctor(const struct fc_flow *prev, const struct fc_flow *cur,
	       const struct fc_snaps *snaps, const struct fa_params *p,
	       const struct fc_doctor_opts *o, struct fc_verdict *r)
{
	struct fc_view v, pv;
	uint64_t d_acked, d_recv, d_busy, d_rwnd, d_sndbuf;
	uint64_t d_segs = 0, d_retr = 0;
	char a[24], b[24], c[24];
	double best;

	memset(r, 0, sizeof(*r));
	fc_view_make(cur, p, &v);

	if (!cur->has_info) {
		r->limit = FC_LIM_IDLE;
		snprintf(r->summary, FC_LINE,
			 "no tcp_info for this socket (state %s)", v.state);
		return;
	}

	if (prev && prev->has_info && cur->t > prev->t) {
		double wall_us;

		fc_view_make(prev, p, &pv);
		r->windowed = true;
		r->window_s = cur->t - prev->t;
		wall_us = r->window_s * 1e6;
		d_acked = sub(v.bytes_acked, pv.bytes_acked);
		d_recv = sub(v.bytes_received, pv.bytes_received);
		d_busy = sub(v.busy_us, pv.busy_us);
		d_rwnd = sub(v.rwnd_limited_us, pv.rwnd_limited_us);
		d_sndbuf = sub(v.sndbuf_limited_us, pv.sndbuf_limited_us);
		if (FC_HAS(cur, tcpi_segs_out))
			d_segs = sub(cur->info.tcpi_segs_out,
				     prev->info.tcpi_segs_out);
		d_retr = sub(v.total_retrans, pv.total_retrans);
		r->f_rwnd = clamp01(d_rwnd / wall_us);
		r->f_sndbuf = clamp01(d_sndbuf / wall_us);
		r->f_app = clamp01(1 - d_busy / wall_us);
		r->f_cwnd = clamp01(d_busy / wall_us - r->f_rwnd - r->f_sndbuf);
	} else {
		d_acked = v.bytes_acked;
		d_recv = v.bytes_received;
		d_busy = v.busy_us;
		if (FC_HAS(cur, tcpi_segs_out))
			d_segs = cur->info.tcpi_segs_out;
		d_retr = v.total_retrans;
		if (d_busy) {
			r->f_rwnd = clamp01((double)v.rwnd_limited_us / d_busy);
			r->f_sndbuf =
				clamp01((double)v.sndbuf_limited_us / d_busy);
			r->f_cwnd = clamp01(1 - r->f_rwnd - r->f_sndbuf);
		}
		if (v.app_limited) {
			r->f_app = r->f_cwnd;
			r->f_cwnd = 0;
		}
	}
	/*
	 * Second opinion on the send buffer from the snapshots: the larger of
	 * the two is taken out of the congestion window's share.
	 */
	r->f_sndbuf_kernel = r->f_sndbuf;
	r->f_sndbuf_snap = -1;
	if (snaps && snaps->n >= 2) {
		r->f_sndbuf_snap = (double)snaps->sndbuf / snaps->n;
		if (r->f_sndbuf_snap > r->f_sndbuf) {
			double busy = r->f_cwnd + r->f_sndbuf;

			r->f_sndbuf = fc_min_dbl(r->f_sndbuf_snap, busy);
			r->f_cwnd = clamp01(busy - r->f_sndbuf);
		}
	}
	if (d_segs)
		r->loss_pct = 100.0 * d_retr / d_segs;
	if (v.min_rtt_known && v.delivery_bps)
		r->bdp_bytes = dbl_to_u64((double)v.delivery_bps / 8 *
					  v.min_rtt_us / 1e6);

	/* Which side of the transfer is this? */
	if (d_acked <= 1 && d_recv <= 1 && (r->windowed || !d_busy)) {
		r->limit = FC_LIM_IDLE;
		if (r->windowed)
			snprintf(r->summary, FC_LINE,
				 "idle: no data moved during the %.1f s window",
				 r->window_s);
		else
			snprintf(r->summary, FC_LINE,
				 "idle: no data moved since the connection started");
		return;
	}
	if (d_recv > 4 * d_acked) {
		r->limit = FC_LIM_RECEIVER;
		snprintf(r->summary, FC_LINE,
			 "receiver: this socket received %s%s and sent little; the peer's congestion control sets the pace (run fastctl doctor where the peer runs)",
			 fc_fmt_bytes(d_recv, a, sizeof(a)),
			 r->windowed ? " in the window" : "");
		if (v.rcvbuf_known)
			NOTE(r, "receive buffer %s (SO_RCVBUF as the kernel holds it)",
			     fc_fmt_bytes(v.rcvbuf, b, sizeof(b)));
		advice_buffer(r, &v, o, "if the peer is rwnd-limited, on this host",
			      "tcp_rmem", "SO_RCVBUF", "131072",
			      "receive buffer", v.rcvbuf_known ? v.rcvbuf : 0, 2,
			      "if the peer is rwnd-limited, this application reads too slowly");
		return;
	}

	/* A sender: the largest fraction names the limit. */
	r->limit = FC_LIM_CWND;
	best = r->f_cwnd;
	if (r->f_rwnd > best) {
		r->limit = FC_LIM_RWND;
		best = r->f_rwnd;
	}
	if (r->f_sndbuf > best) {
		r->limit = FC_LIM_SNDBUF;
		best = r->f_sndbuf;
	}
	if (r->f_app > best) {
		r->limit = FC_LIM_APP;
		best = r->f_app;
	}

	switch (r->limit) {
	case FC_LIM_CWND:
		snprintf(r->summary, FC_LINE,
			 "congestion window: %s (%s) sets the pace %.0f%% of the %s",
			 cur->cc[0] ? cur->cc : "the congestion control",
			 v.phase, 100 * r->f_cwnd,
			 r->windowed ? "time" : "busy time");
		advise_cwnd(r, cur, &v, p);
		break;
	case FC_LIM_RWND:
		snprintf(r->summary, FC_LINE,
			 "receive window: the peer's advertised window stalled the sender %.0f%% of the %s",
			 100 * r->f_rwnd, r->windowed ? "time" : "busy time");
		if (v.snd_wnd_known && v.min_rtt_known && v.min_rtt_us)
			NOTE(r, "the peer's window of %s carries at most %s at the minimum RTT of %s",
			     fc_fmt_bytes(v.snd_wnd, a, sizeof(a)),
			     fc_fmt_rate((uint64_t)((double)v.snd_wnd * 8 * 1e6 /
						    v.min_rtt_us),
					 b, sizeof(b)),
			     fc_fmt_us(v.min_rtt_us, true, c, sizeof(c)));
		advice_buffer(r, &v, o, "on the receiver", "tcp_rmem",
			      "SO_RCVBUF", "131072", "peer's window",
			      v.snd_wnd_known ? v.snd_wnd : 0, 1,
			      "the window is not too small for the path; the receiving application reads too slowly");
		break;
	case FC_LIM_SNDBUF:
		snprintf(r->summary, FC_LINE,
			 "send buffer: the application had more to send but the send buffer%s%s%s was full %.0f%% of the %s while the window allowed more",
			 v.sndbuf_known ? " (" : "",
			 v.sndbuf_known ? fc_fmt_bytes(v.sndbuf, a, sizeof(a)) : "",
			 v.sndbuf_known ? ")" : "",
			 100 * r->f_sndbuf, r->windowed ? "time" : "busy time");
		if (r->f_sndbuf_snap > r->f_sndbuf_kernel)
			NOTE(r, "seen in %.0f%% of the snapshots (all written data in flight, the window not full, %s queued in the send buffer); the kernel's sndbuf stopwatch says %.0f%%",
			     100 * r->f_sndbuf_snap,
			     v.wmem_known ? fc_fmt_bytes(v.wmem_queued, b, sizeof(b)) : "?",
			     100 * r->f_sndbuf_kernel);
		advice_buffer(r, &v, o, "on the sender", "tcp_wmem", "SO_SNDBUF",
			      "16384", "send buffer", v.sndbuf_known ? v.sndbuf : 0, 2,
			      "the buffer is not too small for the path; ACKs come back slowly (delayed ACKs, a slow receiver)");
		break;
	case FC_LIM_APP:
		if (r->windowed)
			snprintf(r->summary, FC_LINE,
				 "application: the socket had nothing to send %.0f%% of the time; TCP waits for the application, not the network",
				 100 * r->f_app);
		else
			snprintf(r->summary, FC_LINE,
				 "application: the last delivery-rate sample was application-limited; TCP waits for the application, not the network");
		ADVICE(r, "look at the sending application (disk, CPU, request/response round trips, small writes): bigger buffers or another congestion control will not help");
		break;
	default:
		break;
	}

	/* Secondary limits that still cost a fifth of the time or more. */
	if (r->limit != FC_LIM_RWND && r->f_rwnd >= 0.2)
		NOTE(r, "also receive-window-limited %.0f%% of the time",
		     100 * r->f_rwnd);
	if (r->limit != FC_LIM_SNDBUF && r->f_sndbuf >= 0.2)
		NOTE(r, "also send-buffer-limited %.0f%% of the time",
		     100 * r->f_sndbuf);
	if (r->limit != FC_LIM_APP && r->windowed && r->f_app >= 0.2)
		NOTE(r, "also idle (application-limited) %.0f%% of the time",
		     100 * r->f_app);
	if (r->bdp_bytes)
		NOTE(r, "BDP now: delivery rate %s x min RTT %s = %s",
		     fc_fmt_rate(v.delivery_bps, a, sizeof(a)),
		     fc_fmt_us(v.min_rtt_us, true, b, sizeof(b)),
		     fc_fmt_bytes(r->bdp_bytes, c, sizeof(c)));
	if (r->loss_pct >= 1.0)
		ADVICE(r, "%.1f%% of the segments sent were retransmitted: the path drops packets (a small bottleneck buffer, or errors on a link)",
		       r->loss_pct);
}
