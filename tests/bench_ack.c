// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * bench_ack: CPU cost of fast_adaptive's per-ACK path, against a Reno-style
 * per-ACK update in the same binary.
 *
 * A flow on a modelled path (bottleneck of BENCH_RATE packets per ms, base
 * RTT BENCH_BASE_US, a drop-tail buffer) is first run once through the law
 * exactly as tcp_fast_adaptive.c drives it (pkts_acked: fa_rtt_sample();
 * cong_avoid: fa_round_end() when the ACK ends a round, fa_apply(), then
 * slow start with fa_ss_exit()/fa_ss_done() or fa_cwnd_on_ack()), and the
 * inputs of every ACK are recorded: RTT sample, time, whether it ends a
 * round, whether the flow is cwnd-limited.  The timed runs replay that
 * trace, through the law and through reno_on_ack() (tcp_reno_cong_avoid()
 * and tcp_cong_avoid_ai() of the kernel, rewritten here), each per-ACK step
 * a call through a function pointer as tcp_congestion_ops are.  An empty
 * step over the same trace gives the cost of the loop itself.
 *
 *   bench_ack [-n ACKS] [-r REPS] [-o law|reno|none]
 *
 * Prints ns per ACK (best of REPS replays of ACKS ACKs) for each and the
 * ratio law / reno.  -o runs one replay of one step only, for
 *   valgrind --tool=callgrind --toggle-collect=replay bench_ack -o law
 * whose instruction count / ACKS is the deterministic cost per ACK.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fast_adaptive/fa_law.h"

/* The modelled path: 50 Mbit/s of 1448-byte packets, 50 ms, 2 BDP. */
#define BENCH_RATE_PER_MS	4U	/* packets per ms (~46 Mbit/s) */
#define BENCH_BASE_US		50000U
#define BENCH_BDP		(BENCH_RATE_PER_MS * BENCH_BASE_US / 1000U)
#define BENCH_BUFFER		(2 * BENCH_BDP)

/* The inputs of one ACK. */
struct ack {
	u32 now_us;
	s32 rtt_us;
	u8 round_end;
	u8 cwnd_limited;
};

/* What a host keeps besides the law's state (a tcp_sock's few fields). */
struct host {
	struct fa_state law;
	struct fa_params p;
	u32 cwnd, ssthresh;
	u32 cwnd_cnt;		/* Reno: ACKs counted toward the next +1 */
};

typedef void (*ack_fn)(struct host *h, const struct ack *a);

static void host_init(struct host *h)
{
	memset(h, 0, sizeof(*h));
	fa_params_default(&h->p);
	fa_init(&h->law, 0);
	h->cwnd = 10;
	h->ssthresh = 0x7fffffff;
}

/*
 * fast_adaptive per ACK: tcp_fa_pkts_acked() then tcp_fa_cong_avoid() of
 * tcp_fast_adaptive.c, with acked = 1.
 */
static void __attribute__((noinline)) law_on_ack(struct host *h,
						 const struct ack *a)
{
	fa_rtt_sample(&h->law, a->rtt_us, a->now_us);
	if (a->round_end) {
		struct fa_update u;
		enum fa_action act;

		act = fa_round_end(&h->law, &h->p, h->cwnd,
				   h->cwnd < h->ssthresh, a->cwnd_limited,
				   a->now_us, &u);
		if (act != FA_ACT_NONE) {
			h->cwnd = fa_max_u32(fa_apply(act, h->cwnd, &u),
					     FA_CWND_MIN);
			h->ssthresh = h->cwnd;
		}
	}
	if (h->cwnd < h->ssthresh) {
		if (!a->cwnd_limited)
			return;
		if (fa_ss_exit(&h->law, &h->p, h->cwnd)) {
			h->ssthresh = h->cwnd;
		} else {
			h->cwnd++;		/* tcp_slow_start(), acked 1 */
			if (h->cwnd < h->ssthresh)
				return;
		}
		fa_ss_done(&h->law);
		return;
	}
	h->cwnd = fa_max_u32(fa_cwnd_on_ack(&h->law, h->cwnd, 1,
					    a->cwnd_limited), FA_CWND_MIN);
}

/*
 * Reno per ACK, as tcp_reno_cong_avoid() and tcp_cong_avoid_ai() do it
 * (acked = 1): slow start below ssthresh, else one packet per window of
 * ACKs.  A window beyond the path's BDP plus buffer loses a packet: the
 * window halves (tcp_reno_ssthresh()), as after a fast recovery.
 */
static void __attribute__((noinline)) reno_on_ack(struct host *h,
						  const struct ack *a)
{
	u32 w;

	if (h->cwnd > BENCH_BDP + BENCH_BUFFER) {
		h->ssthresh = fa_max_u32(h->cwnd >> 1, 2);
		h->cwnd = h->ssthresh;
		h->cwnd_cnt = 0;
		return;
	}
	if (!a->cwnd_limited)
		return;
	if (h->cwnd <= h->ssthresh) {		/* tcp_slow_start() */
		h->cwnd++;
		return;
	}
	w = h->cwnd;				/* tcp_cong_avoid_ai(w = cwnd) */
	if (h->cwnd_cnt >= w) {
		h->cwnd_cnt = 0;
		h->cwnd++;
	}
	h->cwnd_cnt++;
	if (h->cwnd_cnt >= w) {
		u32 delta = h->cwnd_cnt / w;

		h->cwnd_cnt -= delta * w;
		h->cwnd += delta;
	}
}

/*
 * The loop alone: the same trace, the same call, no congestion control
 * (the empty asm keeps the call and its arguments, and adds no work).
 */
static void __attribute__((noinline)) none_on_ack(struct host *h,
						  const struct ack *a)
{
	__asm__ volatile("" : : "r"(h), "r"(a) : "memory");
}

/*
 * Record n ACKs of a flow driven by the law on the modelled path: each
 * round the queue is what the window holds beyond the BDP (capped by the
 * buffer), the round's RTT is base + queue / rate, its ACKs are spread
 * over it and their samples carry up to 64 us of deterministic jitter.
 */
static struct ack *record(size_t n, u32 *final_cwnd, u32 *rounds)
{
	struct ack *t = calloc(n, sizeof(*t));
	struct host h;
	u32 now = 0, seed = 1, in_round = 0, rtt = BENCH_BASE_US, nr = 0;
	size_t i;

	if (!t)
		return NULL;
	host_init(&h);
	for (i = 0; i < n; i++) {
		struct ack *a = &t[i];

		if (in_round == 0) {	/* a new round: the window sent */
			u32 q = h.cwnd > BENCH_BDP ? h.cwnd - BENCH_BDP : 0;

			q = fa_min_u32(q, BENCH_BUFFER);
			rtt = BENCH_BASE_US + q * 1000U / BENCH_RATE_PER_MS;
			in_round = fa_max_u32(h.cwnd, 1);
			nr++;
		}
		seed = seed * 1103515245U + 12345U;
		now += rtt / fa_max_u32(h.cwnd, 1);
		a->now_us = now;
		a->rtt_us = (s32)(rtt + (seed >> 26));
		a->round_end = --in_round == 0;
		a->cwnd_limited = 1;
		law_on_ack(&h, a);
	}
	*final_cwnd = h.cwnd;
	*rounds = nr;
	return t;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static volatile u32 sink;

/* One replay of the trace through fn (callgrind counts from here). */
static void __attribute__((noinline)) replay(ack_fn fn, const struct ack *t,
					     size_t n)
{
	struct host h;
	size_t i;

	host_init(&h);
	for (i = 0; i < n; i++)
		fn(&h, &t[i]);
	sink = h.cwnd + h.cwnd_cnt;
}

/* Best ns per ACK over reps replays. */
static double time_replays(ack_fn fn, const struct ack *t, size_t n,
			   int reps)
{
	double best = 0;
	int r;

	for (r = 0; r < reps; r++) {
		double t0 = now_ns(), dt;

		replay(fn, t, n);
		dt = now_ns() - t0;
		if (r == 0 || dt < best)
			best = dt;
	}
	return best / (double)n;
}

static void usage(void)
{
	fprintf(stderr, "usage: bench_ack [-n ACKS] [-r REPS] [-o law|reno|none]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	size_t n = 1U << 20;
	const char *only = NULL;
	double law, reno, none;
	u32 cwnd, rounds;
	struct ack *t;
	int reps = 15, i;

	for (i = 1; i < argc; i++) {
		char *end;

		if (i + 1 >= argc)
			usage();
		if (!strcmp(argv[i], "-n")) {
			n = strtoul(argv[++i], &end, 10);
			if (*end || n < 1000 || n > (1U << 26))
				usage();
		} else if (!strcmp(argv[i], "-r")) {
			reps = (int)strtol(argv[++i], &end, 10);
			if (*end || reps < 1 || reps > 1000)
				usage();
		} else if (!strcmp(argv[i], "-o")) {
			only = argv[++i];
		} else {
			usage();
		}
	}

	t = record(n, &cwnd, &rounds);
	if (!t) {
		fprintf(stderr, "bench_ack: out of memory\n");
		return 1;
	}
	if (only) {
		if (!strcmp(only, "law"))
			replay(law_on_ack, t, n);
		else if (!strcmp(only, "reno"))
			replay(reno_on_ack, t, n);
		else if (!strcmp(only, "none"))
			replay(none_on_ack, t, n);
		else
			usage();
		printf("acks=%zu\n", n);
		free(t);
		return 0;
	}

	/* interleaved, so that a frequency change hits all three alike */
	law = reno = none = 0;
	for (i = 0; i < 3; i++) {
		double l = time_replays(law_on_ack, t, n, reps / 3 + 1);
		double r = time_replays(reno_on_ack, t, n, reps / 3 + 1);
		double z = time_replays(none_on_ack, t, n, reps / 3 + 1);

		law = i ? (l < law ? l : law) : l;
		reno = i ? (r < reno ? r : reno) : r;
		none = i ? (z < none ? z : none) : z;
	}
	printf("trace: %zu ACKs, %u rounds, path %u packets/ms x %u us (BDP %u, buffer %u), law's final cwnd %u\n",
	       n, rounds, BENCH_RATE_PER_MS, BENCH_BASE_US, BENCH_BDP,
	       BENCH_BUFFER, cwnd);
	printf("ns_per_ack law=%.2f reno=%.2f loop=%.2f ratio=%.2f\n", law, reno,
	       none, reno > 0 ? law / reno : 0);
	free(t);
	return 0;
}
