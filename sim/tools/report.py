#!/usr/bin/env python3
"""RESULTS.md and plots/*.png from the runs in out/ (called by run_all.py)."""
import datetime
import json
import os
import platform
import re
import subprocess

import analyze

fmt = analyze.fmt


def git_rev(sim):
    try:
        return subprocess.run(["git", "-C", sim, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True).stdout.strip()
    except OSError:
        return "?"


def ns3_version():
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "libns3-dev"], capture_output=True,
                             text=True).stdout.strip()
        return out or "?"
    except OSError:
        return "?"


def write_dat(r, path, max_points=1500):
    s = r["series"]
    n = len(s["t"])
    step = max(1, n // max_points)
    nf = len(s["rate"])
    nb = len(s["qdelay_ms"])
    with open(path, "w") as f:
        for j in range(0, n, step):
            f.write("%.3f %s %s\n" % (s["t"][j], " ".join("%.2f" % (100 * s["rate"][i][j]) for i in range(nf)),
                                      " ".join("%.3f" % s["qdelay_ms"][b][j] for b in range(nb))))
    return nf, nb


def plot(sim, exp, title, items, label):
    """items: [(var, result)] -> plots/<exp>.png, one panel per variant"""
    pdir = os.path.join(sim, "plots")
    os.makedirs(pdir, exist_ok=True)
    ddir = os.path.join(sim, "out", exp)
    cols = 2
    rows = (len(items) + cols - 1) // cols
    png = os.path.join(pdir, exp + ".png")
    g = ["set terminal pngcairo noenhanced size 1400,%d font 'Sans,9'" % (60 + 300 * rows),
         "set output '%s'" % png,
         "set multiplot layout %d,%d title '%s (rates: 0.5 s centred mean, %% of link; queueing delay on right axis)'"
         % (rows, cols, title.replace("'", "")),
         "set key top right horizontal font 'Sans,8'", "set grid", "set xlabel 's'",
         "set ylabel 'rate, % of C'", "set y2label 'queue delay, ms'", "set ytics nomirror",
         "set y2tics", "set yrange [0:*]", "set y2range [0:*]"]
    for var, r in items:
        dat = os.path.join(ddir, var + ".dat")
        nf, nb = write_dat(r, dat)
        g.append("set title '%s'" % label.get(var, var))
        parts = []
        for i in range(nf):
            parts.append("'%s' u 1:%d w l lw 1.2 t 'flow %d'" % (dat, 2 + i, i + 1))
        for b in range(nb):
            parts.append("'%s' u 1:%d axes x1y2 w l lw 0.8 lc rgb '#888888' t 'queue%s'"
                         % (dat, 2 + nf + b, "" if nb == 1 else " link %d" % (b + 1)))
        g.append("plot " + ", ".join(parts))
    g.append("unset multiplot")
    gp = os.path.join(ddir, "plot.gp")
    with open(gp, "w") as f:
        f.write("\n".join(g) + "\n")
    subprocess.run(["gnuplot", gp], check=False)
    return os.path.relpath(png, sim)


def ev_name(ph):
    return "%s %s @%gs" % (ph["event"], ",".join(str(i + 1) for i in ph["flows"]), ph["t0"])


def table(exp, results, label):
    """one row per variant"""
    if not results:
        return ["(no runs)"]
    phases0 = results[0][1]["phases"]
    evs = [ev_name(p) for p in phases0]
    multi = len(phases0) > 1
    L = []
    hdr = ["variant", "conv to fair share, s", "settle, s", "queue settle, s", "overshoot, %",
           "util steady / total, %", "queue steady, pkts (target)", "q delay mean / p95, ms",
           "Jain", "drops", "base RTT error at end, ms", "wall, s"]
    L.append("| " + " | ".join(hdr) + " |")
    L.append("|" + "---|" * len(hdr))
    for var, r in results:
        ph = r["phases"]
        j = " / "
        conv = j.join(fmt(p["conv_s"], 2) for p in ph)
        settle = j.join(fmt(p["settle_s"], 2) for p in ph)
        qconv = j.join(fmt(p["q_conv_s"], 2) for p in ph)
        over = j.join(fmt(p["overshoot_pct"], 1) for p in ph)
        util = "%s / %s" % (j.join(fmt(p["util_pct"][0], 1) for p in ph), fmt(r["util_total_pct"][0], 1))
        if len(r["util_total_pct"]) > 1:
            util = "link1 %s, link2 %s (steady); total %s, %s" % (
                fmt(ph[-1]["util_pct"][0], 1), fmt(ph[-1]["util_pct"][1], 1),
                fmt(r["util_total_pct"][0], 1), fmt(r["util_total_pct"][1], 1))
        q = j.join("%s (%s)" % (fmt(p["queue_pkts"][0], 0),
                                fmt(p["queue_target_pkts"], 0) if p["queue_target_pkts"] else "—") for p in ph)
        if len(ph[0]["queue_pkts"]) > 1:
            q = "link1 %s, link2 %s" % (fmt(ph[-1]["queue_pkts"][0], 0), fmt(ph[-1]["queue_pkts"][1], 0))
        qd = "%s / %s" % (fmt(r["qdelay_mean_ms"][0], 2), fmt(r["qdelay_p95_ms"][0], 2))
        if len(r["qdelay_mean_ms"]) > 1:
            qd = "link1 %s / %s, link2 %s / %s" % (fmt(r["qdelay_mean_ms"][0], 2), fmt(r["qdelay_p95_ms"][0], 2),
                                                  fmt(r["qdelay_mean_ms"][1], 2), fmt(r["qdelay_p95_ms"][1], 2))
        jain = j.join("%.3f" % p["jain"] for p in ph)
        drops = "+".join("%d" % d for d in r["drops"])
        berr = ", ".join("%.2f%s" % (v, " (%d up)" % r["base_up"][i] if r["base_up"].get(i) else "")
                         for i, v in sorted(r["base_err_ms"].items())) or "—"
        L.append("| " + " | ".join([label.get(var, var), conv, settle, qconv, over, util, q, qd, jain, drops,
                                    berr, "%.0f" % r["meta"]["wall_s"]]) + " |")
    if multi:
        L.append("")
        L.append("Columns with ' / ' list the phases in order: " + "; ".join(evs) + ".")
    rates = []
    for var, r in results:
        ph = r["phases"][-1]
        rates.append("%s: %s" % (label.get(var, var), ", ".join(
            "flow %d %.1f %%" % (i + 1, 100 * v) for i, v in sorted(ph["steady_rate"].items()))))
    L.append("")
    L.append("Steady rates in the last phase (% of link): " + "; ".join(rates) + ".")
    return L


def bar_line(name, ok, measured, why="", unmet="**not met**"):
    """ok None: not run"""
    return "| %s | %s | %s | %s |" % (name, measured, "—" if ok is None else "met" if ok else unmet, why)


# issue 11's ns-3 bars on the module defaults, each on a paced and an unpaced set
I11_SETS = (("exp1", "Exp 1"), ("exp1u", "Exp 1 unpaced"), ("exp2", "Exp 2"), ("exp2u", "Exp 2 unpaced"),
            ("exp7", "Exp 7"), ("exp7u", "Exp 7 unpaced"))


def i11_bars(exp):
    """[(bar, value of a result, test, unit, digits)] of one set"""
    def ph(k, key):
        return lambda r: r["phases"][k][key] if len(r["phases"]) > k else None
    if exp.startswith("exp7"):
        return [("re-convergence <= 1.0 s after the %s" % ev, ph(k, "conv_s"),
                 lambda v: v is not None and v <= 1.0, " s", 2) for k, ev in ((1, "join"), (2, "leave"))]
    bars = [("convergence <= 1.0 s", ph(0, "conv_s"), lambda v: v is not None and v <= 1.0, " s", 2),
            ("overshoot <= 6 %", ph(0, "overshoot_pct"), lambda v: v is not None and v <= 6, " %", 1),
            ("Jain >= 0.99", ph(0, "jain"), lambda v: v is not None and v >= 0.99, "", 3)]
    if exp.startswith("exp1"):
        bars.append(("steady utilisation >= 99 %", lambda r: r["phases"][0]["util_pct"][0],
                     lambda v: v >= 99, " %", 1))
    else:
        bars.append(("utilisation from t = 0 >= 97 %", lambda r: r["util_total_pct"][0],
                     lambda v: v >= 97, " %", 1))
    return bars


def val(v, nd, unit):
    return fmt(v, nd) + (unit if v is not None else "")


def issue11(res, label, modes):
    modes = [m for m in modes if "hdr_no_" + m in label]  # those with an ablation variant
    ablation = ["hdr_no_" + m for m in modes]
    context = ["classic"] + ablation
    short = dict([("classic", "classic"), ("both", "paper's two rules (ss_exit 3 alpha)"),
                  ("both_hdr", "module defaults (all on)")] + [("hdr_no_" + m, "%s off" % m) for m in modes])
    row = dict(short, **dict(("hdr_no_" + m, "module defaults, %s off" % m) for m in modes))
    L = ["## Bars of issue 11", "",
         "The module defaults ('%s' rows), each bar on the paced set and on the unpaced set "
         "(no pacing for any flow).  Note: the same metric for FAST classic and for the module defaults "
         "with one post-paper mechanism off ('X off', the rows '%s, X off'), for context." % (
             label.get("both_hdr", "both_hdr"), "module defaults"), "",
         "| bar | measured | verdict | note |", "|---|---|---|---|"]
    met = total = 0
    for exp, name in I11_SETS:
        r = res.get((exp, "both_hdr"))
        for bar, get, test, unit, nd in i11_bars(exp):
            total += 1
            v = get(r) if r else None
            ok = test(v) if r else None
            met += 1 if ok else 0
            note = "; ".join("%s %s" % (short[c], val(get(res[(exp, c)]), nd, unit)
                                        if (exp, c) in res else "not run") for c in context)
            L.append(bar_line("%s: %s" % (name, bar), ok, val(v, nd, unit) if r else "not run", note,
                              unmet="**UNMET**"))
    L += ["", "%d of %d bars met%s." % (met, total, "" if all((e, "both_hdr") in res for e, _n in I11_SETS)
                                        else " (some sets not run)"), ""]

    # the ablation: classic, the paper's two rules, each post-paper mode off, all on
    rows = ["classic", "both"] + ablation + ["both_hdr"]
    L += ["### Ablation", "",
          "Rows: FAST classic; the paper's two rules (ss_exit 3 alpha, every post-paper mechanism off); "
          "the module defaults with one post-paper mechanism off; the module defaults (every one on).  "
          "Exp 7 columns list the join / leave phases.", "",
          "| set | variant | conv, s | overshoot, % | util steady, % | util total, % |",
          "|---|---|---|---|---|---|"]
    for exp, name in I11_SETS:
        ks = (1, 2) if exp.startswith("exp7") else (0,)
        for var in rows:
            r = res.get((exp, var))
            if not r:
                continue
            ph = [r["phases"][k] for k in ks if k < len(r["phases"])]
            L.append("| %s | %s | %s | %s | %s | %s |" % (
                name, row[var], " / ".join(fmt(p["conv_s"], 2) for p in ph),
                " / ".join(fmt(p["overshoot_pct"], 1) for p in ph),
                " / ".join(fmt(p["util_pct"][0], 1) for p in ph), fmt(r["util_total_pct"][0], 1)))
    return L + [""]


# ---- the loss sweep (issue 12)
SWEEP_NAME = {"both_hdr": "fast_adaptive (module defaults)",
              "hdr_no_random_loss": "fast_adaptive, random_loss=0 (rule off: every loss halves)",
              "bbr": "bbr (ns-3 TcpBbr)", "cubic": "cubic (ns-3 TcpCubic)", "vegas": "vegas (ns-3 TcpVegas)",
              "newreno": "newreno (ns-3 TcpNewReno)"}
SWEEP_SHORT = {"both_hdr": "fast_adaptive", "hdr_no_random_loss": "fast_adaptive random_loss=0"}


def median(xs):
    s = sorted(xs)
    n = len(s)
    if not n:
        return None
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


STALL_S = 0.2   # 4 RTTs of the sweep's path: a gap this long is a retransmission timeout


def stalled_s(prefix, gap=STALL_S):
    """time spent in gaps longer than gap without a data packet at the
    receiver, from the first one on (raw 10 ms samples, every flow together):
    a sender whose window is open delivers every RTT, one waiting for a
    retransmission timeout does not"""
    meta, c = analyze.load(prefix)
    n = len(meta["flows"])
    tot = cur = 0
    seen = False
    for j in range(len(c["t"])):
        if sum(c["f%d_pkts" % i][j] for i in range(n)) > 0:
            if cur * meta["sample"] > gap:
                tot += cur
            seen = True
            cur = 0
        elif seen:
            cur += 1
    if cur * meta["sample"] > gap:
        tot += cur
    return tot * meta["sample"]


def law_of(prefix):
    try:
        return open(prefix + ".law").read().strip()
    except OSError:
        return None


def losssweep_stats(res, info):
    """{(key, loss): {goodput: [Mb/s per run], qdelay, drops, stall, law}}"""
    sw = info.get("losssweep")
    if not sw:
        return {}
    st = {}
    for key in sw["keys"]:
        for loss in sw["losses"]:
            d = {"goodput": [], "qdelay": [], "drops": [], "stall": [], "law": set()}
            for run in sw["runs"]:
                r = res.get(("losssweep", sw["grid"][(key, loss, run)]))
                if not r:
                    continue
                m = r["meta"]
                t = m["sim_time"] - min(f["start"] for f in m["flows"])
                d["goodput"].append(sum(f["rx_pkts"] for f in m["flows"]) * m["seg_bytes"] * 8 / t / 1e6)
                d["qdelay"].append(r["qdelay_mean_ms"][0])
                d["drops"].append(r["drops"][0])
                d["stall"].append(stalled_s(r["prefix"]))
                d["law"].add(law_of(r["prefix"]) or "?")
            if d["goodput"]:
                st[(key, loss)] = d
    return st


def ratio(st, key, other, loss, of=median):
    """median goodput of key / of(other's goodputs)"""
    a, b = st.get((key, loss)), st.get((other, loss))
    if not a or not b or not of(b["goodput"]):
        return None
    return median(a["goodput"]) / of(b["goodput"])


def lpct(loss):
    return "%g %%" % (100 * loss)


def losssweep_plot(sim, st, sw):
    pdir = os.path.join(sim, "plots")
    os.makedirs(pdir, exist_ok=True)
    ddir = os.path.join(sim, "out", "losssweep")
    png = os.path.join(pdir, "losssweep.png")
    parts_g, parts_q = [], []
    for n, key in enumerate(sw["keys"]):
        pts = [(l, st[(key, l)]) for l in sw["losses"] if (key, l) in st]
        # spread the algorithms a little along x so that their bars do not overlap
        dx = 1 + 0.025 * (n - (len(sw["keys"]) - 1) / 2.0)
        if not pts:
            continue
        dat = os.path.join(ddir, "sweep_%s.dat" % key)
        with open(dat, "w") as f:
            for l, d in pts:
                f.write("%g %.3f %.3f %.3f %.3f\n" % (100 * l * dx, median(d["goodput"]), min(d["goodput"]),
                                                      max(d["goodput"]), median(d["qdelay"])))
        name = SWEEP_NAME.get(key, key)
        parts_g.append("'%s' u 1:2:3:4 w yerrorlines lw 1.5 pt 7 ps 0.8 t '%s'" % (dat, name))
        parts_q.append("'%s' u 1:5 w linespoints lw 1.5 pt 7 ps 0.8 t '%s'" % (dat, name))
    if not parts_g:
        return None
    xt = ", ".join("'%g' %g" % (100 * l, 100 * l) for l in sw["losses"])
    g = ["set terminal pngcairo noenhanced size 1400,520 font 'Sans,9'", "set output '%s'" % png,
         "set multiplot layout 1,2 title 'Loss sweep: 1 flow, 50 Mb/s, 50 ms RTT, 2-BDP buffer, %d s "
         "(median of %d runs, bars: min-max; points spread along x for legibility)'" % (sw["time_s"], len(sw["runs"])),
         "set logscale x", "set xrange [0.07:3]", "set xtics (%s)" % xt, "set grid",
         "set xlabel 'random loss, % of data packets'", "set key top right font 'Sans,8'",
         "set title 'goodput'", "set ylabel 'goodput, Mb/s'", "set yrange [0:52]",
         "plot " + ", ".join(parts_g),
         "set title 'mean queueing delay'", "set ylabel 'ms'", "set yrange [0:*]",
         "plot " + ", ".join(parts_q), "unset multiplot"]
    gp = os.path.join(ddir, "sweep.gp")
    with open(gp, "w") as f:
        f.write("\n".join(g) + "\n")
    subprocess.run(["gnuplot", gp], check=False)
    return os.path.relpath(png, sim)


def losssweep_section(sim, title, desc, res, info):
    sw = info.get("losssweep")
    L = ["## " + title, "", desc, ""]
    if not sw:
        return L + ["(not defined)", ""]
    st = losssweep_stats(res, info)
    nrun = sum(len(d["goodput"]) for d in st.values())
    ntot = len(sw["grid"])
    if sw.get("missing"):
        L += ["Not defined: %s (fa_params.h has no such tunable yet)." % ", ".join(sw["missing"]), ""]
    if nrun < ntot:
        L += ["%d of %d runs present (`python3 tools/run_all.py --only losssweep` runs the rest)." % (nrun, ntot), ""]
    if not st:
        return L
    laws = sorted(set().union(*(d["law"] for d in st.values())))
    L += ["Runs of this section: the law as of commit %s." % " and ".join(laws), ""]
    keys = [k for k in sw["keys"] if any((k, l) in st for l in sw["losses"])]
    # compact: goodput per algorithm and loss rate, then the ratios to bbr
    L += ["Goodput, Mb/s (payload, whole run; median of the runs):", "",
          "| algorithm | " + " | ".join(lpct(l) for l in sw["losses"]) + " |",
          "|---|" + "---|" * len(sw["losses"])]
    for k in keys:
        L.append("| %s | %s |" % (SWEEP_NAME.get(k, k), " | ".join(
            fmt(median(st[(k, l)]["goodput"]), 1) if (k, l) in st else "—" for l in sw["losses"])))
    for k in [x for x in ("both_hdr", "hdr_no_random_loss") if x in keys]:
        L.append("| **%s / bbr** | %s |" % (SWEEP_SHORT[k], " | ".join(
            "%sx" % fmt(ratio(st, k, "bbr", l), 2) if ratio(st, k, "bbr", l) is not None else "—"
            for l in sw["losses"])))
    if "both_hdr" in keys and "bbr" in keys:
        L.append("| %s / bbr's best run | %s |" % (SWEEP_SHORT["both_hdr"], " | ".join(
            "%sx" % fmt(ratio(st, "both_hdr", "bbr", l, of=max), 2) if ratio(st, "both_hdr", "bbr", l, of=max)
            is not None else "—" for l in sw["losses"])))
    bst = [(l, st[("bbr", l)]["stall"]) for l in sw["losses"] if ("bbr", l) in st]
    if any(max(x) > 1 for _l, x in bst):
        L += ["", "ns-3's TcpBbr (3.37) is not Linux's under random loss: in some runs it stops after a "
              "retransmission timeout and from then on delivers about one segment per timeout for seconds, "
              "often to the end of the run (its cwnd stays at 4 with nothing sent, in the runs examined), "
              "hence its spread.  Linux's BBR moves 43.7 Mbit/s at 0.5 %% on the bench (issue 12).  Runs of bbr stalled more than "
              "1 s in total: %s of %d.  'fast_adaptive / bbr's best run' compares with bbr's best run at "
              "each loss rate." % (", ".join("%s %d" % (lpct(l), sum(1 for v in x if v > 1)) for l, x in bst),
                                   len(sw["runs"]))]
    L += ["", "Per point: goodput median (min-max over the runs), its ratio to bbr's median, mean queueing "
          "delay over the whole run (median), bottleneck overflow drops (median; the random losses are not "
          "counted), and the time stalled (median and largest over the runs: the time in gaps longer than "
          "%g s, 4 RTTs, without a delivered packet; a sender waiting for a retransmission timeout)." % STALL_S, "",
          "| loss | algorithm | goodput, Mb/s | x bbr | mean queueing delay, ms | overflow drops | stalled, s |",
          "|---|---|---|---|---|---|---|"]
    for l in sw["losses"]:
        for k in keys:
            d = st.get((k, l))
            if not d:
                continue
            rb = ratio(st, k, "bbr", l)
            L.append("| %s | %s | %s (%s-%s) | %s | %s | %s | %s |" % (
                lpct(l), SWEEP_NAME.get(k, k), fmt(median(d["goodput"]), 1), fmt(min(d["goodput"]), 1),
                fmt(max(d["goodput"]), 1), "—" if k == "bbr" or rb is None else "%.2f" % rb,
                fmt(median(d["qdelay"]), 2), fmt(median(d["drops"]), 0),
                "%s (%s)" % (fmt(median(d["stall"]), 1), fmt(max(d["stall"]), 1))))
    png = losssweep_plot(sim, st, sw)
    if png:
        L += ["", "![%s](%s)" % (title, png)]
    return L + [""]


def issue12(res, info):
    """the ns-3 bar of issue 12 (the sweep, with its plot) and, for context, the
    bench's bars read on the ns-3 sweep"""
    sw = info.get("losssweep")
    L = ["## Bars of issue 12", "",
         "The ns-3 bar is the loss sweep below with its plot.  For context, the bench's bars (50 Mbit/s, "
         "50 ms, 2-BDP buffer: goodput at 0.5 % loss >= 0.85x bbr's, at 2 % >= 0.6x, mean queueing delay "
         "under loss <= 15 ms) read on the ns-3 sweep: the verdict here is on the ns-3 numbers, the bars "
         "themselves are judged on the bench (bench/RESULTS.md), and ns-3's TcpBbr is not Linux's.", "",
         "| bar | measured | verdict | note |", "|---|---|---|---|"]
    if not sw:
        return L + ["", "(the sweep is not defined)", ""]
    st = losssweep_stats(res, info)
    need = [k for k in ("both_hdr", "hdr_no_random_loss", "bbr", "cubic", "vegas")]
    have = [(k, l) for k in need for l in sw["losses"] if (k, l) in st]
    missing = [k for k in need if not any((k, l) in st for l in sw["losses"])]
    png = os.path.join("plots", "losssweep.png")
    ok = None if not have else (not missing and len(have) == len(need) * len(sw["losses"]))
    L.append(bar_line("ns-3: loss sweep (%s) with bbr, cubic, vegas and fast_adaptive (rule on and off), "
                      "with its plot" % ", ".join(lpct(l) for l in sw["losses"]), ok,
                      "%d of %d points, %d runs each; %s" % (len(have), len(need) * len(sw["losses"]),
                                                           len(sw["runs"]), png) if have else "not run",
                      "missing: %s" % ", ".join(SWEEP_NAME.get(k, k) for k in missing) if missing else ""))
    ctx = {0.005: 0.85, 0.02: 0.6}
    for l in sw["losses"]:
        r = ratio(st, "both_hdr", "bbr", l)
        r0 = ratio(st, "hdr_no_random_loss", "bbr", l)
        d, b = st.get(("both_hdr", l)), st.get(("bbr", l))
        bar = "fast_adaptive / bbr at %s" % lpct(l)
        if l in ctx:
            bar += " (bench bar >= %gx)" % ctx[l]
        note = "fast_adaptive %s Mb/s, bbr %s Mb/s; rule off (random_loss=0) %s" % (
            fmt(median(d["goodput"]), 1) if d else "—", fmt(median(b["goodput"]), 1) if b else "—",
            "%.2fx" % r0 if r0 is not None else "not run")
        okr = None if r is None or l not in ctx else r >= ctx[l]
        L.append(bar_line(bar, okr, "%.2fx" % r if r is not None else "not run", note,
                          unmet="not met in ns-3"))
    qs = [(l, median(st[("both_hdr", l)]["qdelay"])) for l in sw["losses"] if ("both_hdr", l) in st]
    if qs:
        worst = max(qs, key=lambda x: x[1])
        L.append(bar_line("fast_adaptive mean queueing delay under loss <= 15 ms (bench bar)", worst[1] <= 15,
                          "%s ms at most (at %s)" % (fmt(worst[1], 2), lpct(worst[0])),
                          "; ".join("%s: %s ms" % (lpct(l), fmt(q, 2)) for l, q in qs), unmet="not met in ns-3"))
    return L + [""]


# ---- coexistence (issue 13)
COEX_NAME = {"both_hdr": "fast_adaptive", "hdr_no_compete": "fast_adaptive compete=0",
             "cubic": "cubic", "newreno": "newreno", "vegas": "vegas"}


def law_phases(sim):
    """{phase number: name} from fa_law.h's enum fa_phase"""
    try:
        txt = open(os.path.join(sim, "..", "include", "fast_adaptive", "fa_law.h")).read()
    except OSError:
        return {}
    return dict((int(v), k.lower()) for k, v in re.findall(r"\bFA_PHASE_([A-Z0-9_]+)\s*=\s*(\d+)", txt))


def coexist_run(prefix, n, phase_names):
    """one run's second half: side A = flows 0..n-1, side B = the rest"""
    meta, c = analyze.load(prefix)
    T = c["t"]
    half = meta["sim_time"] / 2.0
    j0 = next((j for j, t in enumerate(T) if t > half + 1e-9), len(T))
    nf = len(meta["flows"])
    pk = [sum(c["f%d_pkts" % i][j0:]) for i in range(nf)]
    tot = sum(pk)
    ns = max(1, len(T) - j0)
    ph = {}
    for i, f in enumerate(meta["flows"]):
        if f["cc"] == "fast":
            for v in c["f%d_phase" % i][j0:]:
                ph[int(v)] = ph.get(int(v), 0) + 1
    nph = sum(ph.values())
    qd = [b * 8.0 / meta["rate_bps"] * 1e3 for b in c["q0_bytes"][j0:]]
    drops = c["q0_drops"]
    return {"share_a": 100.0 * sum(pk[:n]) / tot if tot else float("nan"),
            "share_b": 100.0 * sum(pk[n:]) / tot if tot else float("nan"),
            "flow_share": [100.0 * x / tot if tot else float("nan") for x in pk],
            "util": 100.0 * tot / (meta["cap_pps"] * meta["sample"] * ns),
            "qdelay": analyze.mean(qd), "drops": drops[-1] - (drops[j0 - 1] if j0 > 0 else 0),
            "drops_all": drops[-1] if drops else 0,
            "phases": dict((phase_names.get(k, "phase %d" % k), 100.0 * v / nph) for k, v in ph.items())
            if nph else {},
            "law": law_of(prefix), "wall": meta["wall_s"], "t_from": half, "t_to": meta["sim_time"]}


def coexist_stats(sim, info):
    """{(a, b, n): {sched: run stats}} of the runs present"""
    cx = info.get("coexist")
    if not cx:
        return {}
    names = law_phases(sim)
    st = {}
    for a, b, n in cx["rows"]:
        for sk in cx["sched"]:
            p = os.path.join(sim, "out", "coexist", cx["grid"][(a, b, n, sk)])
            if os.path.exists(p + ".meta.json"):
                st.setdefault((a, b, n), {})[sk] = coexist_run(p, n, names)
    return st


def coex_label(a, b, n):
    return "%s vs %s %d:%d" % (COEX_NAME.get(a, a), COEX_NAME.get(b, b), n, n)


def med_range(xs, nd=1):
    xs = [x for x in xs if x == x]
    if not xs:
        return "—"
    if len(xs) == 1:
        return fmt(xs[0], nd)
    return "%s (%s-%s)" % (fmt(median(xs), nd), fmt(min(xs), nd), fmt(max(xs), nd))


def coexist_plot(sim, st, cx):
    """plots/coexist.png: side A's share per row (median, range; the 40-60 %
    band) and side A's share over time in the runs that start together"""
    pdir = os.path.join(sim, "plots")
    os.makedirs(pdir, exist_ok=True)
    ddir = os.path.join(sim, "out", "coexist")
    rows = [r for r in cx["rows"] if r in st]
    if not rows:
        return None
    dat = os.path.join(ddir, "share.dat")
    with open(dat, "w") as f:
        for k, r in enumerate(rows):
            xs = [d["share_a"] for d in st[r].values()]
            f.write("%d %.2f %.2f %.2f \"%s\"\n" % (k, median(xs), min(xs), max(xs), coex_label(*r)))
    parts = []
    first = cx["sched"][0]
    for r in rows:
        if first not in st[r]:
            continue
        prefix = os.path.join(ddir, cx["grid"][r + (first,)])
        meta, c = analyze.load(prefix)
        n = r[2]
        w = max(1, int(round(1.0 / meta["sample"])))
        a = analyze.smooth([sum(c["f%d_pkts" % i][j] for i in range(n)) for j in range(len(c["t"]))], w)
        t = analyze.smooth([sum(c["f%d_pkts" % i][j] for i in range(2 * n)) for j in range(len(c["t"]))], w)
        ts = os.path.join(ddir, "share_%s.dat" % cx["row"][r])
        with open(ts, "w") as f:
            for j in range(0, len(c["t"]), 10):
                if t[j] > 0:
                    f.write("%.2f %.2f\n" % (c["t"][j], 100.0 * a[j] / t[j]))
        parts.append("'%s' u 1:2 w l lw 1.2 t '%s'" % (ts, coex_label(*r)))
    lo, hi = cx["bar"]
    g = ["set terminal pngcairo noenhanced size 1400,620 font 'Sans,9'",
         "set output '%s'" % os.path.join(pdir, "coexist.png"),
         "set multiplot layout 1,2 title 'Coexistence: 96 Mb/s, 50 ms, 2-BDP drop-tail, %d s; share of the first-named "
         "side (grey band: %g-%g %%)'" % (cx["time_s"], lo, hi),
         "set grid", "set yrange [0:100]", "set ylabel 'share of the first-named side, %'",
         "set object 1 rect from graph 0, first %g to graph 1, first %g fc rgb '#dddddd' fs solid 0.5 behind" % (lo, hi),
         "set title 'second half of the run: median and range over %d start schedules'" % len(cx["sched"]),
         "set xrange [-0.5:%g]" % (len(rows) - 0.5), "set xtics rotate by -35 font 'Sans,8'", "unset key",
         "plot '%s' u 1:2:3:4:xtic(5) w yerrorbars pt 7 ps 1.2 lw 1.5" % dat,
         "set title 'over time, flows started together (1 s mean)'", "set xrange [0:%d]" % cx["time_s"],
         "set xtics auto rotate by 0 font 'Sans,9'", "set xlabel 's'",
         "set key outside bottom center horizontal maxrows 3 font 'Sans,8'",
         "plot " + ", ".join(parts), "unset multiplot"]
    gp = os.path.join(ddir, "coexist.gp")
    with open(gp, "w") as f:
        f.write("\n".join(g) + "\n")
    subprocess.run(["gnuplot", gp], check=False)
    return os.path.join("plots", "coexist.png")


def coexist_section(sim, title, desc, info):
    cx = info.get("coexist")
    L = ["## " + title, "", desc, ""]
    if not cx:
        return L + ["(not defined)", ""]
    st = coexist_stats(sim, info)
    nrun = sum(len(v) for v in st.values())
    if cx.get("missing"):
        L += ["Not defined (no `hdr_no_compete` variant: fa_params.h has no `compete` tunable, or its default "
              "is off): %s." % ", ".join(coex_label(*r) for r in cx["missing"]), ""]
    if nrun < len(cx["grid"]):
        L += ["%d of %d runs present (`python3 tools/run_all.py --only coexist` runs the rest; a run whose "
              "tunable the binary lacks is skipped)." % (nrun, len(cx["grid"])), ""]
    if not st:
        return L
    laws = sorted(set(d["law"] or "?" for v in st.values() for d in v.values()))
    L += ["Runs of this section: the law as of commit %s." % " and ".join(laws), "",
          "Per row, median over the start schedules (range): each side's share of the delivered packets, "
          "utilisation and mean queueing delay over the second half; bottleneck drops in the second half; "
          "the fast_adaptive flows' time per law phase in the second half (all schedules).", "",
          "| row | share of side A, % | share of side B, % | utilisation, % | mean queueing delay, ms "
          "| drops (2nd half) | fast_adaptive phases (2nd half) |",
          "|---|---|---|---|---|---|---|"]
    for r in cx["rows"]:
        v = st.get(r)
        if not v:
            L.append("| %s | not run | | | | | |" % coex_label(*r))
            continue
        ds = list(v.values())
        ph = {}
        for d in ds:
            for k, x in d["phases"].items():
                ph[k] = ph.get(k, 0) + x / len(ds)
        L.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            coex_label(*r), med_range([d["share_a"] for d in ds]), med_range([d["share_b"] for d in ds]),
            med_range([d["util"] for d in ds]), med_range([d["qdelay"] for d in ds], 2),
            med_range([d["drops"] for d in ds], 0),
            ", ".join("%s %.0f %%" % kv for kv in sorted(ph.items(), key=lambda kv: -kv[1])) or "—"))
    L += ["", "Per run (schedules: %s):" % "; ".join("%s = %s" % (k, cx["sched_desc"][k]) for k in cx["sched"]), "",
          "| row | schedule | share A, % | per flow, % (A's first) | utilisation, % | mean queueing delay, ms "
          "| drops (2nd half / all) | wall, s |", "|---|---|---|---|---|---|---|---|"]
    for r in cx["rows"]:
        for sk in cx["sched"]:
            d = st.get(r, {}).get(sk)
            if not d:
                continue
            L.append("| %s | %s | %s | %s | %s | %s | %d / %d | %.0f |" % (
                coex_label(*r), sk, fmt(d["share_a"], 1), " / ".join(fmt(x, 1) for x in d["flow_share"]),
                fmt(d["util"], 1), fmt(d["qdelay"], 2), d["drops"], d["drops_all"], d["wall"]))
    png = coexist_plot(sim, st, cx)
    if png:
        L += ["", "![%s](%s)" % (title, png)]
    return L + [""]


def issue13(sim, info):
    """the ns-3 bar of issue 13: fast_adaptive (module defaults) next to cubic
    and newreno, 1:1 and 2:2, each class's share 40-60 %; the rule off
    (compete=0) and the references for context"""
    cx = info.get("coexist")
    L = ["## Bars of issue 13", "",
         "The ns-3 bar: fast_adaptive (module defaults) next to ns-3 TcpCubic and TcpNewReno, 1:1 and 2:2, "
         "96 Mb/s, 50 ms, 2-BDP buffer: the share of each algorithm class 40-60 % (the median over the start "
         "schedules; range in the note), with `compete=0` (the rule off) as the ablation.  Measured in the "
         "Coexistence section below.", "",
         "| bar | measured | verdict | note |", "|---|---|---|---|"]
    if not cx:
        return L + ["", "(the experiment is not defined)", ""]
    st = coexist_stats(sim, info)
    lo, hi = cx["bar"]
    fa, off = cx["fast"]
    for b in ("cubic", "newreno"):
        for n in (1, 2):
            v = st.get((fa, b, n))
            xs = [d["share_a"] for d in v.values()] if v else []
            m = median(xs) if xs else None
            ok = None if m is None else lo <= m <= hi
            vo = st.get((off, b, n))
            note = "range %s; %s: %s" % (med_range(xs), "compete=0" if (off, b, n) in cx["rows"] else
                                         "compete=0 row not defined",
                                         med_range([d["share_a"] for d in vo.values()]) + " %" if vo else "not run")
            L.append(bar_line("fast_adaptive next to %s, %d:%d: share of each class %g-%g %%" % (b, n, n, lo, hi), ok,
                              "fast_adaptive %s %%, %s %s %%" % (fmt(m, 1), b, fmt(100 - m, 1)) if m is not None
                              else "not run", note))
    refs = [r for r in cx["rows"] if r[0] not in cx["fast"]]
    ctx = "; ".join("%s: %s %%" % (coex_label(*r), med_range([d["share_a"] for d in st[r].values()]))
                    for r in refs if r in st)
    L.append(bar_line("ablation row (compete=0) present", None if not st else (off, "cubic", 1) in st,
                      "yes" if (off, "cubic", 1) in st else "no", "references (share of the first-named): " + (ctx or "not run"),
                      unmet="**not met** (tunable absent)"))
    return L + [""]


def section(sim, experiments, exp, label, info):
    """one experiment's section (and its bars) as RESULTS.md would have it"""
    title, desc, runs = experiments[exp]
    if exp == "coexist":
        return issue13(sim, info) + coexist_section(sim, title, desc, info)
    res = {}
    for e, var, _a in runs:
        p = os.path.join(sim, "out", e, var)
        if os.path.exists(p + ".meta.json"):
            res[(e, var)] = analyze.analyze(p)
    if exp == "losssweep":
        return issue12(res, info) + losssweep_section(sim, title, desc, res, info)
    items = [(v, res[(e, v)]) for e, v, _a in runs if (e, v) in res]
    return ["## " + title, "", desc, ""] + (table(exp, items, label) if items else ["(no runs)"])


def write_all(sim, experiments, order, tune_runs, label, info):
    label = dict(label)
    label.update({"classic_oracle": "FAST classic, oracle base RTT",
                  "both_oracle": "adaptive ss + gain, oracle base RTT",
                  "ss_oracle": "adaptive ss only, oracle base RTT",
                  "gain_oracle": "adaptive gain only, oracle base RTT"})
    out = []
    res = {}
    total_wall = 0.0
    for exp in order:
        for e, var, _args in experiments[exp][2]:
            p = os.path.join(sim, "out", e, var)
            if os.path.exists(p + ".meta.json"):
                r = analyze.analyze(p)
                res[(e, var)] = r
                total_wall += r["meta"]["wall_s"]
    tres = {}
    for e, var, _a in tune_runs:
        p = os.path.join(sim, "out", e, var)
        if os.path.exists(p + ".meta.json"):
            tres[var] = analyze.analyze(p)
            total_wall += tres[var]["meta"]["wall_s"]

    now = datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC")
    out += ["# fast_adaptive in ns-3: results",
            "",
            "Generated by `make -C sim full` (tools/run_all.py, tools/report.py) on %s from commit %s "
            "(the law, include/, as of commit %s); do not edit by hand.  ns-3 %s (Debian libns3-dev), %s, %d cores.  Simulation wall time: "
            "%.0f s summed over all runs (%.0f s for this invocation, cached runs excluded); seed %d, "
            "run 1 for every run but the loss sweep's (its own runs; random loss is the only random element)."
            % (now, git_rev(sim), info.get("law_rev", "?"), ns3_version(), platform.machine(), os.cpu_count() or 0, total_wall,
               info["run_wall_s"], info["seed"]),
            "",
            "## Setup",
            "",
            "- Dumbbell: each sender has its own 10x-rate access link to router 1, a %g-BDP drop-tail "
            "bottleneck to router 2 (the device queue; no traffic-control queue disc anywhere), own "
            "access link to its receiver.  Propagation RTT %d ms for every flow.  Parking lot: two "
            "bottlenecks in series." % (info["buf_bdp"], info["rtt_ms"]),
            "- TCP: 1000-byte segments (1042 bytes on the wire; capacity C counts wire packets), "
            "initial window 10, delayed ACKs (2), SACK, no timestamps (ns-3 timestamps tick in ms), "
            "RttMeanDeviation Alpha = 1 so that congestion controls see raw RTT samples as in Linux, "
            "and fast_adaptive's samples timed as Linux times them (the newest segment an ACK newly "
            "SACKs or acknowledges, never a retransmitted one; ns-3 times the oldest); "
            "every flow paced by ns-3 (2x cwnd/RTT in slow start, 1.2x after, as Linux with fq) "
            "except in the unpaced sets (Exp 1, 2, 7 unpaced: `%s`, no flow paced but ns-3's BBR, "
            "which always paces)." % " ".join(info.get("unpaced", [])),
            "- A flow leaves by having all its data dropped at its first router from its stop time "
            "(DESIGN.md 8): it stops sending into the network at once.",
            "- fast_adaptive is include/fast_adaptive/fa_law.h compiled into the ns-3 model "
            "(model/tcp-fast-adaptive.cc), driven as tcp_fast_adaptive.c drives it.",
            "- Variants: *FAST classic* = %s (the published law: fixed gain 0.5, slow start ends at "
            "0.75 ms of queueing delay, every post-paper mechanism off).  *adaptive ss only* / "
            "*adaptive gain only* switch one of the paper's two rules on; *adaptive ss + gain, ss_exit 3 "
            "alpha* both (these three also with every post-paper mechanism off).  Adaptive tunables: %s.  "
            "*module defaults* = every tunable at include/fast_adaptive/fa_params.h's default (%s; alpha "
            "as the experiment says): the paper's two rules, the auto exit backlog and every post-paper "
            "mechanism (%s).  *module defaults, X off* = the module defaults with the one post-paper "
            "mechanism X off (the ablation; Exp 1, 2, 7 and 2/7 scaled).  'oracle base RTT' rows "
            "start the law's base RTT at the true minimum RTT (the paper's assumption that every "
            "connection knows its propagation delay); all other rows measure it, as the kernel does."
            % (", ".join("%s %s" % kv for kv in sorted(info["classic"].items())),
               ", ".join("%s = %s" % kv for kv in sorted(info["tuned"].items())),
               ", ".join("%s = %s" % kv for kv in sorted(info["header"].items())),
               "; ".join("%s (%s)" % (m, info.get("mode_help", {}).get(m, "")) for m in info.get("modes_off", {}))),
            "- Definitions of every column: see the docstring of tools/analyze.py.  Rates are smoothed "
            "over a centred 0.5 s window; convergence = every active flow within +-10 % of its fair "
            "share for at least 1 s; settle = every flow within +-10 % of its own final rate for 1 s; "
            "queue settle = queue within +-10 % of N alpha for 1 s; steady = last half of each phase; "
            "'—' = never within the phase.  'drops' counts bottleneck queue drops only (not the random "
            "losses of the loss experiment).  'base RTT error' = the law's base RTT at the end minus the "
            "true minimum RTT, per fast_adaptive flow.",
            ""]

    # ---- bars
    out += issue11(res, label, info.get("modes_off", {}))
    if "losssweep" in experiments:
        out += issue12(res, info)
    if "coexist" in experiments:
        out += issue13(sim, info)
    out += ["## Bars of issue 5", "",
            "| bar | measured | verdict | note |", "|---|---|---|---|"]
    bars = []
    for var2, note2 in (("both", "ss_exit 3 alpha"), ("both_hdr", "module defaults")):
        r2 = res.get(("exp2", var2))
        if not r2:
            continue
        ph = r2["phases"][0]
        m = r2["meta"]
        conv = ph["conv_s"]
        tag = "Exp 2 adaptive (%s)" % note2
        bars.append(bar_line(tag + ": convergence <= 2 s", conv is not None and conv <= 2,
                             "%s s (classic: %s s)" % (fmt(conv, 2), fmt(res[("exp2", "classic")]["phases"][0]["conv_s"], 2)
                                                       if ("exp2", "classic") in res else "?")))
        ov = ph["overshoot_pct"]
        bars.append(bar_line(tag + ": overshoot <= 6 %", ov is not None and ov <= 6, "%s %%" % fmt(ov, 1)))
        alpha = m["fa_attrs"].get("alpha_pkts", 200)
        q = ph["queue_pkts"][0]
        qd = ph["qdelay_mean_ms"][0]
        qt = 3 * alpha * m["wire_bytes"] * 8 / m["rate_bps"] * 1e3
        bars.append(bar_line(tag + ": equilibrium queue 3 alpha / C within 10 %",
                             abs(qd - qt) <= 0.1 * qt,
                             "%.0f packets, %.2f ms vs %d packets, %.2f ms" % (q, qd, 3 * alpha, qt)))
        u = ph["util_pct"][0]
        bars.append(bar_line(tag + ": utilisation >= 98 %", u >= 98,
                             "%.1f %% steady (%.1f %% from t = 0, slow start included)" % (u, r2["util_total_pct"][0])))
    for exp7, var, note in (("exp7", "both", "ss_exit 3 alpha, measured base RTT"),
                            ("exp7", "both_hdr", "module defaults, measured base RTT"),
                            ("exp7", "both_oracle", "ss_exit 3 alpha, oracle base RTT"),
                            ("exp7x", "both", "scaled, ss_exit 3 alpha, measured base RTT"),
                            ("exp7x", "both_hdr", "scaled, module defaults, measured base RTT"),
                            ("exp7x", "both_oracle", "scaled, ss_exit 3 alpha, oracle base RTT")):
        r7 = res.get((exp7, var))
        if not r7:
            continue
        for ph in r7["phases"][1:]:
            conv = ph["conv_s"]
            why = ""
            if conv is None or conv > 2:
                why = "settle %s s; steady rates %s" % (fmt(ph["settle_s"], 2), ", ".join(
                    "%d: %.1f %%" % (i + 1, 100 * v) for i, v in sorted(ph["steady_rate"].items())))
            bars.append(bar_line("Exp 7 adaptive (%s): re-convergence <= 2 s after %s" % (note, ev_name(ph)),
                                 conv is not None and conv <= 2, "%s s" % fmt(conv, 2), why))
    out += bars
    out += ["", "Why a bar is not met, where one is not: see 'Findings' below.", ""]

    # ---- experiments
    for exp in order:
        title, desc, runs = experiments[exp]
        if exp == "losssweep":
            out += losssweep_section(sim, title, desc, res, info)
            continue
        if exp == "coexist":
            out += coexist_section(sim, title, desc, info)
            continue
        items = [(v, res[(e, v)]) for e, v, _a in runs if (e, v) in res]
        missing = [label.get(v, v) for e, v, _a in runs if (e, v) not in res]
        out += ["## " + title, "", desc, ""]
        if missing:
            out += ["Not run in this invocation (wall time on the shared machine; "
                    "`python3 tools/run_all.py --only %s` runs them): %s." % (exp, ", ".join(missing)), ""]
        out += table(exp, items, label) if items else []
        if items:
            png = plot(sim, exp, title, items, label)
            out += ["", "![%s](%s)" % (title, png)]
        out += [""]

    # ---- tuning
    if tres:
        out += ["## Tuning of the adaptive tunables", "",
                "Exp 7's shape scaled to 96 Mb/s with alpha = 20 (3 alpha / C = 5.2 ms, the "
                "equilibrium queue of Exp 2 and Exp 7 at 960 Mb/s), flows 1-2 at 0 s, flow 3 joins at "
                "5 s, flow 2 leaves at 10 s, end 15 s; both adaptive rules on, oracle base RTT (so that "
                "the base-RTT error of a late joiner does not mask the gain's dynamics).  One tunable "
                "varied at a time from the module defaults: %s (ss_exit_pkts 0 = auto: cwnd/4 within "
                "[alpha/2, 3 alpha] = [10, 60]); "
                "ss_exit_pkts 60 = 3 alpha.  'classic' is FAST classic on the same scenario.  "
                "Queue settle at start: both flows start together (target 2 alpha = 40)."
                % ", ".join("%s = %s" % kv for kv in sorted(info["header"].items())), "",
                "| setting | queue settle at start, s | conv / settle after join, s | conv / settle after leave, s "
                "| overshoot join / leave, % | queue peak at start, pkts | queue sd steady (join phase), pkts |"
                " Jain after join |",
                "|---|---|---|---|---|---|---|---|"]
        for e, var, _a in tune_runs:
            r = tres.get(var)
            if not r:
                continue
            ph = r["phases"]
            if len(ph) < 3:
                continue
            out.append("| %s | %s | %s / %s | %s / %s | %s / %s | %d | %.1f | %.3f |" % (
                var.replace("_", " ").replace("ss exit pkts", "ss_exit_pkts").replace("gamma min", "gamma_min")
                .replace("gamma max", "gamma_max").replace("gain k", "gain_k").replace("update rtts", "update_rtts"),
                fmt(ph[0]["q_conv_s"], 2), fmt(ph[1]["conv_s"], 2), fmt(ph[1]["settle_s"], 2),
                fmt(ph[2]["conv_s"], 2), fmt(ph[2]["settle_s"], 2),
                fmt(ph[1]["overshoot_pct"], 1), fmt(ph[2]["overshoot_pct"], 1),
                ph[0]["queue_peak_pkts"][0], ph[1]["queue_sd_pkts"][0], ph[1]["jain"]))
        out += [""]
    findings = os.path.join(sim, "FINDINGS.md")
    if os.path.exists(findings):
        out += ["## Findings", "", "(from sim/FINDINGS.md, written by hand; the numbers it cites are in the tables above)", ""]
        out += open(findings).read().splitlines()
        out += [""]
    with open(os.path.join(sim, "RESULTS.md"), "w") as f:
        f.write("\n".join(out) + "\n")
    print("wrote RESULTS.md")
