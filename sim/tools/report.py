#!/usr/bin/env python3
"""RESULTS.md and plots/*.png from the runs in out/ (called by run_all.py)."""
import datetime
import json
import os
import platform
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
            "run 1 for every run (random loss is the only random element)."
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
            "RttMeanDeviation Alpha = 1 so that congestion controls see raw RTT samples as in Linux; "
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
