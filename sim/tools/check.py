#!/usr/bin/env python3
"""make check: a shortened Exp 1 (3 flows, 96 Mb/s, alpha = 200, 8 s) with
assertions, for the paper's rules (every post-paper mode off), the module
defaults and classic FAST, plus a leave test and a test that the law can
lower the window below the slow-start ssthresh.  Prints one line per
assertion and 'N passed, N failed'; exits non-zero on any failure."""
import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import analyze  # noqa: E402
from run_all import MODES_OFF, fa_args, header_switches  # noqa: E402  (the post-paper modes and their off values)

ALPHA = 200
BASE = ["--rate=96", "--n=3", "--rtt=50", "--bufBdp=2", "--pacing=1", "--seed=1",
        "--start=0,0.001,0.002", "--time=8", "--cc=fast", "--alpha_pkts=%d" % ALPHA]
RUNS = {
    # the paper's two rules, every post-paper mode off
    "both": BASE + ["--adaptive_gain=1", "--adaptive_ss=1"] + fa_args(MODES_OFF),
    # the module defaults: nothing but alpha set
    "defaults": list(BASE),
    "classic": BASE + ["--adaptive_gain=0", "--adaptive_ss=0", "--gamma_fixed=512",
                       "--ss_delay_us=750"] + fa_args(MODES_OFF),
    # the law must be able to lower the window below the ssthresh that slow
    # start left (ss_exit_pkts > alpha): the queue settles at 2 alpha
    "lower": ["--rate=96", "--n=2", "--rtt=50", "--bufBdp=2", "--pacing=1", "--seed=1",
              "--start=0,0.001", "--time=5", "--cc=fast", "--alpha_pkts=20", "--ss_exit_pkts=40"],
    # alpha = 20: a queue below base/4, so no route-change probe in the window
    "leave": ["--rate=96", "--n=2", "--rtt=50", "--bufBdp=2", "--pacing=1", "--seed=1",
              "--start=0,0.001", "--stop=-1,3", "--time=6", "--cc=fast", "--alpha_pkts=20"],
}

passed = failed = todo = 0


def check(name, ok, detail):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
    print("%s: %s (%s)" % ("PASS" if ok else "FAIL", name, detail), flush=True)


def known_unmet(name, ok, detail, why):
    """A bar known to be unmet: measured and printed, not counted as a
    failure (TODO), until the law meets it; then it goes back to check()."""
    global passed, todo
    if ok:
        passed += 1
        print("PASS: %s (%s)" % (name, detail), flush=True)
        return
    todo += 1
    print("TODO: %s (%s) # known unmet: %s" % (name, detail, why), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(HERE), "build", "fa-sim"))
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="fa-check-")
    res = {}
    for name, args in RUNS.items():
        t0 = time.time()
        prefix = os.path.join(tmp, name)
        r = subprocess.run([a.bin] + args + ["--out=" + prefix], stdout=subprocess.DEVNULL)
        check("%s: fa-sim runs" % name, r.returncode == 0, "exit %d, %.1f s" % (r.returncode, time.time() - t0))
        if r.returncode == 0:
            res[name] = analyze.analyze(prefix)

    if "both" in res:
        r = res["both"]
        ph = r["phases"][0]
        m = r["meta"]
        rules = [f["ss_exit_rule"] for f in m["flows"]]
        check("adaptive: every flow leaves slow start on its own backlog", rules == [1, 1, 1],
              "rules %s (1 backlog, 2 delay, 3 loss)" % rules)
        check("adaptive: the law runs", all(f["updates"] > 10 for f in m["flows"]),
              "updates %s" % [f["updates"] for f in m["flows"]])
        conv = ph["conv_s"]
        check("adaptive: converges to +-10 % of fair share within 2 s", conv is not None and conv <= 2.0,
              "%s s" % analyze.fmt(conv, 2))
        # Exp 1's equilibrium queue (3 alpha / C = 52 ms) is above base/4 (12.5 ms): the law's
        # base-RTT probes (a few rounds at a small window) run inside the steady window here,
        # so the bounds are looser than Exp 2's bars (overshoot 6 %, utilisation 98 %), which
        # RESULTS.md checks at 960 Mb/s.
        check("adaptive: overshoot <= 10 %", ph["overshoot_pct"] is not None and ph["overshoot_pct"] <= 10.0,
              "%s %%" % analyze.fmt(ph["overshoot_pct"]))
        check("adaptive: steady utilisation >= 93 % (base-RTT probes included)", ph["util_pct"][0] >= 93.0,
              "%.1f %%" % ph["util_pct"][0])
        q, tgt = ph["queue_pkts"][0], 3 * ALPHA
        check("adaptive: steady queue within 10 % of 3 alpha", abs(q - tgt) <= 0.1 * tgt,
              "%.0f packets vs %d" % (q, tgt))
        qd, qd_t = ph["qdelay_mean_ms"][0], 3 * ALPHA * m["wire_bytes"] * 8 / m["rate_bps"] * 1e3
        check("adaptive: steady queueing delay within 10 % of 3 alpha / C", abs(qd - qd_t) <= 0.1 * qd_t,
              "%.2f ms vs %.2f" % (qd, qd_t))
        check("adaptive: Jain index >= 0.99", ph["jain"] >= 0.99, "%.4f" % ph["jain"])
        check("adaptive: no drops in a 2-BDP buffer", r["drops"][0] == 0, "%d" % r["drops"][0])
    if "defaults" in res:
        r = res["defaults"]
        ph = r["phases"][0]
        m = r["meta"]
        rules = [f["ss_exit_rule"] for f in m["flows"]]
        check("defaults: every flow leaves slow start on its own backlog", rules == [1, 1, 1],
              "rules %s (1 backlog, 2 delay, 3 loss)" % rules)
        check("defaults: the law runs", all(f["updates"] > 10 for f in m["flows"]),
              "updates %s" % [f["updates"] for f in m["flows"]])
        conv = ph["conv_s"]
        check("defaults: converges to +-10 % of fair share within 2 s", conv is not None and conv <= 2.0,
              "%s s" % analyze.fmt(conv, 2))
        check("defaults: steady utilisation >= 93 %", ph["util_pct"][0] >= 93.0, "%.1f %%" % ph["util_pct"][0])
        q, tgt = ph["queue_pkts"][0], 3 * ALPHA
        check("defaults: steady queue within 10 % of 3 alpha", abs(q - tgt) <= 0.1 * tgt,
              "%.0f packets vs %d" % (q, tgt))
        check("defaults: Jain index >= 0.99", ph["jain"] >= 0.99, "%.4f" % ph["jain"])
        # Counted since 4750bfb (before, fa-sim's drop trace never connected
        # and every count read 0): at 6.8 s the three flows' probes adopt a
        # 102 ms base (the 2-packet windows' paced samples arrive late) and
        # the ramp that followed overfilled the buffer (265 drops): ns-3 timed
        # the probe's last ACK from its oldest segment; the model now times
        # the newest, as Linux (sim/README.md, "RTT samples").
        check("defaults: no drops in a 2-BDP buffer", r["drops"][0] == 0, "%d" % r["drops"][0])
        # not asserted: issue 11's overshoot bar (6 %) is judged in RESULTS.md on the 10 s runs
        print("INFO: defaults: overshoot %s %% (not asserted; RESULTS.md, bars of issue 11)"
              % analyze.fmt(ph["overshoot_pct"]), flush=True)
    if "classic" in res:
        r = res["classic"]
        ph = r["phases"][0]
        rules = [f["ss_exit_rule"] for f in r["meta"]["flows"]]
        check("classic: slow start ends on the 0.75 ms delay rule", rules == [2, 2, 2], "rules %s" % rules)
        check("classic: steady utilisation >= 93 %", ph["util_pct"][0] >= 93.0, "%.1f %%" % ph["util_pct"][0])
        check("classic: Jain index >= 0.95", ph["jain"] >= 0.95, "%.4f" % ph["jain"])
    if "lower" in res:
        ph = res["lower"]["phases"][0]
        q = ph["queue_pkts"][0]
        check("ss_exit_pkts = 2 alpha: the law brings the queue down to 2 alpha (ssthresh follows the law)",
              abs(q - 40) <= 4, "%.1f packets vs 40" % q)
    if "leave" in res:
        r = res["leave"]
        s = r["series"]
        late = [j for j, t in enumerate(s["t"]) if t >= 4.0]
        gone = sum(1 for j in late if s["rate"][1][j] > 0.001)
        check("leave: a stopped flow sends nothing 1 s after its stop", gone == 0, "%d samples > 0" % gone)
        ph = r["phases"][-1]
        check("leave: the remaining flow takes the link (util >= 95 %)", ph["util_pct"][0] >= 95.0,
              "%.1f %%" % ph["util_pct"][0])
    # The ablation and the classic rows switch off every post-paper mechanism
    # run_all.py's MODES_OFF names; a mechanism added to fa_params.h but not
    # there would stay on in "FAST classic" and have no ablation row.  The
    # paper's own two rules (adaptive_gain, adaptive_ss) are set by CLASSIC,
    # pacing by each scenario.
    mechanisms = header_switches() - {"adaptive_gain", "adaptive_ss", "pacing"}
    missing = sorted(mechanisms - set(MODES_OFF))
    check("run_all.py's MODES_OFF names every on/off mechanism of fa_params.h (%d)" % len(mechanisms),
          not missing, "missing: %s" % (", ".join(missing) or "none"))
    if todo:
        print("# %d known unmet (TODO), not counted" % todo)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
