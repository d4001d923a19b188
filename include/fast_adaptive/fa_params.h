/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The tunables of fast_adaptive: name, default, range and meaning, in one
 * place for every host.
 *
 * The kernel module turns each into a range-checked module parameter
 * (/sys/module/tcp_fast_adaptive/parameters/NAME, ranges in modinfo);
 * fastctl checks values against fa_param_descs[] before it writes; the ns-3
 * model makes them attributes; the unit tests check the law at both ends of
 * every range.
 *
 * Gains are in 1/1024 units (FA_ONE): gamma_max = 1024 is a gain of 1.0.
 */
#ifndef _FA_PARAMS_H
#define _FA_PARAMS_H

#include "fa_types.h"

/* Fixed-point unit of gamma_* and gain_k: 1.0 == 1024. */
#define FA_SHIFT	10
#define FA_ONE		1024U

#define FA_STR2(x)	#x
#define FA_STR(x)	FA_STR2(x)

#define FA_ALPHA_PKTS_DEFAULT	20
#define FA_ALPHA_PKTS_MIN	1
#define FA_ALPHA_PKTS_MAX	65536
#define FA_ALPHA_PKTS_HELP	\
	"packets each flow keeps queued at equilibrium (alpha)"

#define FA_GAMMA_MIN_DEFAULT	256
#define FA_GAMMA_MIN_MIN	1
#define FA_GAMMA_MIN_MAX	1024
#define FA_GAMMA_MIN_HELP	\
	"adaptive gain near equilibrium, 1/1024 units"

#define FA_GAMMA_MAX_DEFAULT	768
#define FA_GAMMA_MAX_MIN	1
#define FA_GAMMA_MAX_MAX	1024
#define FA_GAMMA_MAX_HELP	\
	"adaptive gain far from equilibrium, 1/1024 units"

#define FA_GAMMA_FIXED_DEFAULT	512
#define FA_GAMMA_FIXED_MIN	1
#define FA_GAMMA_FIXED_MAX	1024
#define FA_GAMMA_FIXED_HELP	\
	"fixed gain when adaptive_gain=0 (classic FAST), 1/1024 units"

#define FA_GAIN_K_DEFAULT	2048
#define FA_GAIN_K_MIN	1
#define FA_GAIN_K_MAX	65536
#define FA_GAIN_K_HELP	\
	"slope k of gamma = min + (max - min)(1 - exp(-k e)), 1/1024 units"

#define FA_SS_EXIT_PKTS_DEFAULT	0
#define FA_SS_EXIT_PKTS_MIN	0
#define FA_SS_EXIT_PKTS_MAX	65536
#define FA_SS_EXIT_PKTS_HELP	\
	"leave slow start at this own backlog; 0 = cwnd/4 within [alpha/2, 3 alpha]"

#define FA_SS_DELAY_US_DEFAULT	750
#define FA_SS_DELAY_US_MIN	1
#define FA_SS_DELAY_US_MAX	10000000
#define FA_SS_DELAY_US_HELP	\
	"classic slow-start exit queueing delay when adaptive_ss=0"

#define FA_UPDATE_RTTS_DEFAULT	2
#define FA_UPDATE_RTTS_MIN	1
#define FA_UPDATE_RTTS_MAX	16
#define FA_UPDATE_RTTS_HELP	\
	"RTTs between two window updates of the control law"

#define FA_ADAPTIVE_GAIN_DEFAULT	1
#define FA_ADAPTIVE_GAIN_MIN	0
#define FA_ADAPTIVE_GAIN_MAX	1
#define FA_ADAPTIVE_GAIN_HELP	\
	"1: gain adapts to |backlog - alpha| / alpha; 0: gamma_fixed"

#define FA_ADAPTIVE_SS_DEFAULT	1
#define FA_ADAPTIVE_SS_MIN	0
#define FA_ADAPTIVE_SS_MAX	1
#define FA_ADAPTIVE_SS_HELP	\
	"1: slow start ends on own backlog; 0: on ss_delay_us"

#define FA_BASE_WIN_MS_DEFAULT	2000
#define FA_BASE_WIN_MS_MIN	100
#define FA_BASE_WIN_MS_MAX	60000
#define FA_BASE_WIN_MS_HELP	\
	"window after which a base RTT that looks stale is probed"

/*
 * Off by default: in the QEMU/TCG rig, paced flows (hrtimer per packet) kept
 * less than half their window in flight, were never cwnd-limited and so never
 * grew (8.8 vs 29.6 Mbit/s unpaced, same boot).  ns-3 runs it on.
 */
#define FA_PACING_DEFAULT	0
#define FA_PACING_MIN	0
#define FA_PACING_MAX	1
#define FA_PACING_HELP	\
	"1: new sockets ask TCP to pace, so slow start measures backlog, not bursts"

/*
 * Below equilibrium (the flow's own backlog under alpha/4 for a whole update
 * cycle) re-enter the backlog-exit slow start instead of adding gamma alpha
 * per update: the window reaches a larger share in log2 rounds, not
 * linearly.  0 restores the paper's law (linear approach).
 */
#define FA_RAMP_DEFAULT	1
#define FA_RAMP_MIN	0
#define FA_RAMP_MAX	1
#define FA_RAMP_HELP	\
	"1: below equilibrium (own backlog < alpha/4) re-enter slow start; 0: linear"

/*
 * The route test (a longer path?) allows for the flow's own standing queue,
 * alpha at the highest rate the flow reached lately: where alpha / C is a
 * large part of the base RTT the test otherwise fires on that queue and
 * drains the link every few seconds.  0: base/4 alone (as before).
 */
#define FA_OWN_QUEUE_DEFAULT	1
#define FA_OWN_QUEUE_MIN	0
#define FA_OWN_QUEUE_MAX	1
#define FA_OWN_QUEUE_HELP	\
	"1: the route test allows the flow's own queue alpha/rate; 0: base/4 only"

/*
 * The route test's window also ends after this many rounds (times the
 * probe backoff).  Off by default: where alpha / C is a large part of the
 * RTT (ns-3 Exp 1) a 4-round window probed every 1.5 s on the standing
 * queue (utilisation 81 %, 95.5 % without); drain_check finds a longer
 * path faster without that cost.  0: base_win_ms only.
 */
#define FA_ROUTE_ROUNDS_DEFAULT	0
#define FA_ROUTE_ROUNDS_MIN	0
#define FA_ROUTE_ROUNDS_MAX	64
#define FA_ROUTE_ROUNDS_HELP	\
	"route-test window in rounds (at most base_win_ms); 0 = base_win_ms only"

/*
 * The once-per-flow base-RTT probe runs at the first update after slow
 * start, while the slow-start overshoot has to drain anyway, and restores
 * the window the drained RTT asks for (w base / avg + alpha), not the
 * overshot one.  0: three updates later, restoring the old window.
 */
#define FA_QUICK_PROBE_DEFAULT	1
#define FA_QUICK_PROBE_MIN	0
#define FA_QUICK_PROBE_MAX	1
#define FA_QUICK_PROBE_HELP	\
	"1: the once-per-flow probe right after slow start, restoring the target; 0: 3 updates later"

/*
 * A longer path shows when the law cuts the window and the RTT does not
 * fall: two cuts in a row whose drain did not show probe the path at once
 * instead of after base_win_ms.  0: off.
 */
#define FA_DRAIN_CHECK_DEFAULT	1
#define FA_DRAIN_CHECK_MIN	0
#define FA_DRAIN_CHECK_MAX	1
#define FA_DRAIN_CHECK_HELP	\
	"1: two window cuts whose drain the RTT does not show probe the path; 0: off"

/*
 * On a path whose base RTT is shorter than this, queueing delay up to it is
 * taken for processing jitter, not queue: the law reads its RTTs against
 * max(base, jitter_us).  On a sub-millisecond path (veth, LAN) the RTT a
 * lone flow sees is mostly scheduling and softirq batching, and FAST would
 * settle at alpha avg / (avg - base) packets (27 on the VM's unshaped veth,
 * min RTT 0.4 ms, round minima 1.1-1.8 ms).  WAN paths (base above it) are
 * not affected.  0: off.
 */
#define FA_JITTER_US_DEFAULT	1000
#define FA_JITTER_US_MIN	0
#define FA_JITTER_US_MAX	100000
#define FA_JITTER_US_HELP	\
	"paths with a base RTT below this read RTTs against it (processing jitter); 0: off"

/*
 * A probe drains the path by cutting the window to FA_CWND_MIN.  Its first
 * round ends at the ACK of the first packet sent after the cut, which left
 * only once the old flight was acknowledged: that RTT is already the drained
 * one.  With short_probe the probe ends there; 0: a second round (another
 * RTT of an idle link: 0.2 s of no delivery per connection in all on the
 * VM's 100 ms path).
 */
#define FA_SHORT_PROBE_DEFAULT	1
#define FA_SHORT_PROBE_MIN	0
#define FA_SHORT_PROBE_MAX	1
#define FA_SHORT_PROBE_HELP	\
	"1: a base-RTT probe lasts one round; 0: two rounds"

/*
 * A path that gets shorter while the flow keeps a standing queue lowers the
 * minimum only to the new path plus that queue, and the law then takes the
 * queue for propagation delay for good (VM selftest fa_faults: 200 -> 20 ms
 * with a full buffer left a 20 ms path at a 61 ms base).  With shorter_path
 * an RTT sample more than base/4 below the base, outside a probe, re-arms
 * the once-per-flow probe, which drains the path and measures it.  0: off.
 */
#define FA_SHORTER_PATH_DEFAULT	1
#define FA_SHORTER_PATH_MIN	0
#define FA_SHORTER_PATH_MAX	1
#define FA_SHORTER_PATH_HELP	\
	"1: a sample base/4 below the base RTT re-arms the once-per-flow probe; 0: off"

/*
 * A loss while fewer than 3/2 alpha of the flow's packets were queued did not
 * come from a queue this flow overfilled (random loss, or a shallow buffer
 * that cannot hold N alpha): the window drops by the flow's backlog, at most
 * once per round, instead of halving (fa_law.h, "Loss").  0: every loss
 * halves, as in FAST.
 */
#define FA_RANDOM_LOSS_DEFAULT	1
#define FA_RANDOM_LOSS_MIN	0
#define FA_RANDOM_LOSS_MAX	1
#define FA_RANDOM_LOSS_HELP	\
	"1: a loss with the flow's backlog under 3/2 alpha cuts only that backlog; 0: every loss halves"

/*
 * A loss that random_loss reads as not this flow's overflow, or a CE mark,
 * while the flow had at least alpha/4 packets queued says the path holds
 * less queue than the flow builds (a buffer smaller than N alpha, an AQM
 * whose target is below alpha / C): alpha drops to 3/4 of that backlog (not
 * below alpha/4) and regrows by a packet per route window; the ramp after
 * such a cut stops at the window the loss found.  A CE mark cuts the
 * backlog (at least w/8, at most half) instead of halving, and no ramp
 * follows it.  0: off (a CE mark halves).
 */
#define FA_QUEUE_FIT_DEFAULT	1
#define FA_QUEUE_FIT_MIN	0
#define FA_QUEUE_FIT_MAX	1
#define FA_QUEUE_FIT_HELP	\
	"1: a loss or CE mark on a small backlog lowers alpha to fit the queue the path holds; 0: off"

/*
 * A loss on a small backlog while the queue stands deep and the law has
 * been shrinking the window, followed by a drain that does not empty the
 * queue, says that buffer-filling (loss-based) flows hold the bottleneck:
 * the flow then competes with a Reno-like AIMD window until a drain finds
 * the queue empty again (fa_law.h, "Competing").  0: off.
 */
#define FA_COMPETE_DEFAULT	1
#define FA_COMPETE_MIN		0
#define FA_COMPETE_MAX		1
#define FA_COMPETE_HELP	\
	"1: compete (Reno-like AIMD) while loss-based flows keep the queue full; 0: off"

/*
 * A loss at the end of a doubling (slow start, a ramp, or before the first
 * update after one) with the queue not empty is the doubling's overflow,
 * whatever the flow's backlog reads: its round minima lag a window that
 * doubles each round, and in a buffer smaller than N alpha each flow's
 * share looks small.  It halves, and the cap it leaves on ramps (and that
 * of a loss that fits alpha) holds for its route window and the next
 * (fa_law.h, "Loss").  0: such losses are read as any other.
 */
#define FA_OVERSHOOT_DEFAULT	1
#define FA_OVERSHOOT_MIN	0
#define FA_OVERSHOOT_MAX	1
#define FA_OVERSHOOT_HELP	\
	"1: a loss ending a slow start or ramp on a standing queue halves and caps ramps for 2 route windows; 0: off"

/*
 * After a probe adopted a longer path, the base falls more than base/8
 * below it: a path that got longer does not get shorter bit by bit, others'
 * queue taken for one does (a loss-based flow's sawtooth).  That counts as
 * evidence of buffer-filling flows, as a loss on a small backlog does, so
 * that a competitor whose overflows never drop this flow's packets is
 * found too (fa_law.h, "Competing").  Needs compete.  0: only a loss is
 * evidence.
 */
#define FA_COMPETE_MOVES_DEFAULT	1
#define FA_COMPETE_MOVES_MIN		0
#define FA_COMPETE_MOVES_MAX		1
#define FA_COMPETE_MOVES_HELP	\
	"1: a base that falls below a longer path the flow adopted is evidence of loss-based traffic; 0: only a loss is"

/*
 * A route window whose least RTT rose by floor/32 or more over the one
 * before, which had risen as much over its own, more than base/4 above the
 * base RTT: a deep queue that keeps growing while the law
 * follows it down is a loss-based competitor's (fast_adaptive peers hold
 * theirs steady).  That is evidence, as a loss on a small backlog is, and
 * asks for the drain at once; the drain decides (fa_law.h, "Competing").
 * Needs compete.  0: off.
 */
#define FA_COMPETE_TREND_DEFAULT	1
#define FA_COMPETE_TREND_MIN		0
#define FA_COMPETE_TREND_MAX		1
#define FA_COMPETE_TREND_HELP	\
	"1: a deep queue whose least RTT rises route window after route window is evidence of loss-based traffic; 0: off"

/*
 * On entering the competitive mode the flow slow starts once: to twice the
 * window the law had kept (0), or (1) until a loss, as a CUBIC or Reno flow
 * that joins the path does; the mode's CUBIC curve then starts from the
 * window that loss finds, not from what the competitor had left this flow
 * (fa_law.h, "Competing").  Needs compete.
 */
#define FA_COMPETE_START_DEFAULT	1
#define FA_COMPETE_START_MIN		0
#define FA_COMPETE_START_MAX		1
#define FA_COMPETE_START_HELP	\
	"1: competing starts with a slow start that runs until a loss; 0: to twice the window"

/*
 * A drain whose RTT stands floor/8 or more above the longer path the last
 * drain adopted: a path does not lengthen again within seconds, a
 * loss-based competitor's queue, taken for one, grows on (CUBIC from its
 * slow start).  That is evidence, and the same drain then decides
 * (fa_law.h, "Competing").  Needs compete.  0: off.
 */
#define FA_COMPETE_RISE_DEFAULT		1
#define FA_COMPETE_RISE_MIN		0
#define FA_COMPETE_RISE_MAX		1
#define FA_COMPETE_RISE_HELP	\
	"1: a drain that finds the queue grown over the longer path the last drain adopted is evidence of loss-based traffic; 0: off"

/*
 * A probe (FA_CWND_MIN packets) reads the RTT of the first packet sent once
 * the old flight is acknowledged; what is sent behind that packet cannot
 * delay it.  With early_restore the window comes back at that moment, the
 * packet at the head of the restored window, instead of an RTT later at its
 * ACK (the probe still ends there and sets the window its measurement asks
 * for): one RTT of an idle link less per probe.  0: restore at the ACK.
 */
#define FA_EARLY_RESTORE_DEFAULT	1
#define FA_EARLY_RESTORE_MIN		0
#define FA_EARLY_RESTORE_MAX		1
#define FA_EARLY_RESTORE_HELP	\
	"1: a probe gives the window back once the old flight is acknowledged, its first packet measuring the drained path; 0: at that packet's ACK"

/*
 * queue_fit lowers alpha at a loss or mark that found the flow's queue where
 * the path holds no more, and alpha regrows one packet per route window.
 * With fit_hold it regrows only after two route windows in a row without
 * such a fit or mark (the ramp-cap flags, fa_cap_held()): N flows whose
 * caps sit near what the buffer holds otherwise overflow it again after a
 * single regrowth (the VM's shallow bench: 4 flows, 52 packets, every flow
 * at a cap of 5-8 packets losing together every 2.3-2.7 s).  A fit by a
 * random-looking loss holds the flags only with overshoot.  0: regrow at
 * every route window's end.
 */
#define FA_FIT_HOLD_DEFAULT		1
#define FA_FIT_HOLD_MIN			0
#define FA_FIT_HOLD_MAX			1
#define FA_FIT_HOLD_HELP	\
	"1: alpha lowered by queue_fit regrows only after two route windows without a fit or CE mark; 0: one packet every route window"

/*
 * queue_fit lowers alpha to 3/4 of the backlog a loss or mark found, and
 * only a backlog of alpha/4 or more fits.  With fit_low the lowered alpha
 * may fall below alpha/4 (to 3/4 of a backlog of alpha/4, 3/16 alpha): 4 flows of
 * alpha 20 in the VM's 52-packet shallow bench sat at caps of 5-7 and still
 * lost together every 0.2-1 s after their fits (the queue of 4 x 5 plus the
 * emulated sender's bursts), as alpha 8 did not (late drops 83-122 against
 * 190-287, cubic 84-154).  0: never below alpha/4.  While alpha is capped
 * no ramp runs and the law climbs by gamma alpha per update, so a lower cap
 * climbs slower: without fit_noise, CI's fa_faults loss test (10 % loss
 * bursts) recovered in 7.3 and 11.1 s in 2 of 6 runs (bar 10 s), a loss
 * within the RTT's scatter having fitted alpha to 4; with it, 1.0-1.4 s in
 * 6 of 6 (trial t36: shallow 370 retransmissions against 443 off, cubic 354).
 */
#define FA_FIT_LOW_DEFAULT		1
#define FA_FIT_LOW_MIN			0
#define FA_FIT_LOW_MAX			1
#define FA_FIT_LOW_HELP	\
	"1: queue_fit may lower alpha below alpha/4 (to 3/4 of the backlog found, at least 3/16 alpha); 0: never below alpha/4"

/*
 * queue_fit reads a loss's backlog b = w (r - base) / r, and RTT scatter
 * of J reads as w J / r packets: the larger the window, the larger the
 * backlog that scatter alone shows.  With fit_noise a loss fits alpha
 * only where b >= w/16 as well (a queueing delay of r/16, 3.3 ms at 53
 * ms), and a loss under that line marks the route window lossy as one
 * under alpha/4 does: in CI's fa_faults loss test (10 % loss bursts, VM)
 * a loss right after a halving read b = 6 of a window of 120, fitted
 * alpha to 4, and the flow climbed back in 7-11 s instead of 1-3.  CE
 * marks keep the alpha/4 line.  0: alpha/4 only.
 */
#define FA_FIT_NOISE_DEFAULT		1
#define FA_FIT_NOISE_MIN		0
#define FA_FIT_NOISE_MAX		1
#define FA_FIT_NOISE_HELP	\
	"1: a loss fits alpha only where the backlog is also at least cwnd/16 (RTT scatter reads as backlog on a large window); 0: alpha/4 only"

/*
 * A drain probe leaves at most FA_CWND_MIN packets in flight, and the
 * window it gives back (hundreds of packets on a WAN) would leave as one
 * train at the sender's line rate, with no ACKs to clock it: in the VM's
 * demo (1-BDP buffer, 413 packets) a window of 474 given back to an empty
 * flight met the 470 Mbit/s veth, 13 packets were lost within the round,
 * and the overshoot rule then halved the window and capped alpha (study
 * 6.7 s against 6.0 s without the loss).  With restore_pace the host paces
 * that flight at the stack's rate (1.2 cwnd / srtt, as for any paced
 * socket) until the window is in flight, then stops pacing: after one
 * round the ACKs clock the flow again.  A socket paced already (the
 * pacing tunable, fq) is left as it is.  0: the window leaves at once.
 */
#define FA_RESTORE_PACE_DEFAULT		1
#define FA_RESTORE_PACE_MIN		0
#define FA_RESTORE_PACE_MAX		1
#define FA_RESTORE_PACE_HELP	\
	"1: the window a drain probe gives back is paced (1.2 cwnd / srtt) until it is in flight, not sent as one line-rate train; 0: sent at once"

/*
 * A ramp that an update starts (the flow's backlog stayed under alpha/4 for
 * two cycles, or the knee test passed) doubles per round until the exit
 * rule reads the flow's own backlog, a round late.  When the deficit is
 * less than the window, as when one of three flows leaves, the flow whose
 * cycle ends first takes the whole spare before the other has started
 * (ns-3, 96 Mb/s, alpha 20: one out at 661 packets while the other ramped
 * at 367), and FAST evens two windows only through alpha, a few per cent
 * per update (3.83 s to re-converge).  With ramp_double such a ramp stops
 * at twice the window it started from (a probe's ramp, which follows a
 * longer path or a slow start that ended on its own bursts, is not
 * capped); a larger deficit takes another ramp two cycles later.
 * 0: the exit rule alone ends it.
 */
#define FA_RAMP_DOUBLE_DEFAULT		1
#define FA_RAMP_DOUBLE_MIN		0
#define FA_RAMP_DOUBLE_MAX		1
#define FA_RAMP_DOUBLE_HELP	\
	"1: a ramp an update starts stops at twice the window it started from; 0: only the backlog exit ends it"

/*
 * The once-per-flow probe right after slow start (quick_probe) reads the
 * RTT the flow had before the drain twice: for the window it gives back
 * (w base / avg + alpha) and for the test whether slow start had ended
 * below the pipe, on its own bursts (fa_probe_found_room(), which then
 * ramps).  The last round's minimum is near the base whenever one packet
 * of the round found the queue empty, and under TCG's bursts one does even
 * over a standing queue: in the VM's demo (1-BDP buffer) slow starts that
 * ended at 450-508 packets on a 413-packet pipe ramped from the probe to
 * 697-776, 60-85 ms of queue for a second.  With probe_mean both read the
 * mean RTT of the probe's own round, the ACKs of the last window, whose
 * packets left at the ACK clock after the exit (the round before holds
 * slow start's own train); a window below the pipe shows no queue there,
 * one above it shows what it holds.  0: the last round's minimum.
 */
#define FA_PROBE_MEAN_DEFAULT		1
#define FA_PROBE_MEAN_MIN		0
#define FA_PROBE_MEAN_MAX		1
#define FA_PROBE_MEAN_HELP	\
	"1: the probe after slow start reads the mean RTT of its own round, the last window's ACKs (window given back, room to ramp); 0: the minimum of the round before it"

/*
 * The once-per-flow probe after slow start drained the window to
 * FA_CWND_MIN for a round: the link idled about an RTT, 0.08-0.1 s of each
 * 100 ms connection (VM demo: the study's whole lag behind cubic).  With
 * probe_pause it first only pauses: it sends nothing for as many packets
 * as its own backlog plus 2 alpha (FA_PAUSE_ALPHAS), which empties the
 * bottleneck of its own queue and of up to 2 alpha of others', and reads
 * the RTT of the first packet after the pause.  A lone flow then finds its
 * base where it was and goes on.  A flow whose packet reads more than
 * jitter_us off its base (lower: others' queue was in it; higher: the pause
 * left a queue) drains to FA_CWND_MIN at once, as before, and the drain
 * sets its base.  When the pause is over, the old flight's ACKs may ask
 * for a longer one (fa_pause_longer()), and a drain it escalates to gives
 * back the window their mean asks for (ns-3 Exp 2 paced, 2026-12-07:
 * 0.71 s, 1.1 % against the drain's 0.99 s, 0.8 %).  A lone flow gains
 * most of the drain's RTT back (VM, one boot each: demo study 5.93 s
 * against 6.01 s, cubic 5.89 s; 64 MiB pull 6.52 s against 6.58 s, cubic
 * 6.42 s).  Off by default: a joiner pays the pause and the drain (ns-3
 * Exp 7: 1.61 s after the join against 1.02 s), four flows in a quarter-BDP
 * buffer lost more (VM shallow: 398 retransmissions against 223), and
 * ns-3's share next to cubic 1:1 fell to 33 % from 42 %.  0: drain at once.
 */
#define FA_PROBE_PAUSE_DEFAULT		0
#define FA_PROBE_PAUSE_MIN		0
#define FA_PROBE_PAUSE_MAX		1
#define FA_PROBE_PAUSE_HELP	\
	"1: the probe after slow start first pauses for its own backlog + 2 alpha, and drains to 2 packets only if the packet after the pause reads more than jitter_us off the base; 0: it drains at once"

/*
 * shorter_path re-arms the once-per-flow probe when an RTT sample falls
 * more than base/4 under the base.  That probe ran at the very next update,
 * while the flight the longer path held was still collapsing into the
 * bottleneck: the VM's 200 -> 20 ms change read 21.5-22.3 ms in 3 of 4
 * runs (the 6.12 selftest's 10 % bar lost twice in CI), restored a window
 * of 327-832 packets onto an 83-packet pipe, and a loss that cut such a
 * probe short left the base where the transient put it, for good.  With
 * path_settle the probe waits one update (after an overflow, its recovery,
 * during which the law does not update, and a full cycle after it), and a
 * loss that cuts it short runs it once more at the next update (VM, 5 runs:
 * bases 20.72-20.91 ms on the 20 ms path, against 20.0-22.3 ms and one
 * miss in 9 runs without).  0: at once, and a loss ends it.
 */
#define FA_PATH_SETTLE_DEFAULT		1
#define FA_PATH_SETTLE_MIN		0
#define FA_PATH_SETTLE_MAX		1
#define FA_PATH_SETTLE_HELP	\
	"1: the probe a shorter path asks for (shorter_path) waits one update, and runs once more if a loss cuts it short; 0: it runs at the next update, and a loss ends it"

/*
 * The ramp line (fa_law.h, "Approach from below") is alpha/4 packets of the
 * flow's own backlog on the mean RTT of an update cycle.  RTT scatter that
 * the window does not cause (host and emulator scheduling, ACK bunching)
 * reads as a backlog of w scatter / rtt, which grows with the window: the
 * VM's 64 MiB pull restored 570-623 packets of an 833-packet pipe after its
 * slow start, with the cycle's mean RTT 0.6-0.9 ms over the base, a backlog
 * read of 3.5-5 packets against the line of 5, and climbed by the law's
 * steps for a second until the knee test ramped.  With ramp_scatter the
 * line is alpha/4 + w/128 (a scatter of rtt/128 at any window), at most
 * alpha/2: the law holds alpha queued on the cycle's minimum RTT, which is
 * never above its mean, so equilibrium never reads as room.  On by default
 * since 2026-12-06 (bench trial t55, 3 runs each in one boot): the 64 MiB
 * pull ramped 0.4 s after its probe in 3 of 3 runs (2 of 3 without; the
 * third 0.6 s later, 7.00 s against 6.69), 6.71 s median against 6.69; a
 * joiner's peak 14 % over its share against 22 %; bulk, path change and
 * ns-3's Exp 1, 2 and 7 unchanged.  0: alpha/4.
 */
#define FA_RAMP_SCATTER_DEFAULT		1
#define FA_RAMP_SCATTER_MIN		0
#define FA_RAMP_SCATTER_MAX		1
#define FA_RAMP_SCATTER_HELP	\
	"1: the ramp line allows RTT scatter, alpha/4 + cwnd/128 packets, at most alpha/2; 0: alpha/4"

/*
 * Competing, the exit test that finds others' queue still there also weighs
 * the flow's window against theirs: in the drain its packets leave the
 * queue and theirs stay, so the RTT before the drain over the drained one
 * is (w + W) / W.  Where w reads under 3/4 of W, the flow gives its window
 * back with a slow start to a loss, as on entry (compete_start), instead of
 * leaving CUBIC's curve to close the gap over several of the competitor's
 * epochs (fa_law.h, "Competing").  Needs compete.  0: off.
 */
#define FA_COMPETE_REFILL_DEFAULT	0
#define FA_COMPETE_REFILL_MIN		0
#define FA_COMPETE_REFILL_MAX		1
#define FA_COMPETE_REFILL_HELP	\
	"1: a competing flow whose exit test reads its window under 3/4 of the others' slow starts to a loss; 0: off"

/*
 * Competing, the exit test (a drain to 2 packets that reads whether others'
 * queue is still there) runs at the end of a route window without a loss of
 * the flow's own in it or the one before: a loss-based flow's trough after
 * its loss holds no queue for a while and a test then would end the mode
 * while it is still there.  So after the competitor leaves the mode can
 * last up to two route windows more (4 s), and with compete_refill the
 * window it refilled holds a queue of its own all that time (VM trial t54:
 * 2.37x the lone flow's queueing delay over the 5 s after cubic left).
 * With compete_quit a round whose least RTT stands less than half as far
 * above the floor as the highest round minimum of this route window, with
 * no loss of its own in the window, starts the test at once: a competitor
 * that leaves takes its share of the queue within a few rounds, while its
 * multiplicative decrease leaves more than half of a deep queue (cubic's
 * 0.7 about three quarters, reno's 0.5 about three fifths of a 2-BDP
 * queue, at an even share).  Needs compete.  0: off.
 */
#define FA_COMPETE_QUIT_DEFAULT		0
#define FA_COMPETE_QUIT_MIN		0
#define FA_COMPETE_QUIT_MAX		1
#define FA_COMPETE_QUIT_HELP	\
	"1: competing, a round minimum under half the route window's highest (queue over the floor) tests for the competitor at once; 0: at the end of a clean route window"

/*
 * Competing, FA_COMP_FLAT_TESTS exit tests in a row that drain to the same
 * RTT (within floor/16) say the path got longer, and the flow adopts it and
 * goes back to the law.  Next to CUBIC near its W_max the competitor's
 * window stands still for most of its epoch, and so does the drained RTT:
 * ns-3's cubic 1:1 (96 Mb/s, 50 ms, 2 BDP) adopted 73.6 and 62.5 ms on a
 * 50 ms path that way, and the flow then sat in the law at a tenth of the
 * link until cubic's next loss.  With compete_adopt the chain adopts only
 * if a loss of the flow's own fell between its first test and its last: a
 * loss-based competitor's window, and the drained RTT, move at a loss; a
 * longer path reads the same on both sides of the flow's own CUBIC losses.
 * Cost: alone on a longer path the mode lasts one CUBIC epoch more (about
 * 10-15 s on a 2-BDP buffer).  Needs compete.  On by default since
 * 2026-12-07 (eighth session), the second of issue 13's five: ns-3's
 * coexistence set (TcpCubic 1:1 42.0 % against 19.6 %) and trials t67/t68
 * ran with it on before the flip, the fresh-clone check after it, the bench
 * in the ninth session and ns-3's full sweep in the tenth (README "Status",
 * JOURNAL).  0: four flat tests adopt.
 */
#define FA_COMPETE_ADOPT_DEFAULT	1
#define FA_COMPETE_ADOPT_MIN		0
#define FA_COMPETE_ADOPT_MAX		1
#define FA_COMPETE_ADOPT_HELP	\
	"1: competing, flat exit tests adopt a longer path only if a loss fell between them; 0: four flat tests adopt"

/*
 * A flow that took a competitor's standing queue for a longer path (a drain
 * read it) holds alpha queued on it at its rate x, its round minima alpha / x
 * above the path, and its route test allows its own alpha / x too: as it
 * starves, nothing drains again unless one of its packets is lost.  ns-3's
 * NewReno next to it did not drop one in 60 s (7 % of the link on an adopted
 * 90.5 ms path, the RTT at 106-124 ms).  With compete_recheck a route window
 * whose least RTT stands floor/8 or more above the adopted path asks for a
 * drain, at most once per 8.4 s, and compete_rise decides on its RTT.  Cost:
 * a round of the window per 8.4 s where the flow's own alpha / x exceeds
 * floor/8.  Needs compete and compete_rise.  On by default since 2026-12-06
 * (seventh session): VM suites, bench and ns-3's coexistence set ran with it
 * on, ns-3's full sweep in the eighth (README "Status", JOURNAL).  0: off.
 */
#define FA_COMPETE_RECHECK_DEFAULT	1
#define FA_COMPETE_RECHECK_MIN		0
#define FA_COMPETE_RECHECK_MAX		1
#define FA_COMPETE_RECHECK_HELP	\
	"1: on an adopted longer path, a route window floor/8 above it drains (once per 8.4 s) for compete_rise; 0: off"

/*
 * After the competitive mode ends with others' queue gone (a loss-based flow
 * in its trough), the evidence lasts three more route windows, and a route
 * window whose least RTT stands floor/8 over the floor in that time asks for
 * a drain.  The evidence could run out at the very window end that asked, and
 * the drain, finding the competitor's queue back, then did not compete (ns-3
 * cubic 1:1 at 47.4 s: 13 ms of cubic's queue read, 10 s more in the law at
 * a tenth of the link).  With compete_keep such a window renews the evidence,
 * which then lasts while every route window stands floor/8 over the floor.
 * Needs compete.  0: off.
 */
#define FA_COMPETE_KEEP_DEFAULT		0
#define FA_COMPETE_KEEP_MIN		0
#define FA_COMPETE_KEEP_MAX		1
#define FA_COMPETE_KEEP_HELP	\
	"1: a route window that asks for a drain on evidence renews the evidence; 0: off"

/*
 * queue_fit sets alpha to 3/4 of the flow's backlog at the loss, which is
 * the flow's share of the queue then: N flows that fit at one overflow keep
 * the shares they had, and one that missed the losses keeps alpha whole
 * (the VM's shallow runs, 4 flows in 52 packets: one flow at 46-52 % of the
 * link, the others at 15-22 %, Jain 0.72-0.81, while classic FAST reads
 * 0.99).  With fit_regrow a fitted alpha regrows one packet per update of
 * the law, not per route window, once no fit holds the ramp cap
 * (fa_cap_held(), fit_hold's two route windows): the flows' alphas climb
 * back together until the buffer overflows again, and that overflow's
 * losses fall mostly on the flows that hold the most of it (AIMD on alpha).
 * Needs queue_fit.  0: off.
 */
#define FA_FIT_REGROW_DEFAULT		0
#define FA_FIT_REGROW_MIN		0
#define FA_FIT_REGROW_MAX		1
#define FA_FIT_REGROW_HELP	\
	"1: a fitted alpha regrows one packet per update once no fit holds the cap; 0: one per route window"

/*
 * The once-per-flow probe gives a joiner the true base only where the
 * incumbents, silent it, cannot fill the pipe: right after the joiner's slow
 * start they have not yet yielded its share, and the drained RTT still holds
 * part of their queue (VM bench, three flows 4 s apart: the third flow's
 * base 52-58 ms on a 51 ms path in 5 of 13 runs, its share up to 39 % over
 * the others' for the rest of the run).  With join_reprobe a once-per-flow
 * probe whose drain lowered the base by more than max(jitter_us, base/32)
 * (the flow was a joiner: others' queue was in its base) runs once more two
 * updates later, when the incumbents have cut towards their new shares; a
 * drain that lowers the base again re-arms it again, and none adopts a
 * longer path.  A lone flow's base does not fall in the drain and it pays
 * nothing; a joiner whose first drain read nearly the queue its handshake
 * saw is not told from one.  0: off.
 */
#define FA_JOIN_REPROBE_DEFAULT		1
#define FA_JOIN_REPROBE_MIN		0
#define FA_JOIN_REPROBE_MAX		1
#define FA_JOIN_REPROBE_HELP	\
	"1: a once-per-flow probe that lowered the base probes once more two updates later; 0: off"

/* Index of each tunable in fa_param_descs[]. */
enum fa_param_id {
	FA_P_ALPHA_PKTS,
	FA_P_GAMMA_MIN,
	FA_P_GAMMA_MAX,
	FA_P_GAMMA_FIXED,
	FA_P_GAIN_K,
	FA_P_SS_EXIT_PKTS,
	FA_P_SS_DELAY_US,
	FA_P_UPDATE_RTTS,
	FA_P_ADAPTIVE_GAIN,
	FA_P_ADAPTIVE_SS,
	FA_P_BASE_WIN_MS,
	FA_P_PACING,
	FA_P_RAMP,
	FA_P_OWN_QUEUE,
	FA_P_ROUTE_ROUNDS,
	FA_P_QUICK_PROBE,
	FA_P_DRAIN_CHECK,
	FA_P_JITTER_US,
	FA_P_SHORT_PROBE,
	FA_P_SHORTER_PATH,
	FA_P_RANDOM_LOSS,
	FA_P_QUEUE_FIT,
	FA_P_COMPETE,
	FA_P_OVERSHOOT,
	FA_P_COMPETE_MOVES,
	FA_P_COMPETE_TREND,
	FA_P_COMPETE_START,
	FA_P_COMPETE_RISE,
	FA_P_EARLY_RESTORE,
	FA_P_FIT_HOLD,
	FA_P_FIT_LOW,
	FA_P_FIT_NOISE,
	FA_P_RESTORE_PACE,
	FA_P_RAMP_DOUBLE,
	FA_P_PROBE_MEAN,
	FA_P_PROBE_PAUSE,
	FA_P_PATH_SETTLE,
	FA_P_RAMP_SCATTER,
	FA_P_COMPETE_REFILL,
	FA_P_COMPETE_QUIT,
	FA_P_COMPETE_ADOPT,
	FA_P_COMPETE_RECHECK,
	FA_P_COMPETE_KEEP,
	FA_P_FIT_REGROW,
	FA_P_JOIN_REPROBE,
	FA_P_COUNT,
};

struct fa_param_desc {
	const char *name;
	const char *help;
	u32 def;
	u32 min;
	u32 max;
};

/* "help [min..max, default def]", as modinfo shows it. */
#define FA_PARAM_DESC(NAME)						\
	NAME##_HELP " [" FA_STR(NAME##_MIN) ".." FA_STR(NAME##_MAX)	\
	", default " FA_STR(NAME##_DEFAULT) "]"

#define FA_PARAM_ROW(name, NAME)					\
	{ #name, NAME##_HELP, NAME##_DEFAULT, NAME##_MIN, NAME##_MAX }

static const struct fa_param_desc fa_param_descs[FA_P_COUNT] = {
	[FA_P_ALPHA_PKTS] = FA_PARAM_ROW(alpha_pkts, FA_ALPHA_PKTS),
	[FA_P_GAMMA_MIN] = FA_PARAM_ROW(gamma_min, FA_GAMMA_MIN),
	[FA_P_GAMMA_MAX] = FA_PARAM_ROW(gamma_max, FA_GAMMA_MAX),
	[FA_P_GAMMA_FIXED] = FA_PARAM_ROW(gamma_fixed, FA_GAMMA_FIXED),
	[FA_P_GAIN_K] = FA_PARAM_ROW(gain_k, FA_GAIN_K),
	[FA_P_SS_EXIT_PKTS] = FA_PARAM_ROW(ss_exit_pkts, FA_SS_EXIT_PKTS),
	[FA_P_SS_DELAY_US] = FA_PARAM_ROW(ss_delay_us, FA_SS_DELAY_US),
	[FA_P_UPDATE_RTTS] = FA_PARAM_ROW(update_rtts, FA_UPDATE_RTTS),
	[FA_P_ADAPTIVE_GAIN] = FA_PARAM_ROW(adaptive_gain, FA_ADAPTIVE_GAIN),
	[FA_P_ADAPTIVE_SS] = FA_PARAM_ROW(adaptive_ss, FA_ADAPTIVE_SS),
	[FA_P_BASE_WIN_MS] = FA_PARAM_ROW(base_win_ms, FA_BASE_WIN_MS),
	[FA_P_PACING] = FA_PARAM_ROW(pacing, FA_PACING),
	[FA_P_RAMP] = FA_PARAM_ROW(ramp, FA_RAMP),
	[FA_P_OWN_QUEUE] = FA_PARAM_ROW(own_queue, FA_OWN_QUEUE),
	[FA_P_ROUTE_ROUNDS] = FA_PARAM_ROW(route_rounds, FA_ROUTE_ROUNDS),
	[FA_P_QUICK_PROBE] = FA_PARAM_ROW(quick_probe, FA_QUICK_PROBE),
	[FA_P_DRAIN_CHECK] = FA_PARAM_ROW(drain_check, FA_DRAIN_CHECK),
	[FA_P_JITTER_US] = FA_PARAM_ROW(jitter_us, FA_JITTER_US),
	[FA_P_SHORT_PROBE] = FA_PARAM_ROW(short_probe, FA_SHORT_PROBE),
	[FA_P_SHORTER_PATH] = FA_PARAM_ROW(shorter_path, FA_SHORTER_PATH),
	[FA_P_RANDOM_LOSS] = FA_PARAM_ROW(random_loss, FA_RANDOM_LOSS),
	[FA_P_QUEUE_FIT] = FA_PARAM_ROW(queue_fit, FA_QUEUE_FIT),
	[FA_P_COMPETE] = FA_PARAM_ROW(compete, FA_COMPETE),
	[FA_P_OVERSHOOT] = FA_PARAM_ROW(overshoot, FA_OVERSHOOT),
	[FA_P_COMPETE_MOVES] = FA_PARAM_ROW(compete_moves, FA_COMPETE_MOVES),
	[FA_P_COMPETE_TREND] = FA_PARAM_ROW(compete_trend, FA_COMPETE_TREND),
	[FA_P_COMPETE_START] = FA_PARAM_ROW(compete_start, FA_COMPETE_START),
	[FA_P_COMPETE_RISE] = FA_PARAM_ROW(compete_rise, FA_COMPETE_RISE),
	[FA_P_EARLY_RESTORE] = FA_PARAM_ROW(early_restore, FA_EARLY_RESTORE),
	[FA_P_FIT_HOLD] = FA_PARAM_ROW(fit_hold, FA_FIT_HOLD),
	[FA_P_FIT_LOW] = FA_PARAM_ROW(fit_low, FA_FIT_LOW),
	[FA_P_FIT_NOISE] = FA_PARAM_ROW(fit_noise, FA_FIT_NOISE),
	[FA_P_RESTORE_PACE] = FA_PARAM_ROW(restore_pace, FA_RESTORE_PACE),
	[FA_P_RAMP_DOUBLE] = FA_PARAM_ROW(ramp_double, FA_RAMP_DOUBLE),
	[FA_P_PROBE_MEAN] = FA_PARAM_ROW(probe_mean, FA_PROBE_MEAN),
	[FA_P_PROBE_PAUSE] = FA_PARAM_ROW(probe_pause, FA_PROBE_PAUSE),
	[FA_P_PATH_SETTLE] = FA_PARAM_ROW(path_settle, FA_PATH_SETTLE),
	[FA_P_RAMP_SCATTER] = FA_PARAM_ROW(ramp_scatter, FA_RAMP_SCATTER),
	[FA_P_COMPETE_REFILL] = FA_PARAM_ROW(compete_refill, FA_COMPETE_REFILL),
	[FA_P_COMPETE_QUIT] = FA_PARAM_ROW(compete_quit, FA_COMPETE_QUIT),
	[FA_P_COMPETE_ADOPT] = FA_PARAM_ROW(compete_adopt, FA_COMPETE_ADOPT),
	[FA_P_COMPETE_RECHECK] = FA_PARAM_ROW(compete_recheck, FA_COMPETE_RECHECK),
	[FA_P_COMPETE_KEEP] = FA_PARAM_ROW(compete_keep, FA_COMPETE_KEEP),
	[FA_P_FIT_REGROW] = FA_PARAM_ROW(fit_regrow, FA_FIT_REGROW),
	[FA_P_JOIN_REPROBE] = FA_PARAM_ROW(join_reprobe, FA_JOIN_REPROBE),
};

#endif /* _FA_PARAMS_H */
