/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The fast_adaptive control law: FAST TCP (Jin, Wei, Low) with a slow start
 * that ends on the flow's own backlog and a gain that adapts to the flow's
 * distance from equilibrium.
 *
 * This header is the only place the law is written.  It is pure fixed-point
 * C with no kernel or libc dependency (see fa_types.h) and is compiled into
 * the kernel module, the userspace unit tests and fuzzers, fastctl and the
 * ns-3 model.  The host feeds it RTT samples and round boundaries and applies
 * the congestion windows it returns.
 *
 * Units: windows in packets, times in microseconds, gains in 1/1024.
 *
 * Per ACK the law does no division: it keeps minima and compares products.
 * Once per round it may run fa_law(), which divides a few times.
 *
 * RTT estimates
 *   base_rtt: the minimum RTT sample seen, so a shorter path is adopted at
 *	once.  A longer path (route change) cannot be seen by a minimum, and a
 *	plain windowed minimum would ratchet up on the flow's own standing queue
 *	(alpha packets are always queued at equilibrium, "persistent
 *	congestion").  So the law keeps a window minimum over base_win_ms (or
 *	route_rounds rounds); when a whole window stayed above base by more than
 *	base/4 plus, with own_queue, the flow's own standing queue alpha / x (x
 *	the highest rate at an update near equilibrium, a backlog within
 *	alpha/4 of alpha, in this window or the last: not the current one,
 *	which a longer path drives down until its extra delay looks like
 *	alpha / x; not one far from equilibrium, where w / avg is no rate the
 *	flow had), it does not trust that minimum but probes: it
 *	cuts its window to FA_CWND_MIN for
 *	FA_PROBE_ROUNDS rounds, so that its own queue drains, and adopts the
 *	minimum seen while drained (and in the suspect window before: a probe
 *	only lowers a suspicion) if that is still more than base/4 above
 *	base.  The flow's own queue is thus never mistaken for path delay.
 *	While one flow is silent the others' windows alone cannot fill the
 *	pipe unless its share of the BDP is below their standing queue, so the
 *	shared queue drains too and other flows' queues are not adopted either
 *	in that (usual) case.  A probe that finds no longer path doubles the
 *	next window, up to 4x: a standing queue costs at most two rounds per
 *	8 s.  A longer path is adopted within two windows plus two rounds
 *	(about 4 s by default).
 *
 *	short_probe halves the probe's cost: it lasts one round instead of
 *	FA_PROBE_ROUNDS.  The round a probe starts in ends at the ACK of the
 *	first packet sent after the cut, and with FA_CWND_MIN that packet
 *	leaves only once the whole old flight is acknowledged: it crosses a
 *	bottleneck this flow has left alone for about an RTT, so its RTT is
 *	the drained one, other flows' queue included.  The second round added
 *	another RTT of an idle link (with both, 0.2 s of no delivery per
 *	connection on the VM's 100 ms path).  A window of half the flow's share
 *	instead of FA_CWND_MIN (tried: trials t9, t10 in tools/bench/NOTES.md)
 *	drains the flow's own queue but not the incumbents' in time: a third
 *	flow of three kept their queue as path delay and took 25 of 50 Mbit/s.
 *
 *	early_restore halves it again.  A one-round probe still idles the
 *	bottleneck for two RTTs: one while the old flight's ACKs come back
 *	(FA_CWND_MIN blocks every send), one while the first packet after
 *	them crosses the drained path and returns.  Only that packet's RTT is
 *	read, and packets sent behind it cannot delay it, so the window comes
 *	back the moment it is sent (fa_probe_drained(), the host's ACK that
 *	leaves fewer than FA_CWND_MIN in flight), with that packet at its
 *	head; the probe ends at its ACK as before and sets the window the
 *	drained RTT asks for (lower at once where the base fell: a joiner that
 *	had taken the incumbents' queue for its path).  The drain is the
 *	same, so is what it measures; the link is idle one RTT, not two.
 *	Failure modes: the restored window, sent as a burst behind the
 *	probe's packet, is the pre-drain estimate; where the drain lowers the
 *	base, it holds that many more packets queued for one RTT.  Flows that
 *	probe together, unpaced, see each other's restored bursts: one
 *	flow's window leaves at line rate while another's probe packet is on
 *	its way, whose drained RTT then holds that queue (ns-3 Exp 1 unpaced,
 *	three flows started within 2 ms: convergence 2.66 s and overshoot
 *	40 % against 2.03 s and 26 % without; paced, 0.88 s and 2.8 %
 *	against 0.94 s and 2.2 %).  restore_pace answers both bursts: the
 *	host paces the given-back window at 1.2 cwnd / srtt until it is in
 *	flight (fa_pace_restore_due()), so it reaches the bottleneck at about
 *	the link rate, not the sender's; in a buffer of a BDP or less the
 *	burst itself overflowed (VM demo: 474 packets into 413, 13 lost).
 *
 *	probe_pause: the drain still idles the link for about an RTT less
 *	the queue it had, 0.08-0.1 s of each connection on a 100 ms path.  Yet
 *	the packet the probe reads only needs the bottleneck empty when it
 *	arrives, and a flow that sends nothing for k packets' worth of ACKs
 *	takes k packets out of the queue.  So the once-per-flow probe first
 *	pauses: it keeps its window less its own backlog (read on the mean
 *	RTT of the cycle before, which errs long) less FA_PAUSE_ALPHAS alpha
 *	(fa_pause_pkts()); the link then idles for about that margin, and the
 *	first packet after the pause, the last of the probe's round, finds
 *	the base a lone flow had.  If it does not, within jitter_us
 *	(fa_pause_missed()), the flow drains to FA_CWND_MIN at once, the probe
 *	above, whose drained RTT sets the base: a lower RTT says others'
 *	queue was in the base (a joiner), a higher one that the pause left a
 *	queue, others' grown since the flow started (a joiner's slow start
 *	pushes the incumbents' queue up: ns-3 Exp 7 scaled, 194 of 323
 *	packets left) or a longer path.  Failure modes: a joiner pays the
 *	pause and the drain; one whose pause leaves exactly the queue its
 *	base holds, within jitter_us, keeps that queue as path (the margin,
 *	and FA_PAUSE_JITTERS on fast paths, put that band above the
 *	incumbents' queue, not at it); flows that start together pause
 *	together, and one whose packet comes behind another's given-back
 *	window drains alone.  The pause is sized on the update cycle before
 *	the probe, which holds slow start's shorter rounds and so reads less
 *	than the queue its last window left: when the pause is over, the
 *	mean of the old flight's ACKs may ask for more (fa_pause_longer()),
 *	and a drain the pause escalates to gives back the window that mean
 *	asks for, not the one the drain's own round (the emptied path)
 *	would (ns-3 Exp 2 paced: three flows that ended slow start together
 *	paused, all drained and got their slow-start windows back, 6668
 *	packets queued; with both, they pause longer and go on, 0.71 s
 *	against the drain's 0.99 s).  Off by default: a joiner pays the
 *	pause and the drain while the incumbents, which saw the pause's
 *	shallower queue, cut less (ns-3 Exp 7: 1.61 s after the join against
 *	1.02 s), and ns-3's shares next to cubic, decided in the first
 *	seconds, moved (README, "Status").
 *
 *	shorter_path: a shorter path lowers the minimum at once, but only to
 *	the new path plus the queue the flow kept when it changed, and with
 *	that base the law holds that queue for good (VM selftest fa_faults:
 *	200 -> 20 ms with a full buffer left the flow at a 61 ms base, srtt
 *	66 ms, on a 20 ms path).  So a sample more than base/4 below the base,
 *	outside a probe, re-arms the once-per-flow probe, which runs at the
 *	next update and measures the drained path.
 *
 *	path_settle: that next update came while the flight the longer path
 *	held was still collapsing into the bottleneck (the ACKs of a 200 ms
 *	path's window return within 20 ms, and the flow refills the window at
 *	once): in the VM the drained reading was 1.5-2.3 ms over a 20 ms path
 *	in 3 of 4 runs, the window restored from it (327-832 packets onto an
 *	83-packet pipe) overflowed the buffer, and a loss that cut the probe
 *	short left the transient's minimum as the base for good.  So the probe
 *	waits one update: the overflow the collapse causes is recovered first
 *	(the law does not update in recovery, and a congestion loss starts a
 *	new cycle), and the probe drains a window the law has already cut
 *	towards the new path.  FA_F_BASE_DROP stays set until the probe ends;
 *	a loss that cuts it short runs it once more, at the next update, as a
 *	plain once-per-flow probe (so at most once more per shorter path).
 *	VM, 5 runs of 200 -> 20 ms: every probe started after the overflow's
 *	recovery, 0.25-0.8 s after the change, gave back 53-54 packets and
 *	read 21.2-21.5 ms; bases 20.72-20.91 ms after 1.5-2.1 s (without: 9
 *	runs, probes 0-20 ms after the change, bases 20.0-22.3 ms, one never
 *	within 10 %).  Failure mode: rounds end by sequence, and a collapsing
 *	flight's ACKs can end several at once, so the wait can be short; the
 *	retry after a loss covers that.  Cost: about half a second more on
 *	the transient's base after a shortening.
 *
 *	drain_check finds a longer path sooner: when an update cuts the window
 *	by at least w / 2^FA_CUT_SHIFT, the flow's own queue should shrink by
 *	the cut, so its RTT by about cut * avg / w.  If at the next update the
 *	RTT fell by less than a quarter of that while it is still more than
 *	base/4 above base, the delay did not behave like this flow's queue;
 *	two such cuts in a row start the probe at once (0.5 s after a 50 -> 100
 *	ms change in the VM, instead of 2-4 s).  Other flows refilling what the
 *	cut freed can mimic it (a joiner in slow start); the probe then costs
 *	two rounds and finds the old base.  The probe's minimum starts from the
 *	least RTT over those cuts, which a longer path also raised.
 *
 *	A flow that starts while others keep their queues never sees the empty
 *	queue, so its minimum includes their backlog and it would keep that
 *	many more packets queued than it thinks (with two incumbents it takes
 *	half the link).  Hence the same probe runs once per connection, at the
 *	first update after slow start (quick_probe; FA_SS_PROBE_UPDATES later
 *	without it), while the slow-start overshoot has to drain anyway, and
 *	the minimum then falls to the true base.  It restores the window one
 *	law update with gain 1 would ask for with that base, w base / avg +
 *	alpha, not the overshot one; if the round before it held less than
 *	alpha/4 of the flow's packets, slow start had ended on transient queue
 *	and the flow ramps from the probe.  With probe_mean, "avg" there is
 *	the mean RTT of the probe's own round, the ACKs of the last window
 *	sent at the ACK clock (fa_probe_avg()): a round's minimum under TCG's
 *	bursts came near the base over a standing queue of 74 packets, and
 *	the probe restored and then ramped a window already above the pipe.
 *
 *	join_reprobe: that drain finds the empty queue only if the
 *	incumbents, with the joiner silent, cannot fill the pipe, that is once
 *	they have yielded its share; right after its slow start they have cut
 *	only part of the way (VM bench, three flows 4 s apart: incumbents'
 *	windows 295 packets on a 206-packet pipe at the third flow's probe,
 *	which read 6.8 ms of their queue as path and kept 37-39 % over its
 *	share for the rest of the run).  A drain that lowered the base by more
 *	than max(jitter_us, base/32) says the flow joined others' queue; it
 *	re-arms the probe through shorter_path's FA_F_BASE_DROP, so with
 *	path_settle it runs at the second update from then, and again while
 *	such drains lower the base (fa_joined()); these drains never adopt a
 *	longer path (a second drain next to incumbents that still fill the
 *	pipe reads their queue).  A lone flow's drain finds the base its slow
 *	start saw and it pays nothing.  Cost: a joiner's second drain, about
 *	an RTT of its share (ns-3 Exp 7: the join re-converges in 1.38 s
 *	against 1.02 s, where the first drain had already read the true
 *	base).  Failure mode: a joiner whose first drain reads nearly the
 *	queue its handshake saw (VM: 57.1 -> 56.6 ms on a 51 ms path) is taken
 *	for a lone flow.
 *   avg_rtt: the minimum RTT sample of the last round of an update cycle, as
 *	Vegas does: the minimum drops delayed-ACK, scheduling and
 *	ACK-compression noise, which is one-sided (it only adds delay); taking
 *	it in the last round of the cycle measures the queue that the window
 *	set at the previous update has built.
 *
 * Approach from below (ramp)
 *	Below equilibrium FAST adds at most gamma alpha packets per update, so
 *	a window far below the BDP (after a route change is adopted, after a
 *	loss, when other flows leave, when slow start ended early on transient
 *	queue) climbs linearly: 42 to 367 packets in 5 s on a 100 ms path.  When
 *	an update cycle shows the flow's own backlog under alpha /
 *	2^FA_RAMP_SHIFT on the mean RTT of the cycle (not on a minimum, which
 *	a bursty window drives down to the base at equilibrium) and the window
 *	is in use, for two cycles in a row (one is what another flow's drain
 *	probe empties: a ramp on that refilled the link in the middle of the
 *	probe and overshot, ns-3 Exp 7 scaled), the law asks the host to
 *	re-enter slow start (FA_ACT_RAMP): the window doubles per round
 *	until the backlog-exit rule fires, as at the start.  That is safe
 *	for the reason the first slow start is: the exit reads the flow's
 *	own backlog, so it stops at the share the path has spare, whatever the
 *	link rate.  At equilibrium the backlog is alpha, four times the
 *	threshold, and nothing changes.  After a loss the ramp stops at 3/4 of
 *	the window the loss cut (FA_RAMP_CAP_*), and the law closes the rest:
 *	the loss may have been an overflow at that window.  Where emulation
 *	or scheduling jitter keeps the mean RTT a millisecond or two above
 *	base, alpha/4 packets is too fine a line for a large window (5 of
 *	509 packets is 1 ms on a 100 ms path: the VM's 64 MiB pull climbed
 *	509 -> 868 linearly over 6 s).  So a knee test ramps too: when the law
 *	has grown the window by min(w/8, 2 alpha) since the test began and
 *	the flow's own backlog grew by less than a quarter of that, the window
 *	is below the knee of its RTT curve; it ramps at the next update if
 *	the queueing delay is also under base/16 (a flow that grows into a
 *	share others yield at their standing queue sees no RTT rise either,
 *	but a queueing delay of their alpha's).  A probe that finds a longer
 *	path ramps at once (its drained RTT already says the queue is empty).
 *	With ramp_scatter (fa_params.h, on by default) the line allows for that
 *	scatter: alpha/4 + w/128 packets, a scatter of rtt/128 at any window,
 *	and at most alpha/2.  The cap is what keeps equilibrium out: the law
 *	holds alpha queued on a round's minimum RTT, and the cycle's mean that
 *	the line reads is not below it, so a flow at equilibrium reads about
 *	alpha or more, twice the highest line, however its RTT scatters.
 *	Failure mode: a flow just below equilibrium (a backlog between alpha/4
 *	and alpha/2, the law's last steps) can ramp there, a doubling of a
 *	window near the pipe, which ramp_double stops at twice the window.
 *	ramp = 0 gives the paper's linear approach.
 *	A ramp reads its exit a round late, so it can end at twice what the
 *	path had spare; where the deficit is less than the window (one of
 *	three flows left) the flow whose cycle ends first takes all of it
 *	before the other starts, and the law evens the two only through alpha.
 *	With ramp_double a ramp that an update starts stops at twice the
 *	window it started from (fa_ramp_double_cap()); a larger deficit ramps
 *	again two cycles later.  A probe's ramp is not capped.
 *
 * Loss
 *	FAST halves its window on every loss, as Reno does, so a path that
 *	drops packets without a full queue (radio, VPNs, a noisy link) keeps it
 *	far below the link: 10 of 50 Mbit/s at 0.5 % random loss in the VM,
 *	where bbr moves 44.  Yet at every loss the law knows how many of its
 *	packets sit in the bottleneck queue, its backlog b = w (r - base) / r
 *	(r the recent minimum RTT, fa_loss_backlog()).  The law itself holds b
 *	at alpha, so a loss with b at most that, plus the scatter of the
 *	estimate around it, did not come from a queue this flow overfilled:
 *	with random_loss, a loss with b < 3/2 alpha (FA_LOSS_CONG_*) cuts the
 *	window by b, to w base / r, the window that keeps the pipe full with
 *	none of the flow's packets queued, and a second such loss in the same
 *	round cuts nothing.  On a lossy path with an empty queue that is no
 *	cut at all, and the law goes on; a shallow buffer that cannot hold the
 *	N alpha that N flows ask for overflows with each flow's b = buffer / N
 *	below alpha, and each flow then gives up its whole queue, which
 *	empties the buffer, instead of halving a window that still fits the
 *	pipe.  A loss with b >= 3/2 alpha is congestion (a slow start or ramp
 *	that overshot, a burst the law did not ask for) and halves, as does a
 *	loss on an ACK that echoes a CE mark (ECN; fa_ack_ece()): a mark is
 *	congestion by definition.  The host answers at most one of either per
 *	round (Linux: one per recovery or CWR episode), and its recovery (PRR,
 *	undo) is unchanged.  Linux's Veno does the same with one threshold of
 *	3 packets on Vegas's estimate; here the line scales with alpha, which
 *	is what the law queues, and the answer to a random loss is to drain
 *	the flow's own queue rather than to cut the window by a fifth.
 *	Failure modes: a loss-based competitor that keeps the buffer full sees
 *	this flow hold b at alpha, so its overflows read as random and this
 *	flow yields only its backlog (more share than halving gives, not
 *	more than its alpha); a backlog under-read (a base RTT that is too high)
 *	makes an overflow look random.
 *
 *	queue_fit: a random-looking loss, or a CE mark, that finds at least
 *	alpha/4 of the flow's packets queued says the path holds less queue
 *	than the flows build: a drop-tail buffer smaller than N alpha (4
 *	flows of alpha 20 in the bench's 52-packet buffer), or an AQM whose
 *	target is below alpha / C (fq_codel's 5 ms against 4.8 ms of alpha at
 *	50 Mbit/s plus jitter).  Cutting the backlog alone would refill the
 *	same queue within an update or two and overflow again.  So alpha
 *	drops to 3/4 of the backlog found (FA_FIT_*, not below alpha/4 unless
 *	fit_low, never up; fa_fit_params() hands the capped copy to the law,
 *	the ramp line and the slow-start exit), N flows then hold 3/4 of what
 *	overflowed, and it regrows by one packet per route window without a
 *	new cap (base_win_ms, 2 s: from 10 back to 20 in 20 s), which finds a larger
 *	buffer or fewer flows again at the price of one more loss.  With
 *	fit_hold that regrowth waits for two route windows in a row without a
 *	fit or mark (the FA_F_CAP_* flags, which a fit by a loss sets with
 *	overshoot): where the flows' caps already sit near what the buffer
 *	holds, one regrowth overflowed it again (the VM's shallow bench, 4
 *	flows in 52 packets: every cap at 5-8 packets, the 4 flows losing
 *	together every 2.3-2.7 s: a quarter of the run's drops, the rest in
 *	slow start).  Regrowing alpha adds queue, not rate (the law fills the
 *	pipe at any alpha, unless RTT jitter empties a small alpha's queue,
 *	below), so a slower regrowth costs the time until alpha serves a
 *	larger buffer or fewer flows again.  With fit_low a fit may take alpha
 *	below alpha/4 (3/4 of a backlog of alpha/4 or more): the same 4 flows
 *	at caps of 5-7 still lost together every 0.2-1 s after their fits, the
 *	queue of 4 x 5 packets plus the emulated sender's bursts overflowing
 *	52; alpha 8 for all (caps down to 2) lost no more after slow start
 *	than cubic.  A fit keeps the shares the flows had at the loss (3/4 of
 *	each one's backlog, its share of the queue then), and a flow the
 *	losses missed keeps alpha whole: in the same bench one flow held
 *	46-52 % of the link in 3 of 5 runs, its alpha whole against caps of
 *	4-6 (fit_regrow, off by default: the caps regrow one packet per
 *	update once no fit holds them, so they meet again and the next
 *	overflow falls mostly on the flows holding most of it; Jain 0.80 ->
 *	0.97, retransmissions 1.04x cubic's in VM trial t81, but 0.925 ->
 *	0.918 and 1.18x in a second boot, t83).  The lossy-window test keeps
 *	its alpha/4 line.  The ramp
 *	after such a cut may regrow only the cut (ramp_cap = the window the
 *	loss found): the cut leaves the pipe full and the queue empty, which
 *	the ramp line would read as spare capacity.  A CE mark cuts
 *	max(b, w/8), at most half, rather than half: at least w/8, because a
 *	mark is congestion even where b reads 0 (a base RTT that already
 *	holds a standing queue), and no ramp follows it (ramp_cap = the cut
 *	window): halving and then ramping past the BDP into fq_codel's 5 ms
 *	target kept the VM's fa_ecn flow at 37 of 48 Mbit/s with 14 ms of
 *	queue, swinging between 90 and 490 packets every second.  The cap
 *	holds for the route window of the mark and the next (FA_F_CAP_SEEN,
 *	FA_F_CAP_PREV), not one update: a ramp ends on a backlog of up to
 *	3 alpha (14 ms here) seen an RTT late, a doubling past the BDP, where
 *	the AQM marks at 5 ms; the marks of that overshoot, read on the RTT
 *	of the larger window, then cut twice to half the BDP, the queue is
 *	empty, and the ramp line (or the knee test, on a window that never
 *	holds its queue) ramps again 3 updates later: 34 ramps in 20 s, the
 *	queue at 40-80 ms for a quarter of each 0.6 s and empty the rest
 *	(issue 12).  While the AQM marks, the law's own steps (gamma alpha
 *	per update) regrow a cut, and the mark's alpha cap sets the queue.
 *	A random loss near equilibrium on
 *	a deep buffer would fit alpha down too, and a small alpha costs rate
 *	where the RTT jitters (0.5 % loss in the VM: 36 against 45 Mbit/s
 *	with alpha driven to alpha/4).  What tells the two apart is the loss
 *	record: random losses also come with the queue nearly empty (right
 *	after a cut), overflows never do.  So a loss with b under alpha/4
 *	marks the route window lossy (FA_F_RANDOM_SEEN), and in a lossy
 *	window and the one after it (FA_F_RANDOM_PREV: the first loss of a
 *	window may come before its first empty-queue loss) only a CE mark
 *	fits alpha.
 *	"Nearly empty" depends on the window: RTT scatter of J reads as a
 *	backlog of w J / r, so the larger the window, the larger the backlog
 *	that an empty queue shows.  With fit_noise a loss fits alpha only
 *	where b >= w/16 as well (a queueing delay of r/16: 3.3 ms at 53 ms),
 *	and a loss under that line marks the window lossy as one under
 *	alpha/4 does.  Under TCG the round minimum moves 3-4 ms at a constant
 *	window: in CI's fa_faults loss test (10 % loss bursts on a 2-BDP
 *	buffer) the loss right after a halving read b = 6 of 120 packets and
 *	fitted alpha to 4, and the flow, capped, climbed back in 7-11 s
 *	instead of 1-3.  The shallow bench's flows (w 50-65, b 5-14 at their
 *	overflows) keep the alpha/4 line; CE marks keep it too (an AQM marks
 *	at its target, whatever the window).  Failure mode: a buffer under
 *	r/16 deep is never fitted to; each flow still only cuts its backlog.
 *
 *	overshoot: the backlog misreads the end of a doubling.  In slow start
 *	or a ramp the window doubles each round while the round's minimum RTT
 *	still shows the queue of the round before, and a buffer smaller than
 *	N alpha gives each of N flows a share that looks small: 4 flows in a
 *	52-packet buffer (ns-3, 0.17 BDP) met their slow-start overflow with b
 *	= 5 of 239 packets and their ramps' with b = 3 of 595, answered both
 *	as random (a cut of b), kept overflowing for rounds and lost their
 *	retransmissions to timeouts; a ramp_cap cleared at the next update
 *	(or by the probe's ramp) let the next ramp overflow the same buffer
 *	again, 200-300 drops each time.  So, in slow start, a ramp, or before
 *	the first update after one (fa_doubling()), the backlog also reads the
 *	last 8..16 samples (fa_ss_rtt_us()), and a loss that finds at least
 *	alpha/4 of the flow's packets queued (not the empty queue of a random
 *	loss) is that doubling's overflow: it halves, whatever b says, and its
 *	ramp cap is the half it keeps (the window that fit the round before),
 *	not 3/4 of a window that doubled past the path.  Where the doubling's
 *	samples read the queue empty (the VM: 4 flows' bursts overflow the
 *	52 packets before the RTT shows them, b = 0..6), the loss stays a cut
 *	of b, but it does not mark the route window lossy: it marked it
 *	(FA_F_RANDOM_SEEN), no later overflow could fit alpha for two route
 *	windows, and 4 flows at alpha 20 overflowed the buffer every 250 ms
 *	for 4 s (1313 drops in 20 s; cubic 314).  The ramp cap of any
 *	loss that halves, and of a loss that fits alpha, then holds for its
 *	route window and the next (FA_F_CAP_*, as a mark's), through the end
 *	of a ramp and through the probe, unless the probe finds a longer path;
 *	the law's own steps still grow the window past it.  While queue_fit
 *	holds alpha below the tunable (the path holds less queue than the
 *	flows build), no ramp at all: a doubling in such a buffer overflows
 *	it (the VM: a ramp 54 -> 135 into the 52 packets, 60-70 drops, each
 *	time a cap had run out).  And in those route windows a probe gives
 *	back half its window at once and the rest per ACK (fa_cwnd_on_ack, at
 *	most a doubling per round): the whole window, sent into the drained
 *	pipe in one burst, overflowed the same buffer once more (ns-3: 84
 *	drops at a 121-packet restore).  The VM's shallow bench (4 flows, 52
 *	packets, 3 runs): 362 drops against cubic's 364 (overshoot = 0: 825
 *	to 945).  Failure modes: a random loss in slow start on a queue the
 *	flow's own bursts built halves the window where a cut of b would do;
 *	a flow whose alpha was fitted climbs linearly, not by ramps, until
 *	alpha has regrown (one packet per route window).
 *
 * Competing (compete)
 *	Next to a loss-based flow (cubic, reno) that fills the buffer until it
 *	overflows, the law reads the other flow's standing queue as its own
 *	congestion and keeps alpha packets queued at a rate alpha / queue: 13 %
 *	of the link next to one Reno flow in the unit tests' fluid dumbbell,
 *	13-19 % next to cubic in the VM.  No single reading tells that from N
 *	fast_adaptive flows, which hold N alpha queued as steadily (the own
 *	backlog reads alpha in both).  What does: fast_adaptive flows do not
 *	overflow a buffer that holds their N alpha, and a drained flow sees
 *	their queue fall, not stand.  So:
 *	- evidence: a loss (not a CE mark) on a small backlog (b < 3/2 alpha:
 *	  not this flow's overflow) while the recent RTT stood more than
 *	  floor/4 above floor_us, the least RTT the flow ever saw (the base may
 *	  have adopted others' queue as a longer path).  It lasts for this
 *	  route window and the next; the first such loss in that time asks for
 *	  a drain (FA_C_ASK: the probe, FA_CWND_MIN for a round) at the next
 *	  update, which adopts no longer path.
 *	  compete_moves (on by default) adds a second source of evidence:
 *	  after a probe adopted a longer path, the base falls more than
 *	  floor/8 below it (fa_path_moved, at a law round).  A path that got
 *	  longer stays so until it changes again; others' queue, taken for a
 *	  path, falls at the competitor's next back-off.  The evidence counts
 *	  from the next route window: the fall is that back-off, and a drain
 *	  at once finds the competitor's queue at its least (the VM's reno:
 *	  under floor/8, the drain took the true base, and the flow then kept
 *	  17 % of the link against 25 % without the evidence; the fluid
 *	  model's Reno: 7 % against 15 %).  This finds a competitor whose
 *	  overflows never drop this flow's packets (ns-3's newreno next to a
 *	  small window), once per adopted path.  Failure mode: an incumbent
 *	  that took a joiner's slow-start queue for a longer path sees it
 *	  fall too, and competes if the drain then reads the peers' (N - 1)
 *	  alpha above floor/8 (N >= 3 at the bench's alpha / C).
 *	  compete_trend (on by default) adds a third: the least RTT of a
 *	  route window rose by floor/32 or more over the window before, which
 *	  had risen as much over its own, and stands more than base/4 above
 *	  the base (fa_trend_window).  It asks for the drain at once.  This is
 *	  the flow that never took others' queue for a path: its base is the
 *	  floor, the law follows a growing competitor down (the VM next to
 *	  cubic: 87 -> 46 packets in 5 s, RTT 80 -> 94 ms), and its route
 *	  test never fires, because the allowance alpha / x (own_queue) grows
 *	  as its rate x falls.  fast_adaptive peers hold their queue steady;
 *	  a joiner raises it once, in one window.  Time constant: two route
 *	  windows of growth (4 s at base_win_ms 2000); a competitor on its
 *	  plateau (CUBIC near W_max) waits for its growth to resume.  Failure
 *	  mode: joiners arriving one per route window, each raising the queue
 *	  by floor/32 or more, read as a trend, and the drain then decides on
 *	  the peers' (N - 1) alpha as above.
 *	  compete_rise (on by default) adds a fourth: a drain whose RTT
 *	  stands floor/8 or more above the longer path an earlier drain
 *	  adopted (fa_drain_rose).  The flow whose route test took a
 *	  competitor's queue for a path (the VM next to cubic in its first
 *	  seconds: drained RTTs of 64, then 97 ms on a 51 ms path, 0.8 s
 *	  apart) then sits at the law's equilibrium on a base that holds that
 *	  queue and starves; a path does not lengthen again within seconds, a
 *	  growing competitor's queue does.  The same drain decides.  Time
 *	  constant: the drain after the adopting one (the route test's, while
 *	  the queue stands over the new base).  Failure modes: a path that
 *	  lengthens twice, by floor/8 or more, between two drains; peers that
 *	  took their (N - 1) alpha for a path (N alpha / C > base/4) and gain
 *	  floor/8 more of it (two more joiners at the bench's alpha / C)
 *	  before the next drain.  Either competes until three drains agree
 *	  (FA_COMP_FLAT_TESTS, below).
 *	- entry: a drain (that one, or the route test's) whose RTT stays more
 *	  than floor/8 above floor while there is evidence: others hold a
 *	  queue this flow does not.  On entry the flow may slow start once, to
 *	  twice its window (the window it kept is what the competitor left),
 *	  or with compete_start (on by default) until a loss, as a CUBIC or
 *	  Reno flow that joins the path starts: CUBIC's curve then starts
 *	  from the window that loss finds.  To twice, the VM's flow next to
 *	  cubic stayed near 150-200 packets against cubic's 400 (16 % of the
 *	  link over 5-15 s); to a loss, 46 %.  Its cost is that slow start's
 *	  overflow, in a buffer the competitor keeps full.
 *	- the mode (FA_PHASE_COMPETE): CUBIC's window curve (RFC 9438: W_max
 *	  + 0.4 (t - K)^3 packets, t in seconds since the last loss, 7/10 at a
 *	  loss or mark, fast convergence), at least Reno's one packet per
 *	  round, at most 1.5x per round; no law updates, ramps, route tests or
 *	  drain checks.  CUBIC because it is the usual competitor: next to it
 *	  the mode takes what another CUBIC flow would.
 *	- exit: at the end of a route window with no loss in it or the one
 *	  before (a Reno flow's window sits below the pipe for seconds after its
 *	  loss), the same drain.  A drained RTT within floor/8 of floor: the
 *	  others' queue is gone, and the flow goes back to the law from the
 *	  window it had, which sheds its queue at the adaptive gain.  The
 *	  evidence is renewed for FA_COMP_AFTER_WINDOWS more route windows: a
 *	  route window whose least RTT stays floor/8 above floor then asks for
 *	  the drain at once (Reno rebuilding its queue after its trough).
 *	  FA_COMP_FLAT_TESTS drains in a row to the same RTT (within floor/16)
 *	  say the path got longer: it is adopted as floor and base, and the
 *	  mode ends.
 *	  compete_keep (off by default): a route window that asks for the
 *	  drain on evidence (others' queue all window, evidence in it or the
 *	  one before) renews the evidence (FA_C_EVID), so that the drain
 *	  decides on what it was asked on.  Without it, the evidence a mode's
 *	  end leaves (FA_COMP_AFTER_WINDOWS) could run out at the window end
 *	  that asked, and the drain then found others' queue and went back to
 *	  the law: ns-3's cubic 1:1 (t0) at 47.4 s read cubic's 148 packets of
 *	  queue (13 ms over a 50 ms floor) and stayed in the law at 55-117
 *	  packets until cubic's next overflow 10 s later.  The evidence then
 *	  lasts as long as every route window's least RTT stands floor/8 over
 *	  the floor.  Failure mode: a flow whose own alpha / x exceeds floor/8
 *	  (a rate under 8 alpha / floor) after its competitor left drains once
 *	  per route window until its rate has grown.
 *	  compete_recheck (on by default, needs compete_rise): on a longer
 *	  path a drain adopted, a route window in the law whose least RTT
 *	  stands floor/8 or more above that path asks for a drain (FA_C_ASK),
 *	  at most once per 2^FA_RECHECK_TICK_SHIFT us (8.4 s): compete_rise
 *	  then decides on the drained RTT (fa_recheck_due()).  The law holds
 *	  alpha queued at its rate x, so a flow that took a competitor's queue
 *	  for a path and then starves keeps its round minima alpha / x above
 *	  that path, and its route test's allowance (own_queue) grows with the
 *	  same alpha / x: no drain comes unless a loss asks for one.  ns-3's
 *	  NewReno never drops the small window's packets in 60 s (its growth,
 *	  half a packet per round with delayed ACKs, is 0.7 ms of queue per
 *	  route window at 96 Mb/s: under compete_trend's floor/32), and the
 *	  flow sat at 7 % of the link on an adopted 90.5 ms path with the RTT
 *	  at 106-124 ms.  A drain costs a round of the window.  Failure modes:
 *	  a flow on a longer path whose own alpha / x exceeds floor/8 (a rate
 *	  under 8 alpha / floor) drains every 8.4 s and finds nothing; N
 *	  fast_adaptive flows whose later joiners added floor/8 of queue over
 *	  the path one of them adopted read as a rise (as compete_rise's).
 *	  compete_adopt (on by default): the chain of flat tests adopts the
 *	  longer path only if a loss fell between its first test and its last
 *	  (FA_C_FLAT_LOSS).  Next to CUBIC near its W_max the competitor's
 *	  window stands for most of its epoch (K = 8.6 s at ns-3's 96 Mb/s,
 *	  50 ms, 2 BDP), and four tests read the same RTT within floor/16:
 *	  ns-3's cubic 1:1 adopted 73.6 and 62.5 ms on a 50 ms path that way
 *	  and sat in the law at a tenth of the link until cubic's next loss.
 *	  A loss moves a loss-based competitor's window by its decrease, and
 *	  with it the drained RTT; a path that got longer reads the same on
 *	  both sides of the flow's own CUBIC losses.  Cost: alone on a longer
 *	  path, the mode lasts until the first flat test after the flow's next
 *	  loss (one CUBIC epoch, about 10-15 s on the bench's 2-BDP buffer)
 *	  instead of four tests.  Failure mode: an overflow that drops only
 *	  this flow's packets leaves the competitor's window, and the drained
 *	  RTT, where they were.
 *	  compete_quit (off by default): the test need not wait for a clean
 *	  route window when the queue falls by more than a competitor's
 *	  decrease explains: a round whose least RTT stands under half as far
 *	  above the floor as this route window's highest round minimum, with
 *	  no loss of the flow's own in the window, tests at once
 *	  (fa_compete_quit()).  A competitor that leaves takes its share of
 *	  the queue within a few rounds; cubic's 0.7 or reno's 0.5 on an even
 *	  share of a 2-BDP flight leave about 3/4 or 3/5 of the queue.  Failure
 *	  modes: a competitor holding most of the flight can halve the queue
 *	  at its loss (the test then costs a drain and finds it, and the mode
 *	  goes on), and a window with its highest round at a transient spike
 *	  tests early.
 *	  compete_refill (off by default): an exit test whose drain still
 *	  finds others' queue also weighs the flow's window w against theirs,
 *	  W.  In the drain the flow's packets leave the queue and theirs stay,
 *	  so the RTT before the drain is (w + W) / C and the drained one W / C:
 *	  w / W = (before - drained) / drained (fa_compete_refill()).  Under
 *	  3/4, the window comes back with a slow start to a loss, as on entry
 *	  with compete_start: CUBIC's curve from a window the competitor kept
 *	  small closes the gap only over several of its epochs (VM, t53: a flow
 *	  whose entry slow start met its loss at 233 packets held 140-214
 *	  against cubic's 310-410 for 10 s, while its tests read w / W at
 *	  0.39-0.40 with the true ratio at 0.47-0.54).  Each refill is an
 *	  overflow of the buffer, at most one per test.  Failure modes: a
 *	  competitor that grows during the drain reads as a smaller ratio, and
 *	  one that is not window-limited (bbr paces at its rate estimate)
 *	  breaks the premise that its packets stay in flight.
 *	Time constants: entry, one overflow of the competitor that drops one
 *	of this flow's packets, plus a round; exit, two route windows
 *	(base_win_ms, 2 s) after the last loss plus at most one; each drain
 *	costs one round of the window, once per route window while competing.
 *	Failure modes: a competitor whose overflows never drop this flow's
 *	packets is not detected (ns-3 newreno: no loss in 60 s; the VM's reno
 *	next to a small window); the entry then waits for one.  N >= 3
 *	fast_adaptive flows whose N alpha exceeds a quarter of the base RTT,
 *	on a path with random loss or a buffer they overflow, can enter (their
 *	queue stands deep at a loss and does not drain with one flow) and stay
 *	until a drain finds the queue empty.  A path that lengthens by more
 *	than floor/4 and then loses a packet at a backlog under 3/2 alpha
 *	competes until three drains agree on the longer path.  A competitor
 *	whose window stays below the pipe (an application-limited flow) never
 *	overflows and is never competed with, which is the point.
 *	With the four sources and compete_start on (the defaults since 2026-12-06;
 *	bench trial t53, 4 runs each) the VM's flow held 38 % (30-53) of the link
 *	next to cubic and 33 % (19-58) next to reno over 5-15 s, against 18 % and
 *	18 % with them off; it entered the mode in every run.
 *	compete = 0 gives the law without the mode.
 */
#ifndef _FA_LAW_H
#define _FA_LAW_H

#include "fa_types.h"
#include "fa_params.h"
#ifndef __KERNEL__
#include "fa_params_table.h"
#endif

/* No RTT known yet; larger than any real sample so minima work on it. */
#define FA_RTT_NONE		0xffffffffU
/* Largest RTT sample, as the kernel's s32 rtt_us; products stay < 2^63. */
#define FA_RTT_MAX_US		0x7fffffffU
/* The law never shrinks the window below two packets (ACK clocking). */
#define FA_CWND_MIN		2U
/* Largest window the law returns; Linux stores cwnd in a u32. */
#define FA_CWND_MAX		0x7fffffffU
/* A base RTT is suspect when the path looks base/4 longer (see top). */
#define FA_ROUTE_SHIFT		2
/* own_queue reads a rate only at updates with a backlog within alpha/4 of alpha. */
#define FA_OWN_EQ_SHIFT		2
/* Rounds a probe keeps the window at FA_CWND_MIN (drain, then measure). */
#define FA_PROBE_ROUNDS		2
/* ... or, with short_probe, this many (see the top). */
#define FA_PROBE_SHORT_ROUNDS	1
/* A probe that finds no longer path doubles the next window, up to 4x. */
#define FA_PROBE_BACKOFF_MAX	2
/* Updates after slow start before the once-per-flow base-RTT probe ... */
#define FA_SS_PROBE_UPDATES	3
/* ... and with quick_probe, at the first update. */
#define FA_SS_PROBE_UPDATES_QUICK	0
/* probe_mean: fewer samples in the probe's round than this are no mean */
#define FA_PROBE_MEAN_SAMPLES	8
/* probe_pause: a pause empties the own backlog and this many alphas more ... */
#define FA_PAUSE_ALPHAS		2U
/* ... or what the flow sends in this many jitter_us, if more (fast paths) */
#define FA_PAUSE_JITTERS	4U
/* ... and leaves at least w >> FA_PAUSE_KEEP_SHIFT, or it drains at once */
#define FA_PAUSE_KEEP_SHIFT	2
/* join_reprobe: a drain that lowered the base by more than base >> this */
#define FA_JOIN_DROP_SHIFT	5
/* ss_updates counts to FA_SS_PROBE_UPDATES and saturates (2 bits) */
#define FA_SS_UPDATES_MAX	3U
/* Slow start reads the minimum of the last 8..16 samples (two buckets). */
#define FA_SS_BUCKET		8
/* drain_check follows cuts of at least w >> FA_CUT_SHIFT ... */
#define FA_CUT_SHIFT		3
/* ... which must bring at least 1 / 2^FA_CUT_DRAIN_SHIFT of their drop. */
#define FA_CUT_DRAIN_SHIFT	2
/* Cuts in a row that did not drain before the path is probed. */
#define FA_STUCK_CUTS		2
/* Knee test: growth of min(w >> FA_KNEE_SHIFT, FA_KNEE_ALPHAS alpha) ... */
#define FA_KNEE_SHIFT		3
#define FA_KNEE_ALPHAS		2
/* ... of which less than 1 / 2^FA_KNEE_RISE_SHIFT showed as own backlog, */
#define FA_KNEE_RISE_SHIFT	2
/* ... with a queueing delay under base >> FA_KNEE_QDELAY_SHIFT. */
#define FA_KNEE_QDELAY_SHIFT	4
/* ramp_armed: one cycle below the ramp line, or the knee test passed. */
#define FA_RAMP_ARMED		1
#define FA_RAMP_KNEE		2
/* A ramp needs the own backlog under alpha >> FA_RAMP_SHIFT all cycle. */
#define FA_RAMP_SHIFT		2
/* ramp_scatter: RTT scatter of rtt / 2^this reads as w / 2^this packets. */
#define FA_RAMP_SCATTER_SHIFT	7
/* After a loss a ramp stops at NUM/DEN of the window the loss cut. */
#define FA_RAMP_CAP_NUM		3
#define FA_RAMP_CAP_DEN		4
/* exp(-x) table: step 1/8 in x, 64 steps, so x covers [0, 8]. */
#define FA_EXP_STEP_SHIFT	3
#define FA_EXP_STEPS		64
/* Values of exp(-x) are in 1/65536 units. */
#define FA_EXP_SHIFT		16
/* |b - alpha| / alpha is clamped at 64: exp(-k e) is 0 long before. */
#define FA_DIST_MAX		(64U << FA_SHIFT)
/* A loss with the flow's backlog at 3/2 alpha or more is congestion. */
#define FA_LOSS_CONG_NUM	3
#define FA_LOSS_CONG_DEN	2
/* flags: the ACK being processed echoed a CE mark (ECN) */
#define FA_F_ECE		0x1
/* flags: a loss or mark was answered with a backlog cut in this round */
#define FA_F_CUT		0x2
/* flags: a sample fell base/4 below the base (shorter_path); with
 * path_settle it stays set until the probe it asks for has ended
 */
#define FA_F_BASE_DROP		0x4
/* flags: the once-per-flow probe has run */
#define FA_F_SS_PROBED		0x8
/* flags: a loss in this route window found the queue nearly empty */
#define FA_F_RANDOM_SEEN	0x10
/* flags: the same, in the route window before */
#define FA_F_RANDOM_PREV	0x20
/* flags: a CE mark or (overshoot) an overflow was answered in this route
 * window ...
 */
#define FA_F_CAP_SEEN		0x40
/* ... or in the one before: ramps stop at the window it left (ramp_cap) */
#define FA_F_CAP_PREV		0x80
/* queue_fit: alpha drops to 3/4 of the backlog a loss or mark found */
#define FA_FIT_NUM		3
#define FA_FIT_DEN		4
/* queue_fit: never below alpha/4, and only for a backlog of at least that */
#define FA_FIT_FLOOR_SHIFT	2
/* fit_noise: nor, for a loss, under w/16 (a queueing delay of RTT/16) */
#define FA_FIT_NOISE_SHIFT	4
/* queue_fit: a CE mark cuts at least w/8, even where the backlog reads 0 */
#define FA_MARK_SHIFT		3

/* comp: a loss in this route window (the exit test waits for a clean one) */
#define FA_C_LOSS		0x1
/* comp: a loss looked like others' overflow, in this route window ... */
#define FA_C_EVID		0x2
/* comp: ... or in the one before */
#define FA_C_EVID_PREV		0x4
/* comp: the running probe tests whether others' queue drains */
#define FA_C_TEST		0x8
/* comp: such a loss asks for a drain at the next update */
#define FA_C_ASK		0x10
/* comp: exit tests in a row that drained to the same RTT, bits 5-6 ... */
#define FA_C_FLAT_SHIFT		5
#define FA_C_FLAT_MASK		0x60
/* comp: a loss in the route window before this one */
#define FA_C_LOSS_PREV		0x80
/* comp, competing: a loss since the first of the flat tests (compete_adopt);
 * the entry evidence's bit, which the mode does not use
 */
#define FA_C_FLAT_LOSS		FA_C_EVID
/* comp, in the law's phase: bits 5-6 count the route windows after the
 * mode ended in which the evidence is renewed (see "Competing")
 */
#define FA_C_AFTER_SHIFT	FA_C_FLAT_SHIFT
#define FA_C_AFTER_MASK		FA_C_FLAT_MASK
#define FA_COMP_AFTER_WINDOWS	3U
/* ... this many say the path got longer: adopt it and stop competing */
#define FA_COMP_FLAT_TESTS	3
/* ... "the same": within floor/16 of the test before */
#define FA_COMP_FLAT_SHIFT	4
/* compete_recheck: at most one drain per 2^this us (8.4 s) */
#define FA_RECHECK_TICK_SHIFT	23
/* compete_trend: a route window's least RTT rises by floor/32 or more */
#define FA_TREND_STEP_SHIFT	5
/* compete_moves: path_rel counts 1/64 of the floor; none, fell, the most */
#define FA_PATH_REL_SHIFT	6
#define FA_PATH_REL_NONE	0xffU
#define FA_PATH_REL_FELL	0xfeU
#define FA_PATH_REL_MAX		0xfdU
/* Competing: others hold a queue if a drained RTT is base/8 above base. */
#define FA_COMP_DRAIN_SHIFT	3
/* ... that floor/8 in path_rel units (compete_moves, compete_rise) */
#define FA_PATH_REL_DRAIN	((1U << FA_PATH_REL_SHIFT) >> FA_COMP_DRAIN_SHIFT)
/* compete_quit: a round minimum under 1/2^this of the window's highest tests */
#define FA_COMP_QUIT_SHIFT	1
/* compete_refill: a window under 3/4 of the others' slow starts again */
#define FA_REFILL_NUM		3
#define FA_REFILL_DEN		4
/* Competing: at least Reno's additive increase, packets per round ... */
#define FA_COMP_AI_PKTS		1
/* ... and at a loss or mark the window times 7/10, as CUBIC (RFC 9438) */
#define FA_COMP_MD_NUM		7
#define FA_COMP_MD_DEN		10
/* CUBIC's window curve: C = 0.4 packets/s^3 = d^3 / (10^5 * 25000) with d
 * in ms (two u32 divisors) ...
 */
#define FA_COMP_CUBIC_DIV1	100000U
#define FA_COMP_CUBIC_DIV2	25000U
/* ... K^3 = W_max (1 - beta) / C in ms^3: W_max times 3/10 / 0.4 * 10^9 */
#define FA_COMP_CUBIC_K3_PER_PKT	750000000ULL
/* ... the curve is followed at most 60 s past its epoch (d^3 fits s64) */
#define FA_COMP_CUBIC_MAX_MS	60000U
/* ... and never grows the window by more than half in a round */
#define FA_COMP_CUBIC_STEP_SHIFT	1
/* fast convergence (RFC 9438 4.7): W_max = cwnd (1 + beta) / 2 = 17/20 */
#define FA_COMP_FC_NUM		17
#define FA_COMP_FC_DEN		20
/* comp_since counts 2^20 us (1.05 s) ticks of the u32 us clock: 12 bits */
#define FA_COMP_TICK_SHIFT	20
#define FA_COMP_TICK_MASK	0xfffU

/* How fa_ssthresh() read a loss (the tracepoint's "kind"). */
enum fa_loss_kind {
	FA_LOSS_CONGESTION = 0,	/* halve: the flow overfilled the queue */
	FA_LOSS_ECN = 1,	/* halve: a CE mark is congestion */
	FA_LOSS_RANDOM = 2,	/* cut the flow's backlog only */
	FA_LOSS_REPEAT = 3,	/* random, already answered in this round */
	FA_LOSS_MARK = 4,	/* queue_fit: a CE mark, cut by the backlog */
	FA_LOSS_COMPETE = 5,	/* competing: halve, as Reno */
};

enum fa_phase {
	FA_PHASE_SS = 0,	/* slow start (the host's cwnd < ssthresh) */
	FA_PHASE_LAW = 1,	/* the FAST window control law */
	FA_PHASE_PROBE = 2,	/* minimal window, measuring a drained RTT */
	FA_PHASE_RAMP = 3,	/* slow start re-entered below equilibrium */
	FA_PHASE_COMPETE = 4,	/* AIMD next to buffer-filling flows */
};

enum fa_action {
	FA_ACT_NONE = 0,	/* keep the window */
	FA_ACT_UPDATE,		/* the law ran: see fa_update */
	FA_ACT_PROBE_START,	/* set cwnd to cwnd_out now (drain) */
	FA_ACT_PROBE_END,	/* set cwnd to cwnd_out now (restore) */
	FA_ACT_RAMP,		/* re-enter slow start (see fa_ssthresh_for) */
};

/* Parameters, a snapshot of the tunables; see fa_params.h for ranges. */
struct fa_params {
	u32 alpha_pkts;
	u32 gamma_min;
	u32 gamma_max;
	u32 gamma_fixed;
	u32 gain_k;
	u32 ss_exit_pkts;	/* 0: auto, see fa_ss_exit_pkts() */
	u32 ss_delay_us;
	u32 update_rtts;
	u32 adaptive_gain;
	u32 adaptive_ss;
	u32 base_win_ms;
	u32 pacing;		/* host only: ask the stack to pace */
	u32 ramp;		/* re-enter slow start below equilibrium */
	u32 own_queue;		/* route test allows the own standing queue */
	u32 route_rounds;	/* route-test window in rounds; 0: ms only */
	u32 quick_probe;	/* once-per-flow probe at once, restore target */
	u32 drain_check;	/* cuts the RTT does not follow probe the path */
	u32 jitter_us;		/* RTTs are read against max(base, this) */
	u32 short_probe;	/* a probe lasts one round */
	u32 shorter_path;	/* a much lower sample re-arms the probe */
	u32 random_loss;	/* a loss on a small backlog cuts only it */
	u32 queue_fit;		/* such a loss or a CE mark lowers alpha */
	u32 compete;		/* AIMD while loss-based flows fill the queue */
	u32 overshoot;		/* a doubling's loss is an overflow */
	u32 compete_moves;	/* a base falling below an adopted path */
	u32 compete_trend;	/* a deep queue rising window after window */
	u32 compete_start;	/* competing starts with a slow start to a loss */
	u32 compete_rise;	/* a drain above the adopted path is evidence */
	u32 early_restore;	/* a probe restores once the old flight is acked */
	u32 fit_hold;		/* alpha regrows after two windows without a fit */
	u32 fit_low;		/* a fit may lower alpha below alpha/4 */
	u32 fit_noise;		/* a loss fits only a backlog of w/16 or more */
	u32 restore_pace;	/* pace the window a probe gives back */
	u32 ramp_double;	/* an update's ramp stops at twice its start */
	u32 probe_mean;		/* the quick probe reads its round's mean RTT */
	u32 probe_pause;	/* the quick probe pauses, not drains, first */
	u32 path_settle;	/* a shorter path's probe waits one update */
	u32 ramp_scatter;	/* the ramp line allows for RTT scatter */
	u32 compete_refill;	/* a test that reads w < 3/4 of others' refills */
	u32 compete_quit;	/* competing, a falling queue tests at once */
	u32 compete_adopt;	/* flat tests adopt a path only across a loss */
	u32 compete_recheck;	/* drain again where others' queue may have grown */
	u32 compete_keep;	/* an evidence drain keeps its evidence */
	u32 fit_regrow;		/* a fitted alpha regrows per update */
	u32 join_reprobe;	/* a probe that lowered the base runs again */
};

/* Per-flow state, kept in the socket's congestion control private area. */
struct fa_state {
	u32 base_rtt_us;	/* propagation delay estimate */
	u32 avg_rtt_us;		/* min RTT of the last completed round */
	u32 round_min_us;	/* min RTT of the current round so far */
	u32 win_min_us;		/* min RTT since win_start_us */
	u32 win_start_us;	/* start of the base-RTT validity window */
	u32 probe_min_us;	/* min RTT while probing */
	u32 probe_cwnd;		/* window to restore after the probe */
	u32 probe_avg_us;	/* avg RTT when the probe started; 0: restore */
	u32 prior_cwnd;		/* window before the last loss, for undo */
	u32 target_cwnd;	/* window the last update asked for */
	u16 gamma;		/* gain of the last update, 1/1024 */
	u16 round_samples;	/* RTT samples in the current round */
	u32 ss_min_us;		/* min RTT of the current bucket of samples */
	u32 ss_prev_min_us;	/* min RTT of the previous full bucket */
	u32 cycle_sum_us;	/* sum of the RTT samples of this update cycle */
	u16 cycle_samples;	/* RTT samples in this update cycle (saturates) */
	u16 comp_since;		/* competing since, in 2^20 us units (wraps) */
	u32 ramp_cap;		/* ssthresh of the next ramp after a loss; 0: none */
	u32 own_q_us;		/* least alpha avg / w of this route window;
				 * competing: CUBIC's W_max, packets
				 */
	u32 own_q_prev_us;	/* the same, of the previous route window;
				 * competing: CUBIC's epoch, us (NONE: next round)
				 */
	union {
		u32 cut_want_us; /* the RTT the last cut should bring; 0: none */
		u32 pause_rtt_us; /* a paused probe: its last RTT sample */
		u32 comp_peak_us; /* competing: the route window's highest round
				   * minimum over the floor (compete_quit)
				   */
	};
	u32 stuck_min_us;	/* least avg RTT over cuts that did not drain */
	union {
		u32 knee_cwnd;	/* the law: window when the knee test started */
		u32 pause_base_us; /* a probe: base when a pause started; 0: none */
	};
	union {
		u16 knee_backlog; /* the law: own backlog (packets) then */
		u16 pause_cwnd;	/* a probe: its window (probe_pause); 0: FA_CWND_MIN */
	};
	u16 alpha_cap;		/* queue_fit: alpha at most this; 0: none */
	u32 floor_us;		/* compete: the path's least RTT (see the top) */
	u8 cycle_rounds:5;	/* rounds completed in this update cycle */
	u8 ss_updates:2;	/* updates since slow start ended (saturates) */
	u8 trend_up:1;		/* compete_trend: the last route window rose */
	u8 path_rel;		/* longer path adopted, above floor, floor/64s */
	u8 phase:3;		/* enum fa_phase */
	u8 probe_rounds:2;	/* rounds completed in this probe */
	u8 probe_backoff:2;	/* log2 of the current window multiplier */
	u8 pace_restore:1;	/* the host paces a given-back window */
	u8 ss_bucket_n:4;	/* samples in the current bucket */
	u8 ramp_armed:2;	/* the last update cycle was below the ramp line */
	u8 stuck:2;		/* cuts in a row whose drain the RTT did not show */
	u8 trend_rel;		/* last route window's min above floor, floor/64s */
	u8 win_rounds;		/* law rounds in this route window */
	u8 comp;		/* FA_C_*: the competing detector */
	u8 flags;		/* FA_F_* */
};

/* Inputs and outputs of one update of the law (also the tracepoint). */
struct fa_update {
	/* inputs */
	u32 cwnd;
	u32 base_rtt_us;
	u32 avg_rtt_us;
	u32 cwnd_limited;
	/* outputs */
	u64 backlog_q10;	/* w (avg - base) / avg, in 1/1024 packet */
	u32 dist_q10;		/* |backlog - alpha| / alpha, 1/1024 */
	u32 gamma;		/* 1/1024 */
	u32 target;		/* w base / avg + alpha */
	u32 cwnd_out;		/* new window */
};

/* exp(-i/8) * 65536, rounded, for i = 0..64 (exp(0) saturates at 65535). */
static const u16 fa_exp_table[FA_EXP_STEPS + 1] = {
	65535, 57835, 51039, 45042, 39750, 35079, 30957, 27319,
	24109, 21276, 18776, 16570, 14623, 12905, 11388, 10050,
	8869, 7827, 6907, 6096, 5380, 4747, 4190, 3697,
	3263, 2879, 2541, 2243, 1979, 1746, 1541, 1360,
	1200, 1059, 935, 825, 728, 642, 567, 500,
	442, 390, 344, 303, 268, 236, 209, 184,
	162, 143, 127, 112, 99, 87, 77, 68,
	60, 53, 47, 41, 36, 32, 28, 25,
	22,
};

static inline u32 fa_min_u32(u32 a, u32 b)
{
	return a < b ? a : b;
}

static inline u32 fa_max_u32(u32 a, u32 b)
{
	return a > b ? a : b;
}

static inline u32 fa_clamp_u32(u32 v, u32 lo, u32 hi)
{
	return v < lo ? lo : (v > hi ? hi : v);
}

/*
 * Bring a snapshot of the tunables into range and into agreement.  The
 * sysfs handlers already refuse bad values; this also covers a reader that
 * saw gamma_min and gamma_max from two different writes, and the ns-3 and
 * fuzz hosts, which have no such handlers.
 */
static inline void fa_params_sanitize(struct fa_params *p)
{
	p->alpha_pkts = fa_clamp_u32(p->alpha_pkts, FA_ALPHA_PKTS_MIN,
				     FA_ALPHA_PKTS_MAX);
	p->gamma_max = fa_clamp_u32(p->gamma_max, FA_GAMMA_MAX_MIN,
				    FA_GAMMA_MAX_MAX);
	p->gamma_min = fa_clamp_u32(p->gamma_min, FA_GAMMA_MIN_MIN,
				    p->gamma_max);
	p->gamma_fixed = fa_clamp_u32(p->gamma_fixed, FA_GAMMA_FIXED_MIN,
				      FA_GAMMA_FIXED_MAX);
	p->gain_k = fa_clamp_u32(p->gain_k, FA_GAIN_K_MIN, FA_GAIN_K_MAX);
	p->ss_exit_pkts = fa_min_u32(p->ss_exit_pkts, FA_SS_EXIT_PKTS_MAX);
	p->ss_delay_us = fa_clamp_u32(p->ss_delay_us, FA_SS_DELAY_US_MIN,
				      FA_SS_DELAY_US_MAX);
	p->update_rtts = fa_clamp_u32(p->update_rtts, FA_UPDATE_RTTS_MIN,
				      FA_UPDATE_RTTS_MAX);
	p->adaptive_gain = !!p->adaptive_gain;
	p->adaptive_ss = !!p->adaptive_ss;
	p->base_win_ms = fa_clamp_u32(p->base_win_ms, FA_BASE_WIN_MS_MIN,
				      FA_BASE_WIN_MS_MAX);
	p->pacing = !!p->pacing;
	p->ramp = !!p->ramp;
	p->own_queue = !!p->own_queue;
	p->route_rounds = fa_min_u32(p->route_rounds, FA_ROUTE_ROUNDS_MAX);
	p->quick_probe = !!p->quick_probe;
	p->drain_check = !!p->drain_check;
	p->jitter_us = fa_min_u32(p->jitter_us, FA_JITTER_US_MAX);
	p->short_probe = !!p->short_probe;
	p->shorter_path = !!p->shorter_path;
	p->random_loss = !!p->random_loss;
	p->queue_fit = !!p->queue_fit;
	p->compete = !!p->compete;
	p->overshoot = !!p->overshoot;
	p->compete_moves = !!p->compete_moves;
	p->compete_trend = !!p->compete_trend;
	p->compete_start = !!p->compete_start;
	p->compete_rise = !!p->compete_rise;
	p->early_restore = !!p->early_restore;
	p->fit_hold = !!p->fit_hold;
	p->fit_low = !!p->fit_low;
	p->fit_noise = !!p->fit_noise;
	p->restore_pace = !!p->restore_pace;
	p->ramp_double = !!p->ramp_double;
	p->probe_mean = !!p->probe_mean;
	p->probe_pause = !!p->probe_pause;
	p->path_settle = !!p->path_settle;
	p->ramp_scatter = !!p->ramp_scatter;
	p->compete_refill = !!p->compete_refill;
	p->compete_quit = !!p->compete_quit;
	p->compete_adopt = !!p->compete_adopt;
	p->compete_recheck = !!p->compete_recheck;
	p->compete_keep = !!p->compete_keep;
	p->fit_regrow = !!p->fit_regrow;
	p->join_reprobe = !!p->join_reprobe;
}

/* The defaults of fa_params.h, sanitized. */
static inline void fa_params_default(struct fa_params *p)
{
	p->alpha_pkts = FA_ALPHA_PKTS_DEFAULT;
	p->gamma_min = FA_GAMMA_MIN_DEFAULT;
	p->gamma_max = FA_GAMMA_MAX_DEFAULT;
	p->gamma_fixed = FA_GAMMA_FIXED_DEFAULT;
	p->gain_k = FA_GAIN_K_DEFAULT;
	p->ss_exit_pkts = FA_SS_EXIT_PKTS_DEFAULT;
	p->ss_delay_us = FA_SS_DELAY_US_DEFAULT;
	p->update_rtts = FA_UPDATE_RTTS_DEFAULT;
	p->adaptive_gain = FA_ADAPTIVE_GAIN_DEFAULT;
	p->adaptive_ss = FA_ADAPTIVE_SS_DEFAULT;
	p->base_win_ms = FA_BASE_WIN_MS_DEFAULT;
	p->pacing = FA_PACING_DEFAULT;
	p->ramp = FA_RAMP_DEFAULT;
	p->own_queue = FA_OWN_QUEUE_DEFAULT;
	p->route_rounds = FA_ROUTE_ROUNDS_DEFAULT;
	p->quick_probe = FA_QUICK_PROBE_DEFAULT;
	p->drain_check = FA_DRAIN_CHECK_DEFAULT;
	p->jitter_us = FA_JITTER_US_DEFAULT;
	p->short_probe = FA_SHORT_PROBE_DEFAULT;
	p->shorter_path = FA_SHORTER_PATH_DEFAULT;
	p->random_loss = FA_RANDOM_LOSS_DEFAULT;
	p->queue_fit = FA_QUEUE_FIT_DEFAULT;
	p->compete = FA_COMPETE_DEFAULT;
	p->overshoot = FA_OVERSHOOT_DEFAULT;
	p->compete_moves = FA_COMPETE_MOVES_DEFAULT;
	p->compete_trend = FA_COMPETE_TREND_DEFAULT;
	p->compete_start = FA_COMPETE_START_DEFAULT;
	p->compete_rise = FA_COMPETE_RISE_DEFAULT;
	p->early_restore = FA_EARLY_RESTORE_DEFAULT;
	p->fit_hold = FA_FIT_HOLD_DEFAULT;
	p->fit_low = FA_FIT_LOW_DEFAULT;
	p->fit_noise = FA_FIT_NOISE_DEFAULT;
	p->restore_pace = FA_RESTORE_PACE_DEFAULT;
	p->ramp_double = FA_RAMP_DOUBLE_DEFAULT;
	p->probe_mean = FA_PROBE_MEAN_DEFAULT;
	p->probe_pause = FA_PROBE_PAUSE_DEFAULT;
	p->path_settle = FA_PATH_SETTLE_DEFAULT;
	p->ramp_scatter = FA_RAMP_SCATTER_DEFAULT;
	p->compete_refill = FA_COMPETE_REFILL_DEFAULT;
	p->compete_quit = FA_COMPETE_QUIT_DEFAULT;
	p->compete_adopt = FA_COMPETE_ADOPT_DEFAULT;
	p->compete_recheck = FA_COMPETE_RECHECK_DEFAULT;
	p->compete_keep = FA_COMPETE_KEEP_DEFAULT;
	p->fit_regrow = FA_FIT_REGROW_DEFAULT;
	p->join_reprobe = FA_JOIN_REPROBE_DEFAULT;
	fa_params_sanitize(p);
}

/*
 * queue_fit: the tunables with alpha lowered to the cap that a loss or mark
 * set (see the top, "Loss"); p itself when there is none.
 */
static inline const struct fa_params *
fa_fit_params(const struct fa_state *s, const struct fa_params *p,
	      struct fa_params *fit)
{
	if (!p->queue_fit || !s->alpha_cap || s->alpha_cap >= p->alpha_pkts)
		return p;
	*fit = *p;
	fit->alpha_pkts = s->alpha_cap;
	return fit;
}

/* exp(-x) for x in 1/1024 units, in 1/65536 units; non-increasing in x. */
static inline u32 fa_exp_neg_q10(u32 x_q10)
{
	u32 idx = x_q10 >> (FA_SHIFT - FA_EXP_STEP_SHIFT);
	u32 frac = x_q10 & ((1U << (FA_SHIFT - FA_EXP_STEP_SHIFT)) - 1);
	u32 hi, lo;

	if (idx >= FA_EXP_STEPS)
		return fa_exp_table[FA_EXP_STEPS];
	hi = fa_exp_table[idx];
	lo = fa_exp_table[idx + 1];
	return hi - (((hi - lo) * frac) >> (FA_SHIFT - FA_EXP_STEP_SHIFT));
}

/*
 * The gain for a flow at normalised distance dist_q10 = |b - alpha| / alpha:
 *	gamma = gamma_min + (gamma_max - gamma_min) (1 - exp(-k dist))
 * gamma_min when the flow sits at equilibrium, approaching gamma_max when it
 * is far from it; never outside [gamma_min, gamma_max].  Classic FAST
 * (adaptive_gain = 0) uses gamma_fixed.
 */
static inline u32 fa_gamma(const struct fa_params *p, u32 dist_q10)
{
	u64 x_q10;
	u32 span, e;

	if (!p->adaptive_gain)
		return p->gamma_fixed;
	x_q10 = ((u64)p->gain_k * fa_min_u32(dist_q10, FA_DIST_MAX)) >> FA_SHIFT;
	e = fa_exp_neg_q10((u32)(x_q10 > FA_DIST_MAX ? FA_DIST_MAX : x_q10));
	span = p->gamma_max - p->gamma_min;
	return p->gamma_min +
	       (u32)(((u64)span * ((1U << FA_EXP_SHIFT) - e)) >> FA_EXP_SHIFT);
}

/*
 * One update of the FAST law, a pure function of its inputs (so that a
 * tracepoint record can be replayed through it):
 *	b      = w (avg - base) / avg		packets this flow keeps queued
 *	target = w base / avg + alpha
 *	w'     = min(2w, (1 - gamma) w + gamma target), at least FA_CWND_MIN
 * A flow that is not cwnd-limited may shrink but not grow: an application
 * that sends little must not inflate the window it does not use.
 *
 * Ranges: w < 2^31, base <= avg < 2^31 (clamped), so w (avg - base) and
 * w base are below 2^62, and every product below fits in u64.
 */
static inline void fa_law(const struct fa_params *p, u32 cwnd, u32 base_us,
			  u32 avg_us, bool cwnd_limited, struct fa_update *u)
{
	u64 num, w_q10, alpha_q10, d;
	u32 rem, w;

	w = fa_clamp_u32(cwnd, 1, FA_CWND_MAX);
	base_us = fa_clamp_u32(base_us, 1, FA_RTT_MAX_US);
	avg_us = fa_clamp_u32(avg_us, base_us, FA_RTT_MAX_US);

	u->cwnd = cwnd;
	u->base_rtt_us = base_us;
	u->avg_rtt_us = avg_us;
	u->cwnd_limited = cwnd_limited;

	/* b in 1/1024 packet: floor(w (avg - base) 1024 / avg), exactly */
	num = (u64)w * (avg_us - base_us);
	u->backlog_q10 = div_u64_rem(num, avg_us, &rem) << FA_SHIFT;
	u->backlog_q10 += div_u64((u64)rem << FA_SHIFT, avg_us);

	alpha_q10 = (u64)p->alpha_pkts << FA_SHIFT;
	d = u->backlog_q10 > alpha_q10 ? u->backlog_q10 - alpha_q10 :
					  alpha_q10 - u->backlog_q10;
	d = div_u64(d, p->alpha_pkts);
	u->dist_q10 = d > FA_DIST_MAX ? FA_DIST_MAX : (u32)d;
	u->gamma = fa_gamma(p, u->dist_q10);

	u->target = (u32)div_u64((u64)w * base_us, avg_us) + p->alpha_pkts;

	w_q10 = (u64)(FA_ONE - u->gamma) * w + (u64)u->gamma * u->target;
	w_q10 = (w_q10 + (FA_ONE >> 1)) >> FA_SHIFT;
	if (w_q10 > 2ULL * w)
		w_q10 = 2ULL * w;
	if (!cwnd_limited && w_q10 > w)
		w_q10 = w;
	if (w_q10 > FA_CWND_MAX)
		w_q10 = FA_CWND_MAX;
	u->cwnd_out = fa_max_u32((u32)w_q10, FA_CWND_MIN);
}

/* Competing, the route window only times the exit tests: own_q_* hold CUBIC's. */
static inline void fa_compete_window_reset(struct fa_state *s, u32 now_us)
{
	s->win_start_us = now_us;
	s->win_min_us = FA_RTT_NONE;
	s->win_rounds = 0;
}

static inline void fa_window_reset(struct fa_state *s, u32 now_us)
{
	fa_compete_window_reset(s, now_us);
	s->own_q_prev_us = s->own_q_us;
	s->own_q_us = FA_RTT_NONE;
}

/* Start of a round: forget the minima of the one before. */
static inline void fa_round_reset(struct fa_state *s)
{
	s->round_min_us = FA_RTT_NONE;
	s->round_samples = 0;
	s->flags &= ~FA_F_CUT;
}

/* Forget the cuts drain_check was following. */
static inline void fa_drain_reset(struct fa_state *s)
{
	s->cut_want_us = 0;
	s->stuck = 0;
	s->stuck_min_us = FA_RTT_NONE;
}

/* Start an update cycle: no rounds, no samples. */
static inline void fa_cycle_reset(struct fa_state *s)
{
	s->cycle_rounds = 0;
	s->cycle_sum_us = 0;
	s->cycle_samples = 0;
}

/* Forget the slow-start RTT filter (both buckets). */
static inline void fa_ss_filter_reset(struct fa_state *s)
{
	s->ss_min_us = FA_RTT_NONE;
	s->ss_prev_min_us = FA_RTT_NONE;
	s->ss_bucket_n = 0;
}

/* compete_trend: no route window to compare the next one with */
static inline void fa_trend_reset(struct fa_state *s)
{
	s->trend_rel = FA_PATH_REL_NONE;
	s->trend_up = 0;
}

/* A new flow: nothing measured yet. */
static inline void fa_init(struct fa_state *s, u32 now_us)
{
	s->base_rtt_us = FA_RTT_NONE;
	s->avg_rtt_us = FA_RTT_NONE;
	s->probe_min_us = FA_RTT_NONE;
	fa_ss_filter_reset(s);
	s->probe_cwnd = 0;
	s->probe_avg_us = 0;
	s->prior_cwnd = 0;
	fa_cycle_reset(s);
	s->ramp_cap = 0;
	s->ramp_armed = 0;
	s->knee_cwnd = 0;
	s->knee_backlog = 0;
	s->own_q_us = FA_RTT_NONE;
	fa_drain_reset(s);
	s->target_cwnd = 0;
	s->gamma = 0;
	s->probe_rounds = 0;
	s->phase = FA_PHASE_SS;
	s->probe_backoff = 0;
	s->ss_updates = 0;
	s->flags = 0;
	s->pace_restore = 0;
	s->alpha_cap = 0;
	s->comp = 0;
	s->comp_since = 0;
	s->path_rel = FA_PATH_REL_NONE;
	fa_trend_reset(s);
	s->floor_us = FA_RTT_NONE;
	fa_round_reset(s);
	fa_window_reset(s, now_us);
}

/*
 * Transmission restarts after idle: the queue the cycle measured is gone, so
 * the cycle starts over.  base_rtt is a property of the path and is kept; a
 * probe goes on (its window is still the drained one).
 */
static inline void fa_restart(struct fa_state *s, u32 now_us)
{
	fa_round_reset(s);
	fa_cycle_reset(s);
	fa_ss_filter_reset(s);
	fa_window_reset(s, now_us);
}

/*
 * The silence fa_tx_start() judges, from the host's clock (any unit, wrapping)
 * of the last data sent and the last ACK received: the time since the later
 * of the two.  A window whose whole flight is acknowledged before the next
 * is sent (a window of 2 and a delayed ACK) sends at the ACK, so it is not
 * silent at all, though its last send is an RTT old.  Measured from the send
 * alone, such a window behind another flow's standing queue (RTT above the
 * base) restarted the cycle before every flight and never updated (bench
 * t48: 14 s at a window of 2 next to reno).
 */
static inline u32 fa_silence(u32 now, u32 last_send, u32 last_ack)
{
	return fa_min_u32(now - last_send, now - last_ack);
}

/*
 * The host sends with nothing in flight.  That happens after every flight
 * of a small window too (Linux's CA_EVENT_TX_START), so it is an idle
 * restart only when the sender was silent for at least a base RTT: idle_us
 * must be a lower bound of the silence since the last send or ACK,
 * whichever came later (fa_silence()).  Returns whether it restarted.
 * Never in a probe: its drain is itself a silence of about an RTT (window
 * 2 behind a full flight), and a restart there threw away the samples of
 * the probe's round that probe_mean reads and moved the probe's end a
 * round later (VM demo: the end then read the round's minimum, restored
 * the slow-start overshoot whole and ramped from it).
 */
static inline bool fa_tx_start(struct fa_state *s, u32 idle_us, u32 now_us)
{
	if (s->base_rtt_us == FA_RTT_NONE || idle_us < s->base_rtt_us ||
	    s->phase == FA_PHASE_PROBE)
		return false;
	fa_restart(s, now_us);
	return true;
}

/*
 * One RTT sample, per ACK; no division.  Negative samples (no valid
 * timestamp) are ignored; 0 (a sub-microsecond path) counts as 1 us.
 */
static inline void fa_rtt_sample(struct fa_state *s, s32 rtt_us, u32 now_us)
{
	u32 rtt;

	if (rtt_us < 0)
		return;
	rtt = fa_clamp_u32((u32)rtt_us, 1, FA_RTT_MAX_US);
	(void)now_us;

	/* a shorter path (shorter_path): see fa_round_end() */
	if (s->base_rtt_us != FA_RTT_NONE && s->phase != FA_PHASE_PROBE &&
	    rtt < s->base_rtt_us - (s->base_rtt_us >> FA_ROUTE_SHIFT))
		s->flags |= FA_F_BASE_DROP;
	s->base_rtt_us = fa_min_u32(s->base_rtt_us, rtt);
	s->floor_us = fa_min_u32(s->floor_us, rtt);
	s->round_min_us = fa_min_u32(s->round_min_us, rtt);
	s->win_min_us = fa_min_u32(s->win_min_us, rtt);
	s->ss_min_us = fa_min_u32(s->ss_min_us, rtt);
	if (++s->ss_bucket_n >= FA_SS_BUCKET) {
		s->ss_prev_min_us = s->ss_min_us;
		s->ss_min_us = FA_RTT_NONE;
		s->ss_bucket_n = 0;
	}
	if (s->round_samples < 0xffff)
		s->round_samples++;
	/* the mean of the cycle's first samples, if the sum would overflow */
	if (s->cycle_sum_us <= 0xffffffffU - rtt && s->cycle_samples < 0xffff) {
		s->cycle_sum_us += rtt;
		s->cycle_samples++;
	}
	if (s->phase == FA_PHASE_PROBE) {
		s->probe_min_us = fa_min_u32(s->probe_min_us, rtt);
		if (s->pause_base_us)
			s->pause_rtt_us = rtt;
	}
}

/*
 * The RTT the law reads queueing delay against: the base RTT, or on a path
 * shorter than jitter_us, jitter_us (see fa_params.h).  The route test and
 * the probes keep the real base.
 */
static inline u32 fa_base_eff_us(const struct fa_state *s,
				 const struct fa_params *p)
{
	if (s->base_rtt_us == FA_RTT_NONE)
		return FA_RTT_NONE;
	return fa_max_u32(s->base_rtt_us, p->jitter_us);
}

/* Is the flow competing: the phase, or the drain that tests whether to end it? */
static inline bool fa_competing(const struct fa_state *s)
{
	return s->phase == FA_PHASE_COMPETE ||
	       (s->phase == FA_PHASE_PROBE && (s->comp & FA_C_TEST));
}

/* compete: a drained RTT drained_us that still holds others' queue */
static inline bool fa_others_queue(const struct fa_state *s, u32 drained_us)
{
	u32 floor = s->floor_us;

	return drained_us != FA_RTT_NONE && floor != FA_RTT_NONE &&
	       drained_us > floor &&
	       drained_us - floor > floor >> FA_COMP_DRAIN_SHIFT;
}

/* compete_moves: an RTT above the floor, in floor/64s (saturates) */
static inline u32 fa_path_rel(const struct fa_state *s, u32 rtt_us)
{
	u64 rel;

	if (rtt_us <= s->floor_us)
		return 0;
	rel = div_u64((u64)(rtt_us - s->floor_us) << FA_PATH_REL_SHIFT,
		      s->floor_us);
	return rel > FA_PATH_REL_MAX ? FA_PATH_REL_MAX : (u32)rel;
}

/*
 * compete_moves (see the top, "Competing"): the base fell more than floor/8
 * below the longer path a probe adopted.  A path that got longer does not
 * then get shorter bit by bit; others' queue, taken for one, does (a
 * loss-based flow's sawtooth).  That is evidence, as a loss on a small
 * backlog is, from the next route window on (FA_PATH_REL_FELL until then):
 * the fall is the competitor's back-off, and a drain at once would find its
 * queue at its least.  Once per adopted path.
 */
static inline void fa_path_moved(struct fa_state *s, const struct fa_params *p)
{
	u32 rel = s->path_rel;

	if (rel == FA_PATH_REL_NONE || rel == FA_PATH_REL_FELL ||
	    s->base_rtt_us == FA_RTT_NONE)
		return;
	if (fa_path_rel(s, s->base_rtt_us) + FA_PATH_REL_DRAIN >= rel)
		return;
	s->path_rel = p->compete && p->compete_moves ? FA_PATH_REL_FELL :
						       FA_PATH_REL_NONE;
}

/*
 * compete_rise (see the top, "Competing"): does a drain's least RTT pmin_us
 * stand floor/8 or more above the longer path a drain adopted before?
 */
static inline bool fa_drain_rose(const struct fa_state *s, u32 pmin_us)
{
	u32 rel = s->path_rel;

	if (rel == FA_PATH_REL_NONE || rel == FA_PATH_REL_FELL ||
	    pmin_us == FA_RTT_NONE || s->floor_us == FA_RTT_NONE)
		return false;
	return fa_path_rel(s, pmin_us) >= rel + FA_PATH_REL_DRAIN;
}

/*
 * compete_recheck (see the top, "Competing"), at the end of a route window in
 * the law with least RTT wmin_us at now_us: on a longer path a drain
 * adopted, did the window stand floor/8 or more above it (as compete_rise
 * reads a drain), with a 2^FA_RECHECK_TICK_SHIFT us tick in the last
 * base_win_ms?  Then a drain, whose RTT compete_rise reads.
 */
static inline bool fa_recheck_due(const struct fa_state *s,
				  const struct fa_params *p, u32 wmin_us,
				  u32 now_us)
{
	u32 span_us = p->base_win_ms * 1000U;

	if (!p->compete || !p->compete_rise || !p->compete_recheck ||
	    !fa_drain_rose(s, wmin_us))
		return false;
	return (now_us >> FA_RECHECK_TICK_SHIFT) !=
	       ((now_us - span_us) >> FA_RECHECK_TICK_SHIFT);
}

/*
 * compete_trend (see the top, "Competing"), at the end of a route window in
 * the law with least RTT wmin_us: did this window's least RTT rise by at
 * least floor/32 over the window before, as that one did over its own,
 * with wmin more than base/4 above the base (the base, not the floor: a
 * flow that adopted a longer path ramps its own queue up on it)?  Then a
 * queue that stands deep
 * keeps growing while this flow follows it down: a loss-based competitor.
 * fast_adaptive peers hold theirs steady; a joiner raises it once.  That
 * is evidence, and the drain it asks for comes at once (the queue is
 * rising, not in a competitor's trough).
 */
static inline void fa_trend_window(struct fa_state *s,
				   const struct fa_params *p, u32 wmin_us)
{
	u32 rel, last = s->trend_rel;
	bool rose;

	if (!p->compete || !p->compete_trend || wmin_us == FA_RTT_NONE ||
	    s->floor_us == FA_RTT_NONE) {
		fa_trend_reset(s);
		return;
	}
	rel = fa_path_rel(s, wmin_us);
	rose = last != FA_PATH_REL_NONE &&
	       rel >= last + ((1U << FA_PATH_REL_SHIFT) >> FA_TREND_STEP_SHIFT);
	s->trend_rel = (u8)rel;
	if (!rose) {
		s->trend_up = 0;
		return;
	}
	if (s->trend_up && s->base_rtt_us != FA_RTT_NONE &&
	    wmin_us > s->base_rtt_us &&
	    wmin_us - s->base_rtt_us > s->base_rtt_us >> FA_ROUTE_SHIFT) {
		s->comp |= FA_C_EVID | FA_C_ASK;
		fa_trend_reset(s);
		return;
	}
	s->trend_up = 1;
}

/* Whole seconds the flow has been competing at now_us, at most max_s. */
static inline u32 fa_compete_secs(const struct fa_state *s, u32 now_us,
				  u32 max_s)
{
	u32 ticks;

	if (!fa_competing(s))
		return 0;
	ticks = ((now_us >> FA_COMP_TICK_SHIFT) - s->comp_since) &
		FA_COMP_TICK_MASK;
	return fa_min_u32((u32)div_u64((u64)ticks << FA_COMP_TICK_SHIFT,
				       1000000U), max_s);
}

/* Start competing (see the top, "Competing"). */
static inline void fa_compete_enter(struct fa_state *s, u32 now_us)
{
	s->phase = FA_PHASE_COMPETE;
	s->comp = 0;
	s->stuck_min_us = FA_RTT_NONE;
	s->comp_since = (u16)((now_us >> FA_COMP_TICK_SHIFT) &
			      FA_COMP_TICK_MASK);
	s->ramp_armed = 0;
	s->ramp_cap = 0;
	s->knee_cwnd = 0;
}

/* CUBIC's curve from here: W_max w, epoch at the next round. */
static inline void fa_cubic_epoch(struct fa_state *s, u32 w)
{
	s->own_q_us = w;
	s->own_q_prev_us = FA_RTT_NONE;
}

/* The largest r with r^3 <= x. */
static inline u32 fa_cbrt_u64(u64 x)
{
	u32 r = 0;
	int b;

	for (b = 21; b >= 0; b--) {
		u64 t = r | (1U << b);

		if (t * t * t <= x)
			r = (u32)t;
	}
	return r;
}

/*
 * Competing: CUBIC's window at now_us, W_max + C (t - K)^3 with t the time
 * since the epoch and K = cbrt(W_max (1 - beta) / C) (RFC 9438 4.2).
 */
static inline u32 fa_cubic_target(const struct fa_state *s, u32 now_us)
{
	u32 wmax = s->own_q_us, t_ms, k_ms, d;
	u64 d3, delta, sum;

	if (wmax == FA_RTT_NONE || s->own_q_prev_us == FA_RTT_NONE)
		return 0;
	t_ms = fa_min_u32((now_us - s->own_q_prev_us) / 1000U,
			  FA_COMP_CUBIC_MAX_MS);
	k_ms = fa_cbrt_u64((u64)wmax * FA_COMP_CUBIC_K3_PER_PKT);
	d = t_ms >= k_ms ? t_ms - k_ms : k_ms - t_ms;
	d3 = (u64)d * d * d;
	delta = div_u64(div_u64(d3, FA_COMP_CUBIC_DIV1), FA_COMP_CUBIC_DIV2);
	if (t_ms < k_ms)
		return delta >= wmax ? FA_CWND_MIN :
		       fa_max_u32(wmax - (u32)delta, FA_CWND_MIN);
	sum = (u64)wmax + delta;
	return sum > FA_CWND_MAX ? FA_CWND_MAX : (u32)sum;
}

/* The RTT slow start reads: the minimum of both buckets (see below). */
static inline u32 fa_ss_rtt_us(const struct fa_state *s)
{
	return fa_min_u32(s->ss_prev_min_us, s->ss_min_us);
}

/*
 * The backlog at which adaptive slow start ends.  ss_exit_pkts = 0 (auto):
 * a quarter of the window, within [alpha/2, 3 alpha].  Between the clamps
 * the test w (rtt - base) / rtt >= w / 4 is a queueing delay of a third of
 * the base RTT, whatever the window.  alpha/2 alone ended slow start far
 * below the share of a flow joining on a large BDP and left it to FAST's
 * additive ramp (ns-3, Exp 7: the joiner at 28 % of the link, share 33 %,
 * 5 s after the join); 3 alpha there re-converges in 1.4-1.5 s.  Where
 * alpha is a large part of the BDP, a fixed multiple of alpha is a BDP of
 * queue (Exp 1: 22.9 % overshoot at a fixed 3 alpha, 7.2 % with this
 * rule), and the window caps it.  3 alpha, not 2: a joiner at 2 alpha
 * stayed below its share for 3.4 s in ns-3's tuning scenario (1.4 s at
 * 3 alpha); on one 206-packet path (VM, alpha 20) 3 alpha left slow start
 * at cwnd 285-289 against 245-259 at 2 alpha, with whole-flow mean
 * queueing delays alike (8.1 and 8.3 ms, cubic 76.7 ms).
 */
/* Auto exit backlog: cwnd >> FA_SS_AUTO_SHIFT ... */
#define FA_SS_AUTO_SHIFT	2
/* ... at most this many alphas (see above). */
#define FA_SS_AUTO_MAX_ALPHAS	3

static inline u32 fa_ss_exit_pkts(const struct fa_params *p, u32 cwnd)
{
	u32 lo, hi;

	if (p->ss_exit_pkts)
		return p->ss_exit_pkts;
	lo = fa_max_u32(p->alpha_pkts >> 1, FA_CWND_MIN);
	hi = fa_max_u32(FA_SS_AUTO_MAX_ALPHAS * p->alpha_pkts, lo);
	return fa_clamp_u32(cwnd >> FA_SS_AUTO_SHIFT, lo, hi);
}

/*
 * Per ACK in slow start: should it end now?  Adaptive: the flow's own
 * backlog w (rtt - base) / rtt has reached ss_exit_pkts, tested as
 * w (rtt - base) >= ss_exit rtt to avoid a division.  Classic: the queueing
 * delay rtt - base has reached ss_delay_us.
 *
 * rtt is the minimum of the last FA_SS_BUCKET to 2 FA_SS_BUCKET samples:
 * emulation or scheduling jitter on a few samples must not end slow start
 * (with the minimum of two samples a loaded VM exited at cwnd 39-76 on a
 * 206-packet path), yet the standing queue must be seen within a fraction
 * of a round (the round's minimum lags up to two rounds of doubling and
 * overflowed a 2-BDP buffer: exit at cwnd 650 on a 208-packet path).
 */
static inline bool fa_ss_exit(const struct fa_state *s,
			      const struct fa_params *p, u32 cwnd)
{
	u32 rtt, qdelay, base = fa_base_eff_us(s, p);
	struct fa_params fit;

	p = fa_fit_params(s, p, &fit);

	/* competing, slow start after a timeout runs to ssthresh, as Reno's */
	if (s->ss_prev_min_us == FA_RTT_NONE || base == FA_RTT_NONE ||
	    s->phase == FA_PHASE_COMPETE)
		return false;
	rtt = fa_ss_rtt_us(s);
	qdelay = rtt > base ? rtt - base : 0;
	if (!p->adaptive_ss)
		return qdelay >= p->ss_delay_us;
	cwnd = fa_min_u32(cwnd, FA_CWND_MAX);
	return (u64)cwnd * qdelay >= (u64)fa_ss_exit_pkts(p, cwnd) * rtt;
}

/* Does a mark's or an overflow's ramp cap hold (this route window or the last)? */
static inline bool fa_cap_held(const struct fa_state *s)
{
	return s->flags & (FA_F_CAP_SEEN | FA_F_CAP_PREV);
}

/* A fitted alpha regrows one packet; back at alpha, the cap ends. */
static inline void fa_alpha_step(struct fa_state *s, const struct fa_params *p)
{
	if (s->alpha_cap && ++s->alpha_cap >= p->alpha_pkts)
		s->alpha_cap = 0;
}

/*
 * queue_fit: a route window ended: alpha regrows by one packet.  fit_hold:
 * not while a fit or mark of this route window or the last holds the ramp
 * cap (see the top, "Loss").
 */
static inline void fa_alpha_regrow(struct fa_state *s,
				   const struct fa_params *p)
{
	if (p->fit_hold && fa_cap_held(s))
		return;
	fa_alpha_step(s, p);
}

/*
 * fit_regrow (fa_params.h): an update of the law; once no fit or mark holds
 * the ramp cap, a fitted alpha regrows one packet.  As at a route window's
 * end (fa_alpha_regrow()), the update that regrows it still runs with the
 * alpha it started with.
 */
static inline void fa_fit_regrow(struct fa_state *s, const struct fa_params *p)
{
	if (p->fit_regrow && p->queue_fit && !fa_cap_held(s))
		fa_alpha_step(s, p);
}

/* At the end of a route window, a SEEN flag becomes its PREV. */
static inline void fa_flags_age(struct fa_state *s, u8 seen, u8 prev)
{
	s->flags &= ~prev;
	if (s->flags & seen)
		s->flags |= prev;
	s->flags &= ~seen;
}

/*
 * Called once when the host leaves slow start by its exit rule or at
 * ssthresh.  The ramp's cap is spent, unless a mark or an overflow holds it
 * for its route window and the next (FA_F_CAP_*).
 */
static inline void fa_ss_done(struct fa_state *s)
{
	if (s->phase == FA_PHASE_SS || s->phase == FA_PHASE_RAMP)
		s->phase = FA_PHASE_LAW;
	fa_cycle_reset(s);
	s->ss_updates = 0;
	if (!fa_cap_held(s))
		s->ramp_cap = 0;
	s->knee_cwnd = 0;
}

/*
 * Is an update near equilibrium, its backlog within alpha / 2^FA_OWN_EQ_SHIFT
 * of alpha?  Only there is w / avg the rate at which the flow keeps alpha
 * queued.  Right after a probe the restored window over the drained round's
 * RTT is no rate the flow had, nor is a window over a round minimum that
 * lags a growing queue (ns-3 Exp 1, three flows, each 52 ms of queue at
 * equilibrium: 419 packets over 50.4 ms after the probe, 571 over 110 ms in
 * the overshoot, allowances of 23 and 39 ms: a probe on the standing queue).
 */
static inline bool fa_near_equilibrium(const struct fa_update *u)
{
	return u->dist_q10 <= FA_ONE >> FA_OWN_EQ_SHIFT;
}

/*
 * The queueing delay the route test allows: base/4, plus (own_queue) the
 * flow's own standing queue alpha / x at the highest rate x = w / avg it had
 * at an update near equilibrium (fa_near_equilibrium) in this route window or
 * the one before.  Not the current
 * rate: after a longer path the law shrinks the window until the extra delay
 * looks like alpha / x, and an allowance that followed x would never let the
 * longer path be found.
 */
static inline u32 fa_route_allow_us(const struct fa_state *s,
				    const struct fa_params *p)
{
	u32 allow = s->base_rtt_us >> FA_ROUTE_SHIFT;
	u32 own = fa_min_u32(s->own_q_us, s->own_q_prev_us);

	if (p->own_queue && own != FA_RTT_NONE)
		allow = fa_min_u32(allow + own, FA_RTT_MAX_US);
	return allow;
}

/*
 * Has a whole window stayed above base by more than fa_route_allow_us()?
 * The window is base_win_ms, or route_rounds rounds if that ends first,
 * both times 2^probe_backoff.
 */
static inline bool fa_base_suspect(struct fa_state *s,
				   const struct fa_params *p, u32 now_us)
{
	u32 win_us = (p->base_win_ms * 1000U) << s->probe_backoff;
	u32 rounds = p->route_rounds << s->probe_backoff;
	bool suspect;

	if (s->win_rounds < 0xff)
		s->win_rounds++;
	if (now_us - s->win_start_us < win_us &&
	    (!rounds || s->win_rounds < fa_min_u32(rounds, 0xff)))
		return false;
	suspect = s->win_min_us != FA_RTT_NONE &&
		  s->base_rtt_us != FA_RTT_NONE &&
		  s->win_min_us - s->base_rtt_us > fa_route_allow_us(s, p);
	if (!suspect) {
		s->probe_backoff = 0;
		fa_window_reset(s, now_us);
	}
	return suspect;
}

/* The mean RTT sample of the update cycle so far, 0 before any sample. */
static inline u32 fa_cycle_mean(const struct fa_state *s)
{
	return s->cycle_samples ? s->cycle_sum_us / s->cycle_samples : 0;
}

/*
 * probe_mean (fa_params.h): the RTT the quick probe reads for the window it
 * gives back and for its room test.  The samples of the probe's round are
 * the ACKs of the last full window before the drain, sent at the ACK clock
 * after slow start had ended (the round before held slow start's own
 * train): their mean shows the queue a window above the pipe keeps, which
 * a round's minimum under bursts does not.  Fewer than
 * FA_PROBE_MEAN_SAMPLES of them, or the mode off: the round's minimum the
 * probe started from.  A probe that restores the old window as it was
 * (probe_avg_us 0) or that tests others' queue while competing keeps its
 * own reading.
 */
static inline u32 fa_probe_avg(const struct fa_state *s,
			       const struct fa_params *p)
{
	u32 avg = s->probe_avg_us;

	if (!p->probe_mean || !avg || avg == FA_RTT_NONE ||
	    (s->comp & FA_C_TEST) || s->cycle_samples < FA_PROBE_MEAN_SAMPLES)
		return avg;
	return fa_max_u32(avg, fa_cycle_mean(s));
}

/*
 * The window after a probe: the one before it, or (avg_us set, the quick
 * once-per-flow probe: fa_probe_avg()) what one law update with gain 1 asks
 * for with the drained base, w base / avg + alpha, at most the window
 * before: the pre-probe window held the slow-start overshoot, and restoring
 * it at once would rebuild that queue in one burst.
 */
static inline u32 fa_probe_restore(const struct fa_state *s, u32 alpha_pkts,
				   u32 avg_us)
{
	u32 w = s->probe_cwnd, avg = avg_us;
	u64 t;

	if (avg && avg != FA_RTT_NONE && s->base_rtt_us < avg) {
		t = div_u64((u64)w * s->base_rtt_us, avg) + alpha_pkts;
		w = t < w ? (u32)t : w;
	}
	return fa_clamp_u32(w, FA_CWND_MIN, FA_CWND_MAX);
}

/*
 * The ramp line: does a window w at RTT rtt_us over base_us keep less than
 * alpha >> FA_RAMP_SHIFT packets queued?  w (rtt - base) < (alpha/4) rtt,
 * without a division; rtt below base counts as base.  With ramp_scatter
 * the line is alpha/4 + w >> FA_RAMP_SCATTER_SHIFT, at most alpha/2 (see
 * "Approach from below" at the top).
 */
static inline bool fa_below_ramp_line(const struct fa_params *p, u32 w,
				      u32 rtt_us, u32 base_us)
{
	u32 line = p->alpha_pkts >> FA_RAMP_SHIFT;

	if (p->ramp_scatter)
		line += fa_min_u32(w >> FA_RAMP_SCATTER_SHIFT, line);
	rtt_us = fa_max_u32(rtt_us, base_us);
	return (u64)w * (rtt_us - base_us) < (u64)line * rtt_us;
}

/*
 * The part of a restored window w that a probe gives back at once.
 * overshoot: on a path that overflowed in this route window or the last,
 * half of it, and the rest per ACK (at most 2 packets per packet acked,
 * fa_cwnd_on_ack): the whole of it, sent into the drained pipe in one
 * burst, overflowed the same buffer again.
 */
static inline u32 fa_probe_give_back(const struct fa_state *s,
				     const struct fa_params *p, u32 w)
{
	if (p->overshoot && fa_cap_held(s))
		return fa_max_u32(w >> 1, FA_CWND_MIN);
	return w;
}

/*
 * After the once-per-flow probe (probe_avg_us set): with the base it just
 * measured, did the round before the probe hold less than alpha/4 of this
 * flow's packets?  Then slow start had ended on transient queue (an unpaced
 * window's bursts: the VM's 64 MiB pull left it at 578 of 863 packets) and
 * the flow ramps from the probe instead of waiting for the ramp tests.
 */
static inline bool fa_probe_found_room(const struct fa_state *s,
				       const struct fa_params *p)
{
	u32 avg = fa_probe_avg(s, p), base = fa_base_eff_us(s, p);
	u32 w = fa_min_u32(s->probe_cwnd, FA_CWND_MAX);

	if (!avg || avg == FA_RTT_NONE || base == FA_RTT_NONE)
		return false;
	return fa_below_ramp_line(p, w, avg, base);
}

/*
 * compete_refill (see the top, "Competing"): at an exit test that found
 * others' queue still there, does the flow's window w read under 3/4 of
 * theirs, W?  In the drain the flow's packets leave the queue and theirs
 * stay: the RTT before it, avg, is (w + W) / C and the drained one, pmin_us,
 * W / C, so w / W = (avg - pmin) / pmin.  A drained RTT at or above the one
 * before (the competitor grew during the drain) reads as no share at all.
 */
static inline bool fa_compete_refill(const struct fa_state *s,
				     const struct fa_params *p, u32 pmin_us)
{
	u32 avg = s->probe_avg_us;

	if (!p->compete || !p->compete_refill || !avg || avg == FA_RTT_NONE ||
	    !pmin_us || pmin_us == FA_RTT_NONE)
		return false;
	if (avg <= pmin_us)
		return true;
	return (u64)(avg - pmin_us) * FA_REFILL_DEN <
	       (u64)pmin_us * FA_REFILL_NUM;
}

/*
 * The end of a probe that tested, while competing, whether others' queue
 * drains: it did if the drained RTT came within base/8 of the base.  Then
 * the flow goes back to the law with the window one update with gain 1
 * asks for (probe_avg_us holds the RTT before the drain); otherwise it
 * competes on from the window it had.  A longer path is never adopted
 * here: the RTT holds others' queue.
 */
static inline enum fa_action fa_compete_test_end(struct fa_state *s,
						 const struct fa_params *p,
						 u32 now_us,
						 struct fa_update *u)
{
	u32 pmin = s->probe_min_us, last = s->stuck_min_us, flat;
	bool longer = false;

	s->comp &= ~FA_C_TEST;
	flat = (s->comp & FA_C_FLAT_MASK) >> FA_C_FLAT_SHIFT;
	if (pmin != FA_RTT_NONE && last != FA_RTT_NONE &&
	    (pmin > last ? pmin - last : last - pmin) <=
	    s->floor_us >> FA_COMP_FLAT_SHIFT)
		flat++;
	else
		flat = 0;
	if (!flat)	/* this test starts the chain: earlier losses do not count */
		s->comp &= ~FA_C_FLAT_LOSS;
	if (flat >= FA_COMP_FLAT_TESTS && fa_others_queue(s, pmin) &&
	    (!p->compete_adopt || (s->comp & FA_C_FLAT_LOSS))) {
		/* the same drained RTT test after test: a longer path */
		s->floor_us = pmin;
		s->base_rtt_us = fa_max_u32(s->base_rtt_us, pmin);
		longer = true;
	}
	if (longer || !fa_others_queue(s, pmin)) {
		s->phase = FA_PHASE_LAW;
		s->path_rel = FA_PATH_REL_NONE;
		s->own_q_us = FA_RTT_NONE;	/* CUBIC's, not the route test's */
		s->own_q_prev_us = FA_RTT_NONE;
		/*
		 * The evidence stays for two route windows: a loss-based flow
		 * whose window fell below the pipe at its last loss (Reno's
		 * trough) leaves no queue for a while; when it builds one
		 * again, the law competes as soon as a route window's least
		 * RTT shows it (fa_round_end), without waiting for a loss.
		 */
		s->comp = longer ? 0 : FA_C_EVID | FA_C_EVID_PREV |
				       FA_COMP_AFTER_WINDOWS << FA_C_AFTER_SHIFT;
		s->probe_backoff = 0;
		s->stuck_min_us = FA_RTT_NONE;
	} else {
		s->phase = FA_PHASE_COMPETE;
		/* compete_refill: a slow start to a loss (fa_ssthresh_for) */
		s->ramp_cap = fa_compete_refill(s, p, pmin) ? FA_CWND_MAX : 0;
		s->comp = (u8)((s->comp & ~FA_C_FLAT_MASK) |
			       (fa_min_u32(flat, FA_COMP_FLAT_TESTS) <<
				FA_C_FLAT_SHIFT));
		s->stuck_min_us = pmin;	/* drain_check is off while competing */
	}
	/*
	 * Either way the window before the drain comes back: after the mode
	 * the law sheds the queue it built at its adaptive gain, which a
	 * competitor's trough (Reno below the pipe for seconds after its
	 * loss) does not then cost half the window.
	 */
	s->probe_avg_us = 0;
	s->probe_rounds = 0;
	s->probe_min_us = FA_RTT_NONE;
	fa_cycle_reset(s);
	if (s->phase == FA_PHASE_COMPETE)
		fa_compete_window_reset(s, now_us);
	else
		fa_window_reset(s, now_us);
	u->cwnd_out = fa_probe_restore(s, p->alpha_pkts, s->probe_avg_us);
	s->target_cwnd = u->cwnd_out;
	return FA_ACT_PROBE_END;
}

/*
 * probe_pause, at the end of a paused probe's round (the ACK of the first
 * packet sent after the pause, the round's last sample): did that packet
 * find the base the flow had, within jitter_us?  If not, the pause read
 * either a lower base (others' queue was in it: a joiner) or a queue it did
 * not empty (others', grown since the flow started: a joiner again, whose
 * slow start pushed the incumbents' queue up; ns-3 Exp 7 scaled, 194 of 323
 * packets left queued), and the flow drains to FA_CWND_MIN at once.
 */
static inline bool fa_pause_missed(const struct fa_state *s,
				   const struct fa_params *p)
{
	u32 was = s->pause_base_us, r = s->pause_rtt_us;

	/*
	 * Not paused (a competing flow's test never is): was and r are 0
	 * (fa_drain_reset()).  Paused with no sample: r 0, far under the base.
	 */
	return (r > was ? r - was : was - r) > p->jitter_us;
}

/*
 * join_reprobe (fa_params.h): did the once-per-flow probe that started at
 * base before_us (FA_RTT_NONE: another probe) lower the base by more than
 * max(jitter_us, base / 2^FA_JOIN_DROP_SHIFT)?  Then others' queue was in
 * the base: the flow joined them, and the drain may have read part of that
 * queue still (the incumbents had not yet yielded its share).  The
 * shorter-path machinery (FA_F_BASE_DROP, shorter_path, path_settle) runs
 * the probe once more, at the second update from now with path_settle,
 * when they have cut further.
 */
static inline bool fa_joined(const struct fa_state *s,
			     const struct fa_params *p, u32 before_us)
{
	u32 base = s->base_rtt_us;

	if (!p->join_reprobe || !p->shorter_path || before_us == FA_RTT_NONE ||
	    base == FA_RTT_NONE || before_us <= base)
		return false;
	return before_us - base >
	       fa_max_u32(p->jitter_us, base >> FA_JOIN_DROP_SHIFT);
}

static inline enum fa_action fa_probe_end(struct fa_state *s,
					  const struct fa_params *p, u32 now_us,
					  struct fa_update *u)
{
	u32 pmin = s->probe_min_us, base = s->base_rtt_us;
	u32 before = s->stuck_min_us;	/* join_reprobe: base at the start */
	bool longer = false, ask = s->comp & FA_C_ASK;

	if (s->comp & FA_C_TEST)
		return fa_compete_test_end(s, p, now_us, u);
	s->comp &= ~FA_C_ASK;
	/* path_settle: this drain measured the shorter path (see the top) */
	if (p->path_settle && (s->flags & FA_F_BASE_DROP))
		s->flags = (s->flags & ~FA_F_BASE_DROP) | FA_F_SS_PROBED;
	/* the knee test's and the drain check's fields again (0 at the start) */
	s->pause_base_us = 0;
	s->cut_want_us = 0;
	/* compete_rise: the queue grew over the path the last drain took */
	if (p->compete && p->compete_rise && fa_drain_rose(s, pmin))
		s->comp |= FA_C_EVID;
	if (p->compete && (s->comp & (FA_C_EVID | FA_C_EVID_PREV)) &&
	    fa_others_queue(s, pmin)) {
		/*
		 * The drained RTT still holds a queue, and a loss on a small
		 * backlog of this flow came while the queue stood deep and
		 * the law was shrinking, or the base fell below a longer path
		 * the flow had adopted (compete_moves): buffer-filling flows
		 * hold the queue, not a longer path.  Compete, from the
		 * window before the probe.
		 */
		fa_compete_enter(s, now_us);
		s->probe_rounds = 0;
		s->probe_min_us = FA_RTT_NONE;
		s->probe_avg_us = 0;
		fa_cycle_reset(s);
		fa_compete_window_reset(s, now_us);
		u->cwnd_out = fa_probe_restore(s, p->alpha_pkts,
					       fa_probe_avg(s, p));
		s->target_cwnd = u->cwnd_out;
		fa_cubic_epoch(s, u->cwnd_out);
		/*
		 * The window the law kept is what the competitor left it: slow
		 * start once more, to twice that at most, or (compete_start)
		 * until a loss, as a CUBIC or Reno flow that joins starts;
		 * then CUBIC's curve from the window that loss finds
		 * (fa_ssthresh_for; the slow-start exit is off while
		 * competing).
		 */
		s->ramp_cap = p->compete_start ? FA_CWND_MAX :
			      fa_min_u32(u->cwnd_out, FA_CWND_MAX >> 1) << 1;
		return FA_ACT_PROBE_END;
	}
	/*
	 * join_reprobe's probes (before set) only lower the base: a second
	 * drain next to incumbents that still fill the pipe (a joiner at the
	 * window its first probe gave back) reads their queue, not a longer
	 * path (VM: 70.5 ms adopted on a 51 ms path).
	 */
	if (ask) {
		/* the drain asked by a loss tests for competitors only */
	} else if (before == FA_RTT_NONE && pmin != FA_RTT_NONE && pmin > base &&
		   pmin - base > base >> FA_ROUTE_SHIFT) {
		s->base_rtt_us = pmin;
		s->probe_backoff = 0;
		s->path_rel = (u8)fa_path_rel(s, pmin);
		longer = true;
	} else if (s->probe_backoff < FA_PROBE_BACKOFF_MAX) {
		/* a standing queue, not a longer path: probe less often */
		s->probe_backoff++;
	}
	s->phase = FA_PHASE_LAW;
	/*
	 * A longer path: the window the law shrank while the path looked like
	 * queue is far below the new BDP, and the drained RTT says the queue is
	 * empty.  Ramp at once (see fa_ssthresh_for) instead of waiting for an
	 * update cycle that a restored burst would fill with transient queue.
	 */
	u->cwnd_out = fa_probe_restore(s, p->alpha_pkts, fa_probe_avg(s, p));
	/*
	 * A loss on the old path says nothing about the new one; on the same
	 * path, an overflow's cap still holds (overshoot, see the top), and
	 * a cap at or below the restored window leaves nothing to ramp.
	 */
	if (longer || !p->overshoot || !fa_cap_held(s))
		s->ramp_cap = 0;
	if (p->ramp && (longer || (fa_probe_found_room(s, p) &&
				   !(p->overshoot && s->alpha_cap))) &&
	    (!s->ramp_cap || s->ramp_cap > u->cwnd_out)) {
		s->phase = FA_PHASE_RAMP;
		fa_ss_filter_reset(s);
	}
	s->probe_rounds = 0;
	s->probe_min_us = FA_RTT_NONE;
	fa_cycle_reset(s);
	fa_window_reset(s, now_us);
	s->target_cwnd = u->cwnd_out;
	u->cwnd_out = fa_probe_give_back(s, p, u->cwnd_out);
	s->stuck_min_us = FA_RTT_NONE;
	if (fa_joined(s, p, before))
		s->flags |= FA_F_BASE_DROP;	/* probe again (fa_round_end) */
	return FA_ACT_PROBE_END;
}

/* Rounds a probe lasts. */
static inline u32 fa_probe_rounds(const struct fa_params *p)
{
	return p->short_probe ? FA_PROBE_SHORT_ROUNDS : FA_PROBE_ROUNDS;
}

/* The window a probe keeps: FA_CWND_MIN, or a pause's (probe_pause). */
static inline u32 fa_probe_window(const struct fa_state *s)
{
	return s->pause_cwnd ? s->pause_cwnd : FA_CWND_MIN;
}

/*
 * probe_pause (fa_params.h): how many packets the quick probe holds back
 * instead of draining its window w to FA_CWND_MIN, from the mean RTT mean_us
 * of the update cycle before it: the flow's own backlog w (mean - base) /
 * mean (the cycle's mean holds slow start's last trains, so it errs long),
 * plus FA_PAUSE_ALPHAS alpha of other flows' queue, or what the flow sends
 * in FA_PAUSE_JITTERS jitter_us at w / mean if that is more: a pause that
 * empties only the own backlog would leave a joiner the queue its base
 * holds, which fa_pause_missed() cannot tell from the base.  0: drain (mode
 * off, no early_restore, no mean yet, a window the pause would leave under
 * a quarter, or one that does not fit pause_cwnd).
 */
static inline u32 fa_pause_pkts(const struct fa_state *s,
				const struct fa_params *p, u32 w, u32 mean_us)
{
	u32 base = s->base_rtt_us;
	u64 own = 0, margin;

	if (!p->probe_pause || !p->early_restore || !mean_us ||
	    base == FA_RTT_NONE || w > 0xffff)
		return 0;
	if (mean_us > base)
		own = div_u64((u64)w * (mean_us - base), mean_us);
	margin = div_u64((u64)w * FA_PAUSE_JITTERS * p->jitter_us, mean_us);
	if (margin < (u64)FA_PAUSE_ALPHAS * p->alpha_pkts)
		margin = (u64)FA_PAUSE_ALPHAS * p->alpha_pkts;
	own += margin;
	if (own + (w >> FA_PAUSE_KEEP_SHIFT) > w || w - own < FA_CWND_MIN)
		return 0;
	return (u32)own;
}

/*
 * Drain: send FA_CWND_MIN packets per round for fa_probe_rounds() rounds;
 * or, pause_pkts set (probe_pause), keep w - pause_pkts: the first packet
 * sent after the pause crosses a bottleneck the flow left alone for
 * pause_pkts packets, and fa_probe_end() reads its RTT.
 */
static inline enum fa_action fa_probe_start(struct fa_state *s, u32 cwnd,
					    u32 avg_us, u32 seen_min_us,
					    u32 pause_pkts,
					    struct fa_update *u)
{
	s->phase = FA_PHASE_PROBE;
	s->probe_rounds = 0;
	s->ramp_armed = 0;
	/* the knee test's fields hold the pause while the flow probes */
	s->pause_base_us = pause_pkts ? s->base_rtt_us : 0;
	s->pause_cwnd = pause_pkts ? (u16)(cwnd - pause_pkts) : 0;
	/*
	 * The probe can only lower what the route window saw, never raise it:
	 * a longer path shows in every sample of the suspect window, so its
	 * minimum is at most that window's.  Starting from the window's
	 * minimum keeps a probe whose own samples were delayed (ns-3: packets
	 * of a 2-packet window paced out at 1.2 w / srtt after a drained
	 * slow-start overshoot, 110-160 ms on a 50 ms path) from adopting a
	 * longer path that no sample before it showed.
	 */
	s->probe_min_us = seen_min_us;
	s->probe_cwnd = cwnd;
	fa_trend_reset(s);	/* a drain breaks a trend */
	fa_drain_reset(s);
	s->probe_avg_us = avg_us;
	u->cwnd_out = fa_probe_window(s);
	return FA_ACT_PROBE_START;
}

/*
 * probe_pause, when the pause is over (fa_probe_pause_over()): the pause was
 * sized on the update cycle before the probe, whose mean still holds slow
 * start's earlier, shorter rounds and so reads less than the queue its last
 * window left (ns-3 Exp 2: three flows that ended slow start together held
 * 4102 packets back from a queue of 4635, read it and all drained).  The
 * pause's own round has read the old flight's ACKs by now: if their mean
 * asks fa_pause_pkts() for alpha or more packets of pause on top, the probe
 * keeps that much less and the pause goes on.  Returns the window to set:
 * cwnd, or less.
 */
static inline u32 fa_pause_longer(struct fa_state *s,
				  const struct fa_params *p, u32 cwnd)
{
	u32 w = s->probe_cwnd, pause;

	/* the knee test's fields hold the pause only while the flow probes */
	if (s->phase != FA_PHASE_PROBE || !s->pause_cwnd ||
	    !s->pause_base_us || s->cycle_samples < FA_PROBE_MEAN_SAMPLES)
		return cwnd;
	pause = fa_pause_pkts(s, p, w, fa_cycle_mean(s));
	if (!pause || w - pause + p->alpha_pkts > s->pause_cwnd)
		return cwnd;
	s->pause_cwnd = (u16)(w - pause);
	return fa_min_u32(cwnd, s->pause_cwnd);
}

/*
 * early_restore: the ACK that leaves fewer packets in flight than the
 * probe's window, while the host still keeps that window: the next packet
 * sent is the one the probe reads.
 */
static inline bool fa_probe_pause_over(const struct fa_state *s, u32 cwnd,
				       u32 in_flight)
{
	u32 w = fa_probe_window(s);

	return s->phase == FA_PHASE_PROBE && cwnd <= w && in_flight < w;
}

/*
 * early_restore (see the top, base_rtt): the host calls this on each ACK
 * while the flow probes, with the packets it has in flight after that ACK.
 * In the probe's last round, once fewer than FA_CWND_MIN are left, the next
 * packet the host sends is the one whose RTT the probe reads, and what is
 * sent behind it cannot delay it.  So the window comes back now, with what
 * the probe knew when it started, instead of an RTT later: the probe still
 * ends at that packet's ACK (fa_probe_end), which sets the window its
 * drained RTT asks for, lower at once for a flow that took others' queue
 * for its base.  Returns the window to set: cwnd when there is nothing to
 * do, never less.
 */
static inline u32 fa_probe_drained(const struct fa_state *s,
				   const struct fa_params *p, u32 cwnd,
				   u32 in_flight)
{
	struct fa_params fit;
	u32 w;

	if (!p->early_restore || !fa_probe_pause_over(s, cwnd, in_flight) ||
	    s->probe_rounds + 1U < fa_probe_rounds(p))
		return cwnd;
	p = fa_fit_params(s, p, &fit);
	w = fa_probe_restore(s, p->alpha_pkts, fa_probe_avg(s, p));
	/* a competing flow's test gives its window back whole */
	if (!(s->comp & FA_C_TEST))
		w = fa_probe_give_back(s, p, w);
	return fa_max_u32(w, cwnd);
}

/*
 * restore_pace (fa_params.h): should the host pace the window a probe just
 * gave back?  Yes when it exceeds the flight by more than FA_PACE_BURST_PKTS,
 * the burst any path is asked to absorb.  The host that takes the pacer sets
 * pace_restore and gives the pacer back when fa_pace_restore_done() says the
 * window is in flight (the ACKs then clock the flow again) or the window fell,
 * or when the flow slow starts again (a ramp from the probe): a slow start
 * paced at twice cwnd / srtt never fills its window, and its exit, which sees
 * the queue a round late, then overshot a 1-BDP buffer (VM demo: a ramp from
 * 399 packets on a 413-packet path to 901, 75 lost; unpaced, the initial
 * slow start's trains show their queue within the round and it ends at
 * 1.1-1.25 BDP).
 */
/* The initial window of RFC 6928: a train this long leaves unpaced anyway. */
#define FA_PACE_BURST_PKTS	10U

static inline bool fa_pace_restore_due(const struct fa_state *s,
				       const struct fa_params *p, u32 cwnd,
				       u32 in_flight)
{
	return p->restore_pace && !s->pace_restore &&
	       s->phase != FA_PHASE_RAMP && s->phase != FA_PHASE_SS &&
	       cwnd > in_flight + FA_PACE_BURST_PKTS;
}

static inline bool fa_pace_restore_done(const struct fa_state *s, u32 cwnd,
					u32 in_flight)
{
	return s->pace_restore &&
	       (in_flight >= cwnd || s->phase == FA_PHASE_RAMP ||
		s->phase == FA_PHASE_SS);
}

/*
 * drain_check (see the top), at an update with the cycle's RTT avg_us: did
 * the last cut show in the RTT?  True when FA_STUCK_CUTS cuts in a row did
 * not, and the RTT is still more than base/4 above base.
 */
static inline bool fa_drain_stuck(struct fa_state *s,
				  const struct fa_params *p, u32 avg_us)
{
	u32 base = s->base_rtt_us, want = s->cut_want_us;

	if (!p->drain_check || !want)
		return false;
	s->cut_want_us = 0;
	if (avg_us <= want || avg_us - base <= base >> FA_ROUTE_SHIFT) {
		fa_drain_reset(s);
		return false;
	}
	s->stuck_min_us = fa_min_u32(s->stuck_min_us, avg_us);
	if (++s->stuck < FA_STUCK_CUTS)
		return false;
	return true;
}

/* drain_check: remember a cut of the window from w to w_out at avg_us. */
static inline void fa_drain_cut(struct fa_state *s, const struct fa_params *p,
				u32 w, u32 avg_us, u32 w_out)
{
	u64 drop;

	if (!p->drain_check || w_out >= w || w - w_out < (w >> FA_CUT_SHIFT))
		return;
	drop = div_u64((u64)(w - w_out) * avg_us, w) >> FA_CUT_DRAIN_SHIFT;
	if (drop >= avg_us)
		drop = avg_us - 1;
	s->cut_want_us = avg_us - (u32)drop;
}

/*
 * The knee test (see "Approach from below" at the top), after an update of
 * window w whose backlog was backlog_q10 at the cycle's RTT avg_us: has the
 * window grown by a step since knee_cwnd with the own backlog nearly flat?
 * Then the next update ramps (ramp_armed = FA_RAMP_KNEE).
 */
static inline void fa_knee(struct fa_state *s, const struct fa_params *p,
			   u32 w, u32 avg_us, u64 backlog_q10, bool cwnd_limited)
{
	u64 b64 = backlog_q10 >> FA_SHIFT;
	u32 b = b64 > 0xffff ? 0xffff : (u32)b64;
	u32 step, base = fa_base_eff_us(s, p);

	if (!p->ramp || !cwnd_limited || !s->knee_cwnd || w < s->knee_cwnd) {
		s->knee_cwnd = w;
		s->knee_backlog = (u16)b;
		return;
	}
	step = fa_min_u32(s->knee_cwnd >> FA_KNEE_SHIFT,
			  FA_KNEE_ALPHAS * p->alpha_pkts);
	if (w - s->knee_cwnd < fa_max_u32(step, 1))
		return;
	if (b < s->knee_backlog + ((w - s->knee_cwnd) >> FA_KNEE_RISE_SHIFT) &&
	    (avg_us <= base || avg_us - base < base >> FA_KNEE_QDELAY_SHIFT))
		s->ramp_armed = FA_RAMP_KNEE;
	s->knee_cwnd = w;
	s->knee_backlog = (u16)b;
}

/*
 * Should the flow re-enter slow start (see "Approach from below" at the
 * top)?  mean_us is the mean RTT sample of the cycle that just ended: the
 * test w (mean - base) < (alpha >> FA_RAMP_SHIFT) mean is the backlog over
 * the whole cycle below the threshold.  Not the round minima the law reads:
 * an unpaced window leaves the queue in bursts, and the smallest sample of
 * a round at equilibrium came within 0.2 ms of the base RTT in the VM (a
 * backlog of 1 where the mean showed 26), so ramps fired at equilibrium.
 */
/*
 * ramp_double (fa_params.h): the cap of a ramp an update starts from window
 * w, 2 w, or the loss's or mark's cap where that is lower.
 */
static inline u32 fa_ramp_double_cap(const struct fa_state *s, u32 cwnd)
{
	/* FA_CWND_MAX above half of it: a ramp is allowed below it */
	u32 twice = cwnd > FA_CWND_MAX >> 1 ? FA_CWND_MAX : cwnd << 1;

	return s->ramp_cap && s->ramp_cap < twice ? s->ramp_cap : twice;
}

/* May the flow ramp at all: mode on, window in use, below the loss cap? */
static inline bool fa_ramp_allowed(const struct fa_state *s,
				   const struct fa_params *p, u32 cwnd,
				   bool cwnd_limited)
{
	return p->ramp && cwnd_limited && cwnd < FA_CWND_MAX &&
	       (!s->ramp_cap || s->ramp_cap > cwnd) &&
	       !(p->overshoot && s->alpha_cap);	/* see the top, overshoot */
}

static inline bool fa_ramp_due(const struct fa_state *s,
			       const struct fa_params *p, u32 cwnd, u32 mean_us,
			       bool cwnd_limited)
{
	u32 base = fa_base_eff_us(s, p);

	if (!fa_ramp_allowed(s, p, cwnd, cwnd_limited) || mean_us == 0)
		return false;
	return fa_below_ramp_line(p, cwnd, mean_us, base);
}

/*
 * A round while competing (see the top, "Competing"): Reno's additive
 * increase, one packet per round while the window is in use, which the host
 * applies per ACK (fa_cwnd_on_ack); at the end of a route window without a
 * loss, the drain that tests whether others' queue is gone.
 */
/*
 * compete_quit (fa_params.h): does this round's least RTT stand less than
 * half as far above the floor as the highest round minimum of this route
 * window, with no loss of the flow's own in it?  Keeps that highest in
 * comp_peak_us (drain_check's field: it is off while competing, and a
 * probe's start clears it).
 */
static inline bool fa_compete_quit(struct fa_state *s,
				   const struct fa_params *p, u32 rmin)
{
	u32 q;

	if (!p->compete_quit || rmin == FA_RTT_NONE ||
	    s->floor_us == FA_RTT_NONE)
		return false;
	q = rmin > s->floor_us ? rmin - s->floor_us : 0;
	if (q > s->comp_peak_us) {
		s->comp_peak_us = q;
		return false;
	}
	return !(s->comp & FA_C_LOSS) && q < s->comp_peak_us >> FA_COMP_QUIT_SHIFT;
}

/* Start the exit test: a drain that keeps the last test's RTT for the next. */
static inline enum fa_action fa_compete_test_start(struct fa_state *s,
						   u32 cwnd, u32 rmin,
						   struct fa_update *u)
{
	u32 last = s->stuck_min_us;
	enum fa_action act;

	s->comp |= FA_C_TEST;
	act = fa_probe_start(s, cwnd, rmin, FA_RTT_NONE, 0, u);
	s->stuck_min_us = last;	/* the last test's RTT */
	return act;
}

static inline enum fa_action fa_compete_round(struct fa_state *s,
					      const struct fa_params *p,
					      u32 cwnd, bool cwnd_limited,
					      u32 rmin, u32 now_us,
					      struct fa_update *u)
{
	if (!p->compete) {	/* switched off: back to the law */
		s->phase = FA_PHASE_LAW;
		s->comp = 0;
		s->own_q_us = FA_RTT_NONE;
		s->own_q_prev_us = FA_RTT_NONE;
		fa_window_reset(s, now_us);
		return FA_ACT_NONE;
	}
	if (fa_compete_quit(s, p, rmin))
		return fa_compete_test_start(s, cwnd, rmin, u);
	if (now_us - s->win_start_us >= p->base_win_ms * 1000U) {
		/*
		 * Two route windows without a loss: a loss-based flow that
		 * backed off at its last loss may hold no queue for a while
		 * after it (Reno's trough); a test then would end the mode
		 * while it is still there.
		 */
		bool clean = !(s->comp & (FA_C_LOSS | FA_C_LOSS_PREV));

		s->comp &= ~FA_C_LOSS_PREV;
		if (s->comp & FA_C_LOSS)
			s->comp |= FA_C_LOSS_PREV;
		s->comp &= ~FA_C_LOSS;
		fa_compete_window_reset(s, now_us);
		s->comp_peak_us = 0;	/* compete_quit: this window's */
		if (clean && rmin != FA_RTT_NONE)
			return fa_compete_test_start(s, cwnd, rmin, u);
	}
	if (s->own_q_prev_us == FA_RTT_NONE)
		s->own_q_prev_us = now_us;	/* CUBIC's epoch starts */
	if (cwnd_limited) {
		u32 reno = fa_min_u32(cwnd + FA_COMP_AI_PKTS, FA_CWND_MAX);
		u32 cubic = fa_min_u32(fa_cubic_target(s, now_us),
				       cwnd + (cwnd >> FA_COMP_CUBIC_STEP_SHIFT));

		s->target_cwnd = fa_max_u32(reno, cubic);
	}
	return FA_ACT_NONE;
}

/*
 * End of a round (the ACK of the first packet sent after the previous round
 * ended).  Runs the law every update_rtts rounds in the law phase, and the
 * base-RTT probe.  The host applies u->cwnd_out as fa_apply() says.
 */
static inline enum fa_action fa_round_end(struct fa_state *s,
					  const struct fa_params *p, u32 cwnd,
					  bool in_ss, bool cwnd_limited,
					  u32 now_us, struct fa_update *u)
{
	const struct fa_params *tun = p;
	u32 rmin = s->round_min_us, wmin, mean;
	struct fa_params fit;
	bool due, knee, settle;
	u64 own;

	p = fa_fit_params(s, p, &fit);
	fa_round_reset(s);
	if (rmin != FA_RTT_NONE)
		s->avg_rtt_us = rmin;

	if (s->phase == FA_PHASE_PROBE) {
		if (++s->probe_rounds < fa_probe_rounds(p))
			return FA_ACT_NONE;
		if (fa_pause_missed(s, p)) {
			/*
			 * A joiner: others' queue in its base; drain now.  The
			 * pause's round read the old flight (probe_mean), the
			 * drain's will read the emptied path: the window the
			 * drain gives back is the pause's reading.
			 */
			enum fa_action act;
			u32 before = s->stuck_min_us;

			mean = fa_probe_avg(s, p);
			fa_cycle_reset(s);
			act = fa_probe_start(s, s->probe_cwnd, mean,
					     s->probe_min_us, 0, u);
			s->stuck_min_us = before;	/* join_reprobe */
			return act;
		}
		return fa_probe_end(s, p, now_us, u);
	}
	if (in_ss) {
		if (s->phase != FA_PHASE_RAMP && s->phase != FA_PHASE_COMPETE)
			s->phase = FA_PHASE_SS;
		fa_cycle_reset(s);
		return FA_ACT_NONE;
	}
	if (s->phase == FA_PHASE_COMPETE)
		return fa_compete_round(s, p, cwnd, cwnd_limited, rmin, now_us,
					u);
	s->phase = FA_PHASE_LAW;

	fa_path_moved(s, tun);
	wmin = s->win_min_us;
	if (fa_base_suspect(s, p, now_us))
		return fa_probe_start(s, cwnd, 0, s->win_min_us, 0, u);
	if (!s->win_rounds) {	/* a route window ended */
		/* compete: recent evidence, and others' queue all window */
		if (p->compete && (s->comp & (FA_C_EVID | FA_C_EVID_PREV)) &&
		    fa_others_queue(s, wmin)) {
			s->comp |= FA_C_ASK;
			/* compete_keep: the drain decides on this evidence */
			if (p->compete_keep)
				s->comp |= FA_C_EVID;
		}
		fa_alpha_regrow(s, tun);
		fa_flags_age(s, FA_F_RANDOM_SEEN, FA_F_RANDOM_PREV);
		fa_flags_age(s, FA_F_CAP_SEEN, FA_F_CAP_PREV);
		s->comp &= ~(FA_C_EVID_PREV | FA_C_LOSS);
		if (s->comp & FA_C_EVID)
			s->comp |= FA_C_EVID_PREV;
		s->comp &= ~FA_C_EVID;
		/* after the mode: the evidence lasts FA_COMP_AFTER_WINDOWS more */
		if (s->comp & FA_C_AFTER_MASK) {
			s->comp = (u8)(s->comp - (1U << FA_C_AFTER_SHIFT));
			s->comp |= FA_C_EVID_PREV;
		}
		/* compete_moves: a fall is evidence from this window on */
		if (s->path_rel == FA_PATH_REL_FELL) {
			s->path_rel = FA_PATH_REL_NONE;
			s->comp |= FA_C_EVID;
		}
		fa_trend_window(s, tun, wmin);
		/* compete_recheck: others' queue grown over an adopted path? */
		if (fa_recheck_due(s, tun, wmin, now_us))
			s->comp |= FA_C_ASK;
	}

	if (++s->cycle_rounds < p->update_rtts)
		return FA_ACT_NONE;
	mean = fa_cycle_mean(s);
	fa_cycle_reset(s);
	if (rmin == FA_RTT_NONE || s->base_rtt_us == FA_RTT_NONE)
		return FA_ACT_NONE;
	fa_fit_regrow(s, tun);
	/*
	 * The path got shorter by more than a quarter: the new minimum is the
	 * new path plus whatever queue the flow kept then, which a minimum never
	 * sheds.  Probe once more, as after slow start; with path_settle, from
	 * the next update on (see the top), FA_F_BASE_DROP marking the probe.
	 */
	settle = false;
	if ((s->flags & FA_F_BASE_DROP) && p->shorter_path &&
	    (s->flags & FA_F_SS_PROBED)) {
		s->flags &= ~FA_F_SS_PROBED;
		settle = p->path_settle;
	}
	if (!p->path_settle || !p->shorter_path)
		s->flags &= ~FA_F_BASE_DROP;
	if (!settle && !(s->flags & FA_F_SS_PROBED) &&
	    s->ss_updates >= (p->quick_probe ? FA_SS_PROBE_UPDATES_QUICK :
					       FA_SS_PROBE_UPDATES)) {
		enum fa_action act;

		s->flags |= FA_F_SS_PROBED;
		act = fa_probe_start(s, cwnd, p->quick_probe ? rmin : 0,
				     s->win_min_us,
				     p->quick_probe ?
				     fa_pause_pkts(s, p, cwnd, mean) : 0, u);
		/* join_reprobe: the base the drain may lower (fa_joined()) */
		if (p->join_reprobe)
			s->stuck_min_us = s->base_rtt_us;
		return act;
	}
	/* competing: a loss looked like others' overflow; does the queue drain? */
	if (s->comp & FA_C_ASK) {
		/* ASK stays set during the probe: it adopts no longer path */
		if (p->compete)
			return fa_probe_start(s, cwnd, 0, s->win_min_us, 0, u);
		s->comp &= ~FA_C_ASK;
	}
	if (fa_drain_stuck(s, p, rmin)) {
		u32 seen = s->stuck_min_us;

		return fa_probe_start(s, cwnd, 0, seen, 0, u);
	}
	due = fa_ramp_due(s, p, cwnd, mean, cwnd_limited);
	knee = s->ramp_armed == FA_RAMP_KNEE &&
	       fa_ramp_allowed(s, p, cwnd, cwnd_limited);
	if (!knee && !due) {
		s->ramp_armed = 0;
		/* no ramp right after the loss; after a mark, none past it */
		if (!fa_cap_held(s))
			s->ramp_cap = 0;
	} else if (!knee && s->ramp_armed != FA_RAMP_ARMED) {
		s->ramp_armed = FA_RAMP_ARMED;	/* one more cycle (see the top) */
	} else {
		s->ramp_armed = 0;
		s->knee_cwnd = 0;
		s->phase = FA_PHASE_RAMP;
		fa_ss_filter_reset(s);
		u->cwnd_out = cwnd;
		if (p->ramp_double)	/* fa_ssthresh_for() reads the cap */
			s->ramp_cap = fa_ramp_double_cap(s, cwnd);
		return FA_ACT_RAMP;
	}

	fa_law(p, cwnd, fa_base_eff_us(s, p), rmin, cwnd_limited, u);
	fa_drain_cut(s, p, cwnd, rmin, u->cwnd_out);
	fa_knee(s, p, cwnd, rmin, u->backlog_q10, cwnd_limited);
	if (fa_near_equilibrium(u)) {
		own = div_u64((u64)p->alpha_pkts * rmin, fa_max_u32(cwnd, 1));
		s->own_q_us = fa_min_u32(s->own_q_us, own > FA_RTT_MAX_US ?
						      FA_RTT_MAX_US : (u32)own);
	}
	s->gamma = (u16)u->gamma;
	s->target_cwnd = u->cwnd_out;
	if (s->ss_updates < FA_SS_UPDATES_MAX)
		s->ss_updates++;
	return FA_ACT_UPDATE;
}

/*
 * The window to set right after fa_round_end() returned act: a probe sets
 * its window at once, an update lowers the window at once but raises it
 * only as ACKs arrive (fa_cwnd_on_ack), at most doubling it per round.
 */
static inline u32 fa_apply(enum fa_action act, u32 cwnd,
			   const struct fa_update *u)
{
	switch (act) {
	case FA_ACT_PROBE_START:
	case FA_ACT_PROBE_END:
		return u->cwnd_out;
	case FA_ACT_UPDATE:
		return fa_min_u32(cwnd, u->cwnd_out);
	default:
		return cwnd;
	}
}

/*
 * The slow-start threshold the host keeps after an action: the law owns the
 * window out of slow start, so ssthresh follows it (a window the law lowers
 * must not put the host back in slow start); a ramp re-enters slow start up
 * to the cap a loss left, or without a cap (the backlog exit ends it).
 */
static inline u32 fa_ssthresh_for(const struct fa_state *s,
				  enum fa_action act, u32 cwnd)
{
	bool ramp = act == FA_ACT_RAMP ||
		    (act == FA_ACT_PROBE_END && s->phase == FA_PHASE_RAMP);

	/* competing from now on: one slow start up to ramp_cap (see above) */
	if (act == FA_ACT_PROBE_END && s->phase == FA_PHASE_COMPETE)
		return s->ramp_cap ? s->ramp_cap : cwnd;	/* FA_CWND_MAX: to a loss */
	if (!ramp)
		return cwnd;
	return s->ramp_cap ? s->ramp_cap : FA_CWND_MAX;
}

/* Per ACK in the law phase: grow toward the target by the packets acked. */
static inline u32 fa_cwnd_on_ack(const struct fa_state *s, u32 cwnd,
				 u32 acked, bool cwnd_limited)
{
	if ((s->phase != FA_PHASE_LAW && s->phase != FA_PHASE_COMPETE) ||
	    !cwnd_limited || cwnd >= s->target_cwnd)
		return cwnd;
	return cwnd + fa_min_u32(acked, s->target_cwnd - cwnd);
}

/*
 * The ACK the host is processing echoes a CE mark (ece) or not; a loss
 * that the same ACK reveals is then answered as congestion.
 */
static inline void fa_ack_ece(struct fa_state *s, bool ece)
{
	if (ece)
		s->flags |= FA_F_ECE;
	else
		s->flags &= ~FA_F_ECE;
}

/*
 * The flow's backlog, in packets, when a loss is found: w (r - base) / r
 * with r the greater of the last round's minimum RTT and the current
 * round's so far (the more recent queue, and the larger: when in doubt, a
 * loss is congestion).  0 before any sample.
 */
/* The r of fa_loss_backlog(); 0 before any sample. */
static inline u32 fa_loss_rtt_us(const struct fa_state *s)
{
	u32 r = 0;

	if (s->avg_rtt_us != FA_RTT_NONE)
		r = s->avg_rtt_us;
	if (s->round_min_us != FA_RTT_NONE)
		r = fa_max_u32(r, s->round_min_us);
	return r;
}

/*
 * overshoot: is the loss the end of a doubling - in slow start or a ramp,
 * or before the first update after one (see the top, "Loss")?
 */
static inline bool fa_doubling(const struct fa_state *s,
			       const struct fa_params *p)
{
	return p->overshoot &&
	       (s->phase == FA_PHASE_SS || s->phase == FA_PHASE_RAMP ||
		(s->phase == FA_PHASE_LAW && !s->ss_updates));
}

static inline u32 fa_loss_backlog(const struct fa_state *s,
				  const struct fa_params *p, u32 cwnd)
{
	u32 base = fa_base_eff_us(s, p), r = fa_loss_rtt_us(s);

	/* a doubling outruns its round minima: the last 8..16 samples too */
	if (fa_doubling(s, p) && fa_ss_rtt_us(s) != FA_RTT_NONE)
		r = fa_max_u32(r, fa_ss_rtt_us(s));

	if (s->base_rtt_us == FA_RTT_NONE || r <= base)
		return 0;
	return (u32)div_u64((u64)cwnd * (r - base), r);
}

/*
 * compete: does a loss (not a mark) on a small backlog look like others'
 * overflow?  The queue stood more than floor/4 deep (see the top).
 */
static inline bool fa_foreign_overflow(const struct fa_state *s,
				       const struct fa_params *p, bool small)
{
	u32 r = fa_loss_rtt_us(s), floor = s->floor_us;

	if (!p->compete || !small || (s->flags & FA_F_ECE) ||
	    floor == FA_RTT_NONE || r <= floor)
		return false;
	return r - floor > floor >> FA_ROUTE_SHIFT;
}

/*
 * queue_fit: a loss or mark found b packets of the flow queued where the
 * path holds no more: alpha drops to 3/4 of b, not below alpha/4 (fit_low:
 * 3/4 of b even below that, so at least 3/16 alpha) and never up.  A
 * backlog under alpha/4 says nothing about the queue's size, and a loss
 * with one marks the route window as lossy: there and in the window after,
 * only a CE mark fits alpha (a loss may be random at any backlog).
 */
static inline u32 fa_fit_floor(const struct fa_params *p)
{
	return fa_max_u32(p->alpha_pkts >> FA_FIT_FLOOR_SHIFT, 1);
}

/* The least alpha a fit sets (fit_low: 3/4 of the least backlog that fits). */
static inline u32 fa_fit_min(const struct fa_params *p)
{
	u32 floor = fa_fit_floor(p);

	if (!p->fit_low)
		return floor;
	return fa_max_u32(floor * FA_FIT_NUM / FA_FIT_DEN, 1);
}

/* Returns whether the loss or mark fit alpha (lowered it or found it low). */
static inline bool fa_fit_alpha(struct fa_state *s, const struct fa_params *p,
				u32 b, u32 cwnd, bool mark)
{
	u32 floor = fa_fit_floor(p);
	u32 cap, now = s->alpha_cap ? fa_min_u32(s->alpha_cap, p->alpha_pkts) :
				      p->alpha_pkts;

	if (!p->queue_fit)
		return false;
	/* fit_noise: a loss's backlog must stand out of the RTT's scatter */
	if (p->fit_noise && !mark)
		floor = fa_max_u32(floor, cwnd >> FA_FIT_NOISE_SHIFT);
	if (b < floor) {
		s->flags |= FA_F_RANDOM_SEEN;
		return false;
	}
	if (!mark && (s->flags & (FA_F_RANDOM_SEEN | FA_F_RANDOM_PREV)))
		return false;
	cap = fa_max_u32((u32)div_u64((u64)b * FA_FIT_NUM, FA_FIT_DEN),
			 fa_fit_min(p));
	if (cap < now)
		s->alpha_cap = (u16)fa_min_u32(cap, 0xffff);
	return true;
}

/*
 * Loss or CE mark: remember the window for undo, and answer it (see the
 * top, "Loss").  kind, if not NULL, says how it was read (enum
 * fa_loss_kind) and backlog the flow's backlog then, in packets (the
 * tracepoint's fields).
 */
static inline u32 fa_ssthresh(struct fa_state *s, const struct fa_params *p,
			      u32 cwnd, u32 *backlog, u32 *kind)
{
	u32 b, k = FA_LOSS_CONGESTION, host = fa_max_u32(cwnd, FA_CWND_MIN);
	bool small, over, dbl, fit = false;

	s->comp |= FA_C_LOSS;
	if (s->comp & FA_C_TEST) {	/* a loss ends the exit test: compete on */
		cwnd = fa_max_u32(cwnd, s->probe_cwnd);
		s->comp &= ~FA_C_TEST;
		s->phase = FA_PHASE_COMPETE;
		s->probe_rounds = 0;
		s->probe_min_us = FA_RTT_NONE;
	}
	if (s->phase == FA_PHASE_COMPETE) {
		if (p->compete_adopt)	/* the flat tests now straddle a loss */
			s->comp |= FA_C_FLAT_LOSS;
		/* CUBIC: 7/10 at a loss or a mark, a new epoch from here */
		if (backlog)
			*backlog = fa_loss_backlog(s, p, cwnd);
		if (kind)
			*kind = FA_LOSS_COMPETE;
		s->prior_cwnd = cwnd;
		fa_cubic_epoch(s, s->own_q_us != FA_RTT_NONE && cwnd < s->own_q_us ?
			       (u32)div_u64((u64)cwnd * FA_COMP_FC_NUM,
					    FA_COMP_FC_DEN) : cwnd);
		s->target_cwnd = fa_clamp_u32((u32)div_u64((u64)cwnd *
							    FA_COMP_MD_NUM,
							    FA_COMP_MD_DEN),
					      FA_CWND_MIN, FA_CWND_MAX);
		return fa_min_u32(s->target_cwnd, host);
	}
	if (s->phase == FA_PHASE_PROBE) {
		s->comp &= ~FA_C_ASK;
		/* path_settle: the shorter path's probe runs once more */
		if (p->path_settle && (s->flags & FA_F_BASE_DROP))
			s->flags &= ~(FA_F_BASE_DROP | FA_F_SS_PROBED);
		s->cut_want_us = 0;	/* 0 at the start, or pause_rtt_us */
		s->stuck_min_us = FA_RTT_NONE;	/* NONE, or join_reprobe's */
		cwnd = fa_max_u32(cwnd, s->probe_cwnd);
		s->phase = FA_PHASE_LAW;
		s->probe_rounds = 0;
		s->probe_min_us = FA_RTT_NONE;
	}
	dbl = fa_doubling(s, p);
	b = fa_loss_backlog(s, p, cwnd);
	small = (u64)b * FA_LOSS_CONG_DEN <
		(u64)p->alpha_pkts * FA_LOSS_CONG_NUM;
	/* overshoot: a doubling that found a queue overfilled it */
	over = dbl && b >= fa_fit_floor(p);
	/* the first such loss in two route windows asks for a drain */
	if (fa_foreign_overflow(s, p, small)) {
		if (!(s->comp & (FA_C_EVID | FA_C_EVID_PREV)))
			s->comp |= FA_C_ASK;
		s->comp |= FA_C_EVID;
	}
	if (s->flags & FA_F_ECE)
		k = p->queue_fit ? FA_LOSS_MARK : FA_LOSS_ECN;
	else if (small && p->random_loss && !over)
		k = FA_LOSS_RANDOM;
	if (k >= FA_LOSS_RANDOM && (s->flags & FA_F_CUT))
		k = FA_LOSS_REPEAT;
	if (backlog)
		*backlog = b;
	if (kind)
		*kind = k;
	s->prior_cwnd = cwnd;
	s->knee_cwnd = 0;
	s->ramp_armed = 0;
	if (k >= FA_LOSS_RANDOM) {
		/*
		 * Not an overflow this flow caused: drop the flow's own queue
		 * (a second loss in the round, nothing) and keep the update
		 * cycle, whose RTT samples the loss did not change.  With
		 * queue_fit, fit alpha to the queue the path held, and let a
		 * ramp regrow no more than the cut.
		 */
		if (k != FA_LOSS_REPEAT) {
			u32 cut = b;

			/*
			 * A mark is congestion even if b reads 0 (a base RTT
			 * that holds a standing queue): at least w/8; at most
			 * half, as FAST would.  No ramp afterwards: the AQM
			 * marks the window a ramp would return to.
			 */
			if (k == FA_LOSS_MARK)
				cut = fa_min_u32(fa_max_u32(b, cwnd >> FA_MARK_SHIFT),
						 cwnd >> 1);
			/*
			 * overshoot: a doubling's b lags its window; one that
			 * reads near 0 does not mark the route window lossy
			 * (that would stop the fits of the overflows after it)
			 */
			if (!dbl || k == FA_LOSS_MARK)
				fit = fa_fit_alpha(s, p, b, cwnd,
						   k == FA_LOSS_MARK);
			if (p->queue_fit && cut)
				s->ramp_cap = fa_min_u32(cwnd, FA_CWND_MAX);
			/* overshoot: a loss that fit alpha holds its cap */
			if (p->overshoot && k == FA_LOSS_RANDOM && fit)
				s->flags |= FA_F_CAP_SEEN;
			cwnd -= fa_min_u32(cut, cwnd);
			if (k == FA_LOSS_MARK) {
				s->ramp_cap = fa_max_u32(cwnd, FA_CWND_MIN);
				s->flags |= FA_F_CAP_SEEN;
			}
		}
		s->flags |= FA_F_CUT;
		s->target_cwnd = fa_clamp_u32(cwnd, FA_CWND_MIN, FA_CWND_MAX);
	} else {
		fa_cycle_reset(s);
		s->target_cwnd = fa_max_u32(cwnd >> 1, FA_CWND_MIN);
		s->ramp_cap = (u32)div_u64((u64)cwnd * FA_RAMP_CAP_NUM,
					   FA_RAMP_CAP_DEN);
		s->ramp_cap = fa_max_u32(s->ramp_cap, s->target_cwnd);
		/*
		 * overshoot: an overflow's cap holds for two route windows; a
		 * doubling's loss found up to twice the window that fit, which
		 * is the half it keeps: no ramp past that.
		 */
		if (p->overshoot)
			s->flags |= FA_F_CAP_SEEN;
		if (dbl)
			s->ramp_cap = s->target_cwnd;
	}
	/*
	 * Never above the host's window: a loss found during a probe (window
	 * FA_CWND_MIN, the old flight still out) would otherwise hand Linux's
	 * PRR an ssthresh far above the window it reduces from, and PRR sends
	 * ssthresh / cwnd packets per packet delivered (VM, 0.5 % loss: the
	 * window went 2 -> 12533 in 80 ms, 1500 packets lost).  The law's
	 * target keeps the window it wants; the flow grows back to it per ACK.
	 */
	return fa_min_u32(s->target_cwnd, host);
}

/* The loss was spurious: give back the window it took. */
static inline u32 fa_undo(struct fa_state *s, u32 cwnd)
{
	u32 w = fa_max_u32(cwnd, s->prior_cwnd);

	s->target_cwnd = w;
	return w;
}

#endif /* _FA_LAW_H */
