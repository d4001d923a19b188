#!/usr/bin/env python3
"""Run every experiment of sim/ and write RESULTS.md and plots/*.png.

    python3 tools/run_all.py [--bin build/fa-sim] [-j 2] [--only exp2,exp7]
                             [--no-report] [--list] [--section coexist]

Runs are cached in out/<exp>/<variant>.{csv,meta.json}: a run whose command
line is unchanged (and whose binary is older than its output) is not run
again.  RESULTS.md is generated from those files, never edited by hand.
"""
import argparse
import concurrent.futures as cf
import datetime
import json
import os
import re
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SIM = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import analyze  # noqa: E402

SEED = 1
RTT_MS = 50          # propagation RTT of every flow (the VM tests' 50 ms)
BUF_BDP = 2          # drop-tail buffer, in BDPs (as the VM tests)
PARAMS_H = os.path.join(SIM, "..", "include", "fast_adaptive", "fa_params.h")


def header_params(path=PARAMS_H):
    """{name: (default, help)} of every tunable, from fa_params.h's
    '#define FA_<NAME>_DEFAULT <n>' and FA_<NAME>_HELP lines"""
    text = open(path).read()
    helps = dict((k.lower(), h) for k, h in
                 re.findall(r'^#define\s+FA_([A-Z0-9_]+)_HELP\s*\\?\s*"([^"]*)"', text, re.M))
    return dict((k.lower(), (int(v), helps.get(k.lower(), ""))) for k, v in
                re.findall(r"^#define\s+FA_([A-Z0-9_]+)_DEFAULT\s+(\d+)\s*$", text, re.M))


def header_switches(path=PARAMS_H):
    """the on/off tunables of fa_params.h: '#define FA_<NAME>_MAX 1'"""
    return set(k.lower() for k in
               re.findall(r"^#define\s+FA_([A-Z0-9_]+)_MAX\s+1\s*$", open(path).read(), re.M))


PARAMS = header_params()
DEFAULTS = dict((k, d) for k, (d, _h) in PARAMS.items())

# Post-paper mechanisms of the law: each a tunable of fa_params.h, here with
# the value that switches it off.  Classic FAST and the paper's rules (ss,
# gain, both) run with all of them off, 'both_hdr' with all at the module's
# defaults, 'hdr_no_<mode>' with that one off.  A new mode is one entry here
# (a mode fa_params.h does not have is skipped, so the list may run ahead of
# the header).  The law's 'pacing' is not one: each experiment sets pacing
# for every flow (see UNPACED).
MODES_OFF = {
    "ramp": 0,          # below equilibrium re-enter slow start (0: linear approach)
    "own_queue": 0,     # route test allows the flow's own queue (0: base/4 only)
    "route_rounds": 0,  # route-test window also ends after N rounds (0: base_win_ms only)
    "quick_probe": 0,   # once-per-flow probe right after slow start (0: 3 updates later)
    "drain_check": 0,   # cuts the RTT does not follow probe the path (0: route window only)
    "jitter_us": 0,     # sub-ms paths read RTTs against jitter_us (0: against the base)
    "short_probe": 0,   # a base-RTT probe lasts one round (0: two rounds)
    "shorter_path": 0,  # a sample base/4 below the base re-arms the probe (0: off)
    "random_loss": 0,   # a loss with the backlog near empty is not a halving (0: every loss halves)
    "queue_fit": 0,     # a loss or mark on a small backlog fits alpha to the queue the path holds (0: off)
    "compete": 0,       # buffer-filling cross traffic (issue 13): competitive mode (0: off)
    "overshoot": 0,     # a loss ending a doubling on a standing queue halves, caps ramps (0: off)
    "compete_moves": 0, # a base falling below an adopted longer path is evidence for compete (0: off)
    "compete_trend": 0, # a deep queue rising window after window is evidence for compete (0: off)
    "compete_start": 0, # competing starts with a slow start to a loss (0: to twice the window)
    "compete_rise": 0,  # a drain above the longer path the last drain adopted is evidence (0: off)
    "early_restore": 0, # a probe restores once the old flight is acked (0: at its packet's ACK)
    "fit_hold": 0,      # a fitted alpha regrows after two windows without a fit (0: every window)
    "fit_low": 0,       # a fit may lower alpha below alpha/4, to 3/16 alpha (0: not below alpha/4)
    "fit_noise": 0,     # a loss fits alpha only on a backlog of cwnd/16 or more (0: alpha/4 only)
    "restore_pace": 0,  # the window a probe gives back is paced until in flight (0: one burst)
    "ramp_double": 0,   # a ramp an update starts stops at twice its window (0: the exit rule only)
    "probe_mean": 0,    # the quick probe reads the last round's mean RTT (0: its minimum)
    "path_settle": 0,   # a shorter path's probe waits one update, once more after a loss (0: at once)
    "probe_pause": 0,   # the quick probe pauses for its backlog + 2 alpha first (0: drains at once)
    "ramp_scatter": 0,  # the ramp line allows RTT scatter, alpha/4 + w/128 at most alpha/2 (0: alpha/4)
    "compete_refill": 0,  # a competing exit test that reads w < 3/4 of others' slow starts to a loss (0: off)
    "compete_keep": 0,  # a route window that asks for a drain on evidence renews it (0: off)
    "join_reprobe": 0,  # a once-per-flow probe that lowered the base probes once more two updates later (0: off)
    "fit_regrow": 0,  # a fitted alpha regrows one packet per update once no fit holds the cap (0: per route window)
    "compete_recheck": 0,  # on an adopted longer path, a window floor/8 above it drains for compete_rise (0: off)
    "compete_adopt": 0,  # competing, flat exit tests adopt a longer path only across a loss (0: four adopt)
    "compete_quit": 0,  # competing, a round minimum under half the route window's highest tests at once (0: off)
}
MODES_OFF = dict((m, v) for m, v in MODES_OFF.items() if m in DEFAULTS)
MODES_DEFAULT = dict((m, DEFAULTS[m]) for m in MODES_OFF)

# Classic FAST as published: fixed gain 0.5, slow start ends at 0.75 ms of
# queueing delay, an update every other RTT, no post-paper mechanism.
CLASSIC = dict({"adaptive_gain": 0, "adaptive_ss": 0, "gamma_fixed": 512,
                "ss_delay_us": 750, "update_rtts": 2}, **MODES_OFF)
# Tuned tunables of the adaptive law (see the tuning section of RESULTS.md).
# 'both' sets ss_exit_pkts to SS_EXIT_MULT x alpha per experiment (the fixed
# exit backlog the tuning chose); 'both_hdr' runs the module's defaults, whose
# ss_exit_pkts = 0 is the auto rule (cwnd/4 within [alpha/2, 3 alpha]).
TUNED = {"gamma_min": 256, "gamma_max": 768, "gain_k": 2048, "update_rtts": 2}
SS_EXIT_MULT = 3
HDR = {"gamma_min": 256, "gamma_max": 768, "gain_k": 2048, "ss_exit_pkts": 0, "update_rtts": 2}
# the module defaults: the explicit values above and every mode at fa_params.h's default
HDR_ALL = dict(CLASSIC)
HDR_ALL.update(adaptive_gain=1, adaptive_ss=1, **HDR)
HDR_ALL.update(MODES_DEFAULT)


def on_off(modes):
    if all(v != MODES_OFF[m] for m, v in modes.items()):
        return "every post-paper mode on"
    return ", ".join("%s %s" % (m, "off" if v == MODES_OFF[m] else "on" if v == 1 else v)
                     for m, v in sorted(modes.items()))


FAST_VARIANTS = [
    ("classic", "FAST classic", dict(CLASSIC)),
    ("ss", "adaptive ss only", dict(CLASSIC, adaptive_ss=1, **TUNED)),
    ("gain", "adaptive gain only", dict(CLASSIC, adaptive_gain=1, **TUNED)),
    ("both", "adaptive ss + gain, ss_exit 3 alpha",
     dict(CLASSIC, adaptive_gain=1, adaptive_ss=1, **TUNED)),
    ("both_hdr", "module defaults (adaptive ss + gain, ss_exit auto, %s)" % on_off(MODES_DEFAULT),
     dict(HDR_ALL)),
]
# the ablation: the module defaults with one post-paper mode off (none where
# the module's default already is off)
FAST_VARIANTS += [("hdr_no_" + m, "module defaults, %s off" % m, dict(HDR_ALL, **{m: off}))
                  for m, off in MODES_OFF.items() if MODES_DEFAULT[m] != off]
NO_MODES = tuple(k for k, _l, _a in FAST_VARIANTS if k.startswith("hdr_no_"))
# At 960 Mb/s a run takes 2.5-6.5 min: the per-mode ablation runs there only
# when FA_SIM_ABLATE_960=1 (the 96 Mb/s experiments always carry it).
NO_MODES_960 = NO_MODES if os.environ.get("FA_SIM_ABLATE_960") == "1" else ()
OTHERS = [("vegas", "ns-3 TcpVegas"), ("cubic", "ns-3 TcpCubic"),
          ("bbr", "ns-3 TcpBbr"), ("newreno", "ns-3 TcpNewReno")]
LABEL = dict([(k, l) for k, l, _ in FAST_VARIANTS] + OTHERS)
# fa-sim option of a tunable whose name a scenario option already has
CLI_NAME = {"pacing": "fa_pacing"}


# tunables of fa_params.h that every variant leaves at their defaults (or the
# experiment sets): neither the paper's rules nor post-paper modes
NOT_MODES = ("alpha_pkts", "base_win_ms", "pacing")


def check_defaults():
    """warn where 'module defaults' would not be fa_params.h's defaults, and
    of tunables this file does not know (a new mode belongs in MODES_OFF,
    or classic and the paper's rules run it at its default)"""
    for k, v in sorted(HDR_ALL.items()):
        if DEFAULTS.get(k, v) != v:
            print("run_all.py: warning: both_hdr runs %s = %d, fa_params.h's default is %d: "
                  "update HDR" % (k, v, DEFAULTS[k]), file=sys.stderr)
    for k in sorted(set(DEFAULTS) - set(HDR_ALL) - set(NOT_MODES)):
        print("run_all.py: warning: fa_params.h has tunable %s (default %d) that run_all.py does not "
              "set: if it switches a post-paper mechanism, add it to MODES_OFF" % (k, DEFAULTS[k]),
              file=sys.stderr)


def fa_args(attrs):
    return ["--%s=%d" % (CLI_NAME.get(k, k), v) for k, v in sorted(attrs.items())]


def with_exit(attrs, alpha):
    if attrs.get("adaptive_ss") and "ss_exit_pkts" not in attrs:
        attrs = dict(attrs, ss_exit_pkts=SS_EXIT_MULT * alpha)
    return attrs


def runs_for(exp, base, variants, alpha, others=("vegas", "cubic", "bbr", "newreno"), oracle=()):
    out = []
    for key, _label, attrs in FAST_VARIANTS:
        attrs = with_exit(attrs, alpha)
        if key in variants:
            out.append((exp, key, base + ["--cc=fast", "--alpha_pkts=%d" % alpha] + fa_args(attrs)))
    for key, _label, attrs in FAST_VARIANTS:
        attrs = with_exit(attrs, alpha)
        if key in oracle:
            out.append((exp, key + "_oracle", base + ["--cc=fast", "--alpha_pkts=%d" % alpha, "--oracleBase=1"]
                        + fa_args(attrs)))
    for key in others:
        out.append((exp, key, base + ["--cc=" + key, "--alpha_pkts=%d" % alpha]))
    return out


ALLV = ("classic", "ss", "gain", "both")
ALLH = ALLV + ("both_hdr",)
# the unpaced sets: classic, the paper's rules, the module defaults and its ablation
UNPV = ("classic", "both", "both_hdr")
COMMON = ["--rtt=%d" % RTT_MS, "--bufBdp=%g" % BUF_BDP, "--pacing=1", "--seed=%d" % SEED]
# no pacing for any flow: ns-3's pacing off and the law's pacing tunable 0
# (which would turn pacing on for fast_adaptive sockets, as the module does)
UNPACED = ["--pacing=0", "--fa_pacing=0"]
COMMON_U = [x for x in COMMON if x != "--pacing=1"] + UNPACED
STARTS3 = "--start=0,0.001,0.002"
EXP1 = ["--rate=96", "--n=3", STARTS3, "--time=10"]
EXP2 = ["--rate=960", "--n=3", STARTS3, "--time=10"]
EXP7 = ["--rate=960", "--n=3", "--start=0,0.001,5", "--stop=-1,10,-1", "--time=15"]
UNPACED_DESC = ("%s with no pacing for any flow (`%s`: ns-3's pacing off and the law's `pacing` tunable 0, "
                "so the 'module defaults' rows here have pacing 0 whatever fa_params.h's default; "
                "ns-3's TcpBbr paces regardless).  Every experiment not marked unpaced paces every flow.")

# exp: (title, description, runs)
EXPERIMENTS = {}


def define():
    check_defaults()
    E = EXPERIMENTS
    E["exp1"] = ("Exp 1: 3 flows, 96 Mb/s, alpha = 200",
                 "Three flows start together (1 ms apart) on a 96 Mb/s bottleneck; 10 s.",
                 runs_for("exp1", COMMON + EXP1, ALLH + NO_MODES, 200))
    E["exp1u"] = ("Exp 1 unpaced: 3 flows, 96 Mb/s, alpha = 200, no pacing",
                  UNPACED_DESC % ("Exp 1", " ".join(UNPACED)),
                  runs_for("exp1u", COMMON_U + EXP1, UNPV + NO_MODES, 200))
    E["exp2"] = ("Exp 2: 3 flows, 960 Mb/s, alpha = 200",
                 "As Exp 1 at 960 Mb/s; 10 s.  FAST variants only at 960 Mb/s (a run takes 2.5-6.5 min on a "
                 "quiet 2-core host, 15-40 min on a loaded one); the full set, ns-3's controls included, "
                 "is in the scaled experiment 'Exp 2/7 scaled' below.  Loss-based controls at 960 Mb/s "
                 "would take hours (DESIGN.md 8).",
                 runs_for("exp2", COMMON + EXP2, ("classic", "ss", "both", "both_hdr") + NO_MODES_960, 200,
                          others=()))
    E["exp2u"] = ("Exp 2 unpaced: 3 flows, 960 Mb/s, alpha = 200, no pacing",
                  UNPACED_DESC % ("Exp 2", " ".join(UNPACED)),
                  runs_for("exp2u", COMMON_U + EXP2, UNPV + NO_MODES_960, 200, others=()))
    E["exp7"] = ("Exp 7: join and leave, 960 Mb/s, alpha = 200",
                 "Flows 1-2 from 0 s, flow 3 joins at 5 s, flow 2 leaves at 10 s, end at 15 s: the "
                 "paper's 100/200/300 s timeline shortened 20x for wall time (each phase still lasts "
                 "5 s, 2.5 times the 2 s bar; 'steady' = its last 2.5 s).  Classic, both rules (ss_exit 3 "
                 "alpha), the module defaults and their ablation only at 960 Mb/s; every variant and "
                 "control: 'Exp 2/7 scaled' and 'Exp 7 at 96 Mb/s'.",
                 runs_for("exp7", COMMON + EXP7, ("classic", "both", "both_hdr") + NO_MODES_960, 200,
                          others=(), oracle=("both",)))
    E["exp7u"] = ("Exp 7 unpaced: join and leave, 960 Mb/s, alpha = 200, no pacing",
                  UNPACED_DESC % ("Exp 7", " ".join(UNPACED)),
                  runs_for("exp7u", COMMON_U + EXP7, UNPV + NO_MODES_960, 200, others=()))
    E["exp3"] = ("Exp 3: 3 flows, 960 Mb/s, alpha = 2000",
                 "As Exp 2 with alpha = 2000 (equilibrium queue 3 alpha = 6000 packets, 52 ms); 10 s; "
                 "classic and both rules only (wall time).  In scaled terms (BDP / alpha = 2.9) this "
                 "is Exp 1.",
                 runs_for("exp3", COMMON + EXP2, ("classic", "both", "both_hdr"), 2000, others=()))
    E["exp7x"] = ("Exp 2/7 scaled: 96 Mb/s, alpha = 20 (every variant and control)",
                  "Exp 7's timeline (join at 10 s, leave at 20 s, end 30 s) at 96 Mb/s with alpha = 20: "
                  "the same BDP / alpha (28.8) and equilibrium queueing delay (3 alpha / C = 5.2 ms) as "
                  "Exp 2 and Exp 7 at 960 Mb/s, every packet count divided by 10; its first phase is "
                  "Exp 2 with two flows.  Cheap enough for every variant and control.",
                  runs_for("exp7x", COMMON + ["--rate=96", "--n=3", "--start=0,0.001,10",
                                              "--stop=-1,20,-1", "--time=30"], ALLH + NO_MODES, 20,
                           oracle=("classic", "both")))
    E["exp7s"] = ("Exp 7 at 96 Mb/s (all controls), alpha = 200",
                  "Exp 7's shortened timeline (join at 10 s, leave at 20 s, end 30 s) at 96 Mb/s, "
                  "where the loss-based controls are cheap to simulate.",
                  runs_for("exp7s", COMMON + ["--rate=96", "--n=3", "--start=0,0.001,10",
                                              "--stop=-1,20,-1", "--time=30"], ALLH, 200,
                           oracle=("both",)))
    E["park"] = ("Parking lot: two 96 Mb/s links, alpha = 200",
                 "Flow 1 crosses both links, flow 2 only the first, flow 3 only the second; all "
                 "start at 0 s; 20 s.  FAST's equilibrium is proportionally fair: long flow C/3, "
                 "short flows 2C/3; 'share' and convergence use that allocation for every control.",
                 runs_for("park", COMMON + ["--topo=parkinglot", "--rate=96", STARTS3, "--time=20"],
                          ("classic", "both"), 200))
    E["loss"] = ("Random loss 0.01 %, 96 Mb/s, alpha = 200",
                 "Exp 1 with 0.01 % random loss of data packets at the bottleneck; 20 s.",
                 runs_for("loss", COMMON + ["--rate=96", "--n=3", STARTS3, "--time=20",
                                            "--loss=0.0001"], ("classic", "both"), 200))
    E["losssweep"] = ("Loss sweep: 1 flow, 50 Mb/s, 50 ms, 2 BDP, random loss 0.1-2 %",
                      LOSS_DESC, losssweep_runs())
    E["coexist"] = ("Coexistence: fast_adaptive next to cubic and newreno, 96 Mb/s, 50 ms, 2 BDP",
                    COEX_DESC, coexist_runs())


# ---- the loss sweep (issue 12): the bench's loss path (tools/bench: 50 Mbit/s,
# 50 ms, 2-BDP drop-tail buffer, one flow) at four random-loss rates, every
# control, fast_adaptive at the module defaults (alpha too) and with its
# random-loss rule off; LOSS_RUNS ns-3 runs (RNG run numbers) per point, the
# tables give medians.  120 runs, ~80 s wall with -j 2 on this 2-core host.
LOSS_RATES = (0.001, 0.005, 0.01, 0.02)
LOSS_RUNS = (1, 2, 3, 4, 5)
LOSS_TIME = 20
LOSS_BASE = ["--rtt=%d" % RTT_MS, "--bufBdp=%g" % BUF_BDP, "--pacing=1", "--seed=%d" % SEED,
             "--rate=50", "--n=1", "--time=%d" % LOSS_TIME]
LOSS_FAST = ("both_hdr", "hdr_no_queue_fit", "hdr_no_random_loss")   # a variant FAST_VARIANTS lacks is skipped
LOSS_OTHERS = ("bbr", "cubic", "vegas", "newreno")
LOSS_DESC = ("The bench's loss path (tools/bench: 50 Mb/s bottleneck, 50 ms RTT, 2-BDP drop-tail buffer, "
             "one flow from t = 0, here %d s) with random loss of data packets at the bottleneck, "
             "%s; every flow paced as elsewhere.  fast_adaptive at the module defaults (alpha = %d "
             "packets, fa_params.h's) and with queue_fit off and with the random-loss rule off (`random_loss=0`: every "
             "loss halves, as FAST); ns-3's TcpBbr, TcpCubic, TcpVegas, TcpNewReno.  Each point is "
             "the median of %d runs (ns-3 RNG runs %s: the loss pattern is the only random element)."
             % (LOSS_TIME, ", ".join("%g %%" % (100 * x) for x in LOSS_RATES), DEFAULTS.get("alpha_pkts", 20),
                len(LOSS_RUNS), ", ".join(str(r) for r in LOSS_RUNS)))


def loss_var(key, loss, run):
    return "%s_l%g_r%d" % (key, 100 * loss, run)


def losssweep_runs():
    """(exp, var, args) for every algorithm, loss rate and run; var =
    <algorithm>_l<loss %>_r<run>"""
    out = []
    alpha = DEFAULTS.get("alpha_pkts", 20)
    for loss in LOSS_RATES:
        for run in LOSS_RUNS:
            base = LOSS_BASE + ["--loss=%g" % loss, "--run=%d" % run]
            for _e, key, args in runs_for("losssweep", base, LOSS_FAST, alpha, others=LOSS_OTHERS):
                out.append(("losssweep", loss_var(key, loss, run), args))
    return out


def losssweep_info():
    keys = [k for k, _l, _a in FAST_VARIANTS if k in LOSS_FAST] + list(LOSS_OTHERS)
    return dict(losses=LOSS_RATES, runs=LOSS_RUNS, keys=keys, time_s=LOSS_TIME,
                missing=[k for k in LOSS_FAST if k not in keys],
                grid=dict(((k, l, r), loss_var(k, l, r)) for k in keys for l in LOSS_RATES for r in LOSS_RUNS))


# ---- coexistence (issue 13): fast_adaptive next to loss-based flows on one
# dumbbell (fa-sim's per-flow --cc list), 1:1 and 2:2, with the competitive
# mode off as the ablation; references of one loss-based control against
# itself and vegas next to cubic.  Side A's flows are the first ones, side
# B's the rest.  Each row runs COEX_SCHED start schedules (fa-sim is
# deterministic without random loss: the schedule is what varies); the
# share is over the second half of the run.
COEX_RATE = 96
# 60 s: cubic's sawtooth at this BDP (K = 11 s) repeats a few times; one
# NewReno sawtooth takes ~860 RTTs, longer than the run, and with a 1 s head
# start cubic and newreno against themselves need more than 60 s to come near
# 50 % (FA_SIM_COEX_TIME=180 for a longer run)
COEX_TIME = int(os.environ.get("FA_SIM_COEX_TIME", "60"))
COEX_BASE = ["--rtt=%d" % RTT_MS, "--bufBdp=%g" % BUF_BDP, "--pacing=1", "--seed=%d" % SEED,
             "--rate=%d" % COEX_RATE, "--time=%d" % COEX_TIME]
# schedule: (key, start of side A, start of side B); a side's flows 1 ms apart
COEX_SCHED = (("t0", 0.0, 0.002), ("a1", 0.0, 1.0), ("b1", 1.0, 0.0))
COEX_SCHED_DESC = {"t0": "together", "a1": "side A 1 s first", "b1": "side B 1 s first"}
COEX_FAST = ("both_hdr", "hdr_no_compete")     # a variant FAST_VARIANTS lacks is reported absent
# (side A, side B, flows per side)
COEX_ROWS = ([(fa, b, n) for fa in COEX_FAST for b in ("cubic", "newreno") for n in (1, 2)]
             + [("cubic", "cubic", 1), ("newreno", "newreno", 1), ("vegas", "cubic", 1)])
COEX_BAR = (40.0, 60.0)     # issue 13: share per algorithm class, %
COEX_DESC = ("fast_adaptive next to ns-3's loss-based controls on one dumbbell: %d Mb/s bottleneck, %d ms "
             "propagation RTT, %g-BDP drop-tail buffer, %d s, every flow paced as elsewhere.  Side A "
             "(fast_adaptive at the module defaults, alpha = %d packets, or with `compete=0`, its competitive "
             "mode off: the ablation) against side B (ns-3 TcpCubic or TcpNewReno), 1:1 and 2:2; references: "
             "cubic next to cubic, newreno next to newreno, vegas next to cubic.  Each row runs %d start "
             "schedules (%s; a side's flows start 1 ms apart), the table gives the median and the range.  "
             "Share = a side's delivered packets / all delivered packets over the second half of the run "
             "(%g-%d s); utilisation = all delivered packets / capacity over the same half.  The references "
             "with a 1 s head start show how slowly loss-based flows converge among themselves at this BDP: "
             "one NewReno sawtooth (half of BDP + buffer, ~860 packets at one per RTT) lasts longer than the run."
             % (COEX_RATE, RTT_MS, BUF_BDP, COEX_TIME, DEFAULTS.get("alpha_pkts", 20), len(COEX_SCHED),
                ", ".join(COEX_SCHED_DESC[k] for k, _a, _b in COEX_SCHED), COEX_TIME / 2.0, COEX_TIME))


def coex_row(a, b, n):
    return "%s-%s_%dv%d" % (a, b, n, n)


def coex_var(a, b, n, sched):
    return "%s_%s" % (coex_row(a, b, n), sched)


def coexist_runs():
    """(exp, var, args) per row and schedule; var = <A>-<B>_<n>v<n>_<schedule>"""
    fast = dict((k, a) for k, _l, a in FAST_VARIANTS)
    alpha = DEFAULTS.get("alpha_pkts", 20)
    out = []
    for a, b, n in COEX_ROWS:
        if a in COEX_FAST and a not in fast:
            continue
        for sk, sa, sb in COEX_SCHED:
            starts = ["%g" % (sa + 0.001 * i) for i in range(n)] + ["%g" % (sb + 0.001 * i) for i in range(n)]
            cc = ["fast" if a in COEX_FAST else a] * n + [b] * n
            args = COEX_BASE + ["--n=%d" % (2 * n), "--cc=" + ",".join(cc), "--start=" + ",".join(starts),
                                "--alpha_pkts=%d" % alpha]
            if a in COEX_FAST:
                args += fa_args(with_exit(fast[a], alpha))
            out.append(("coexist", coex_var(a, b, n, sk), args))
    return out


def coexist_info():
    fast = set(k for k, _l, _a in FAST_VARIANTS)
    rows = [(a, b, n) for a, b, n in COEX_ROWS if a not in COEX_FAST or a in fast]
    return dict(rows=rows, sched=[k for k, _a, _b in COEX_SCHED], sched_desc=COEX_SCHED_DESC,
                fast=COEX_FAST, bar=COEX_BAR, time_s=COEX_TIME,
                missing=[(a, b, n) for a, b, n in COEX_ROWS if a in COEX_FAST and a not in fast],
                grid=dict(((a, b, n, s), coex_var(a, b, n, s)) for a, b, n in rows for s, _x, _y in COEX_SCHED),
                row=dict(((a, b, n), coex_row(a, b, n)) for a, b, n in rows))


# ---- tuning: the Exp 7 shape scaled to 96 Mb/s with alpha = 20, so that the
# equilibrium queue (3 alpha / C = 5.2 ms) is that of Exp 2 and Exp 7 at 960
TUNE_BASE = COMMON + ["--rate=96", "--n=3", "--start=0,0.001,5", "--stop=-1,10,-1",
                      "--time=15", "--cc=fast", "--alpha_pkts=20",
                      "--adaptive_gain=1", "--adaptive_ss=1", "--oracleBase=1"]


def tune_runs():
    grid = []
    base = dict(HDR, **MODES_DEFAULT)
    grid.append(("default", {}))
    for gmin in (64, 128, 384, 512):
        grid.append(("gamma_min=%d" % gmin, {"gamma_min": gmin}))
    for gmax in (512, 1024):
        grid.append(("gamma_max=%d" % gmax, {"gamma_max": gmax}))
    for k in (512, 1024, 4096, 8192):
        grid.append(("gain_k=%d" % k, {"gain_k": k}))
    for ssx in (5, 15, 20, 30, 40, 60):
        grid.append(("ss_exit_pkts=%d" % ssx, {"ss_exit_pkts": ssx}))
    grid.append(("ss_exit_pkts=80", {"ss_exit_pkts": 80}))
    grid.append(("ss_exit_pkts=60,gamma_max=1024,gain_k=4096",
                 {"ss_exit_pkts": 60, "gamma_max": 1024, "gain_k": 4096}))
    grid.append(("update_rtts=1", {"update_rtts": 1}))
    grid.append(("update_rtts=3", {"update_rtts": 3}))
    grid.append(("classic", None))
    runs = []
    for name, delta in grid:
        if delta is None:
            args = [a for a in TUNE_BASE if not a.startswith("--adaptive")] + fa_args(CLASSIC)
        else:
            args = TUNE_BASE + fa_args(dict(base, **delta))
        runs.append(("tune", name.replace("=", "_").replace(",", "+"), args))
    return runs


EXPERIMENTS_ORDER = ["exp1", "exp1u", "exp2", "exp2u", "exp3", "exp7", "exp7u", "exp7x", "park", "loss",
                     "losssweep", "coexist"]


def include_rev():
    """the last commit that touched include/fast_adaptive/ (the law and its
    tunables, all the model compiles of include/), '+ uncommitted changes' if
    it is dirty"""
    rev = subprocess.run(["git", "-C", SIM, "log", "-1", "--format=%h", "--", LAW_DIR],
                         capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", SIM, "status", "--porcelain", "--", LAW_DIR],
                           capture_output=True, text=True).stdout.strip()
    return rev + (" + uncommitted changes" if dirty else "")


def built_rev(binpath):
    """the law the binary was built from: <bin>.law, which the Makefile writes
    just before it compiles (None if absent, empty or not from this build)"""
    try:
        if abs(os.path.getmtime(binpath) - os.path.getmtime(binpath + ".law")) > 600:
            return None
        return open(binpath + ".law").read().strip() or None
    except OSError:
        return None


LAW_DIR = "../include/fast_adaptive"   # relative to sim/ (git -C SIM)
LAW_REV = None   # the binary's law (built_rev, else include_rev()), recorded in <run>.law


def change_args(prog, extra=None):
    """a trial of tunables changed (coexist_with.py, i11_with.py): parse one or
    more NAME=VALUE, -j and --bin (and extra(ap)'s options); returns (args, the
    changes as [(name, value)], the binary's absolute path), with LAW_REV set
    from that binary"""
    global LAW_REV
    ap = argparse.ArgumentParser(prog=prog)
    ap.add_argument("change", nargs="+", help="NAME=VALUE, a fa-sim option (several: all at once)")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--bin", default=os.path.join(SIM, "build", "fa-sim"))
    if extra:
        extra(ap)
    a = ap.parse_args()
    changes = []
    for c in a.change:
        if "=" not in c:
            sys.exit("%s: want NAME=VALUE, got %r" % (prog, c))
        changes.append(tuple(c.split("=", 1)))
    binpath = os.path.abspath(a.bin)
    LAW_REV = built_rev(binpath) or include_rev()
    return a, changes, binpath


def change_tag(changes):
    """the out/ directory suffix and the label of a set of changes"""
    return ("_".join("%s_%s" % c for c in changes),
            " ".join("%s=%s" % c for c in changes))


def with_change(prog, args, changes):
    """a run's command line with each --name set to its value (the run must set it)"""
    for name, val in changes:
        if not any(x.startswith("--%s=" % name) for x in args):
            sys.exit("%s: the runs have no --%s (a tunable of fa_params.h?)" % (prog, name))
        args = [x for x in args if not x.startswith("--%s=" % name)] + ["--%s=%s" % (name, val)]
    return args


def run_one(binpath, exp, var, args):
    d = os.path.join(SIM, "out", exp)
    os.makedirs(d, exist_ok=True)
    prefix = os.path.join(d, var)
    cmd = [binpath] + args + ["--out=" + prefix]
    argf = prefix + ".args"
    key = " ".join(shlex.quote(a) for a in args)
    if (os.path.exists(prefix + ".meta.json") and os.path.exists(argf)
            and open(argf).read() == key
            and os.path.getmtime(prefix + ".meta.json") > os.path.getmtime(binpath)):
        return prefix, 0.0, True
    t0 = time.time()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(argf, "w") as f:
        f.write(key)
    if LAW_REV is not None:
        with open(prefix + ".law", "w") as f:
            f.write(LAW_REV + "\n")
    return prefix, time.time() - t0, False


def binary_options(binpath):
    """the options fa-sim accepts (from --PrintHelp), None if it does not run"""
    try:
        txt = subprocess.run([binpath, "--PrintHelp"], capture_output=True, text=True).stdout
    except OSError:
        return None
    return set(re.findall(r"^\s+--([A-Za-z0-9_]+):", txt, re.M))


def runnable(binpath, runs):
    """the runs whose every option the binary knows; one line per option it
    lacks (a tunable fa_params.h has but the binary predates: rebuild)"""
    opts = binary_options(binpath)
    if not opts:
        return runs
    keep, lacks = [], {}
    for r in runs:
        miss = sorted(set(x[2:].split("=")[0] for x in r[2] if x.startswith("--")) - opts)
        if miss:
            for m in miss:
                lacks.setdefault(m, []).append("%s/%s" % (r[0], r[1]))
        else:
            keep.append(r)
    for m, rs in sorted(lacks.items()):
        print("run_all.py: %s has no --%s (built before the tunable? make): %d runs skipped (%s%s)"
              % (os.path.relpath(binpath), m, len(rs), ", ".join(rs[:3]), ", ..." if len(rs) > 3 else ""),
              file=sys.stderr)
    return keep


def run_many(binpath, runs, jobs):
    res = {}
    with cf.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = {ex.submit(run_one, binpath, e, v, a): (e, v) for e, v, a in runs}
        for fu in cf.as_completed(futs):
            e, v = futs[fu]
            prefix, wall, cached = fu.result()
            print("%-8s %-20s %s" % (e, v, "cached" if cached else "%.0f s" % wall), flush=True)
            res[(e, v)] = prefix
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(SIM, "build", "fa-sim"))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--no-report", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--law-rev", default="", help="commit of include/ the runs were built from "
                    "(default: the last commit that touched include/)")
    ap.add_argument("--runs", default="", help="exp/var,...: only these runs")
    ap.add_argument("--section", default="", help="exp: print that experiment's section of RESULTS.md "
                    "(and its bars, if it has any) to stdout and draw its plots; RESULTS.md is not written")
    ap.add_argument("--mark-done", default="", help="exp/var,...: record runs finished outside run_all")
    a = ap.parse_args()
    define()
    binpath = os.path.abspath(a.bin)
    groups = ["tune"] + EXPERIMENTS_ORDER
    if a.only:
        groups = [g for g in groups if g in a.only.split(",")]
    runs = []
    for g in groups:
        runs += tune_runs() if g == "tune" else EXPERIMENTS[g][2]
    if a.runs:
        runs = [r for r in runs if "%s/%s" % (r[0], r[1]) in a.runs.split(",")]
    if a.mark_done:
        for e, v, args in runs:
            if "%s/%s" % (e, v) in a.mark_done.split(","):
                with open(os.path.join(SIM, "out", e, v + ".args"), "w") as f:
                    f.write(" ".join(shlex.quote(x) for x in args))
                print("marked", e, v)
        return
    if a.list:
        for e, v, args in runs:
            print(e, v, " ".join(args))
        return
    global LAW_REV
    LAW_REV = built_rev(binpath)
    now = include_rev()
    if LAW_REV is None:
        LAW_REV = now
    elif LAW_REV != now:
        print("run_all.py: warning: %s was built from the law as of %s, include/fast_adaptive is now %s "
              "(make): the runs record the former" % (os.path.relpath(binpath), LAW_REV, now), file=sys.stderr)
    t0 = time.time()
    if a.report_only:
        runs = []
    # longest first, so that two workers finish together
    def cost(r):
        args = " ".join(r[2])
        c = 10.0 if "--rate=960" in args else 1.0
        for x in r[2]:
            if x.startswith("--time="):
                c *= float(x[7:])
        return -c
    runs.sort(key=cost)
    runs = runnable(binpath, runs)
    run_many(binpath, runs, a.j)
    wall = time.time() - t0
    print("runs done in %.0f s" % wall)
    if a.no_report and not a.section:
        return
    import report
    law_rev = a.law_rev or LAW_REV
    info = dict(seed=SEED, law_rev=law_rev, rtt_ms=RTT_MS, buf_bdp=BUF_BDP, classic=CLASSIC,
                tuned=dict(TUNED, ss_exit_pkts="%d x alpha" % SS_EXIT_MULT),
                header=dict(HDR, **MODES_DEFAULT), modes_off=MODES_OFF,
                mode_help=dict((m, PARAMS[m][1]) for m in MODES_OFF), unpaced=UNPACED,
                run_wall_s=wall, losssweep=losssweep_info(), coexist=coexist_info())
    if a.section:
        print("\n".join(report.section(SIM, EXPERIMENTS, a.section, LABEL, info)))
    else:
        report.write_all(SIM, EXPERIMENTS, EXPERIMENTS_ORDER, tune_runs(), LABEL, info)


if __name__ == "__main__":
    main()
