#!/usr/bin/env python3
"""Summary of one fa-sim run (PREFIX.csv + PREFIX.meta.json).

Definitions (used by RESULTS.md and make check):
- rate: data packets reaching each flow's receiver, counted every sample
  (10 ms), smoothed by a centred 0.5 s moving average, in wire bits
  (1042 bytes per packet) so that 100 % = link rate.
- events: flow starts and stops (starts within 0.1 s of each other are one
  event); a phase runs from one event to the next (or the end).
- share: the rate each active flow should get: C / N on a dumbbell; on the
  parking lot the FAST (proportional-fair, equal alpha) allocation, long
  flow C/3, short flows 2C/3 (with one flow stopped: C for the others).
- convergence time: from the event to the first time t such that every
  active flow stays within +-10 % of its share for the whole of [t, t+1 s];
  None if that never happens inside the phase.
- overshoot: for flows whose share rises at the event (joiners, and the
  remaining flows after a leave), (peak smoothed rate in the phase - steady
  rate) / steady rate, in %; the largest over those flows.  Steady rate and
  every "steady" figure: the mean over the last half of the phase.
- utilisation: delivered packets / (capacity x time) on the bottleneck,
  over the last half of each phase (steady) and over the whole run from the
  first start (total).
- queueing delay: the sampled bottleneck queue in bytes x 8 / link rate;
  mean and p95 over the steady windows and over the whole run.
- settle time: as convergence, but each flow within +-10 % of its own steady
  rate (the speed of the dynamics, whatever equilibrium they reach).
- queue settle: the bottleneck queue within +-10 % of N alpha for 1 s (only
  when every active flow is fast_adaptive, on a dumbbell).
- Jain index: of the steady mean rates (divided by share on the parking lot).
"""
import csv
import json
import math
import sys

SMOOTH_S = 0.5
TOL = 0.10
HOLD_S = 1.0


def load(prefix):
    with open(prefix + ".meta.json") as f:
        meta = json.load(f)
    with open(prefix + ".csv") as f:
        rd = csv.reader(f)
        hdr = next(rd)
        cols = {h: [] for h in hdr}
        for row in rd:
            for h, v in zip(hdr, row):
                cols[h].append(float(v))
    return meta, cols


def smooth(x, w):
    """centred moving average over w samples (truncated at the ends)"""
    n = len(x)
    pre = [0.0]
    for v in x:
        pre.append(pre[-1] + v)
    h = w // 2
    out = []
    for i in range(n):
        a, b = max(0, i - h), min(n, i - h + w)
        out.append((pre[b] - pre[a]) / max(1, b - a))
    return out


def pct(xs, p):
    if not xs:
        return float("nan")
    s = sorted(xs)
    k = min(len(s) - 1, max(0, int(math.ceil(p / 100.0 * len(s))) - 1))
    return s[k]


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def shares(meta, active):
    """share of capacity (fraction) per active flow index"""
    if meta["topo"] == "parkinglot":
        a = set(active)
        if a == {0, 1, 2}:
            return {0: 1 / 3, 1: 2 / 3, 2: 2 / 3}
        return {i: 1.0 for i in a}
    n = len(active)
    return {i: 1.0 / n for i in active}


def true_min_rtt_us(meta, f):
    """propagation RTT plus the serialisation of one data packet and its ACK
    on every link of the path (as fa-sim computes the oracle base RTT)"""
    if "min_rtt_us" in f:
        return f["min_rtt_us"]
    c = meta["rate_bps"]
    per_bit = 2.0 / (10 * c) + f.get("hops", 1) / c
    return f["rtt_ms"] * 1e3 + (meta["wire_bytes"] + 42) * 8 * per_bit * 1e6


def events_of(meta):
    ev = []
    for i, f in enumerate(meta["flows"]):
        ev.append((f["start"], "join", i))
        if f["stop"] >= 0:
            ev.append((f["stop"], "leave", i))
    ev.sort()
    grouped = []
    for t, kind, i in ev:
        if grouped and kind == grouped[-1]["kind"] and t - grouped[-1]["t"] < 0.1:
            grouped[-1]["flows"].append(i)
        else:
            grouped.append({"t": t, "kind": kind, "flows": [i]})
    return grouped


def analyze(prefix):
    meta, c = load(prefix)
    dt = meta["sample"]
    T = c["t"]
    n = len(meta["flows"])
    nb = 2 if meta["topo"] == "parkinglot" else 1
    cap_pps = meta["cap_pps"]
    cap_per_sample = cap_pps * dt
    w = max(1, int(round(SMOOTH_S / dt)))
    rate = []  # fraction of link rate
    for i in range(n):
        pk = c["f%d_pkts" % i]
        rate.append([v / cap_per_sample for v in smooth(pk, w)])
    qdelay = [[b * 8.0 / meta["rate_bps"] * 1e3 for b in c["q%d_bytes" % b]] for b in range(nb)]
    qpk = [c["q%d_pkts" % b] for b in range(nb)]
    end = meta["sim_time"]
    evs = events_of(meta)
    active = set()
    phases = []
    for k, e in enumerate(evs):
        if e["kind"] == "join":
            before = set(active)
            active |= set(e["flows"])
        else:
            before = set(active)
            active -= set(e["flows"])
        t0 = e["t"]
        t1 = evs[k + 1]["t"] if k + 1 < len(evs) else end
        if t1 - t0 < 1e-9:
            continue
        sh = shares(meta, sorted(active))
        sh_before = shares(meta, sorted(before)) if before else {}
        i0 = next((j for j, t in enumerate(T) if t >= t0), len(T))
        i1 = next((j for j, t in enumerate(T) if t > t1 - 1e-9), len(T))
        # keep the smoothing window inside the phase for the steady half
        im = next((j for j, t in enumerate(T) if t >= t0 + (t1 - t0) / 2), i1)
        ie = max(im + 1, i1 - w // 2)
        hold = int(round(HOLD_S / dt))
        ok = [all(abs(rate[i][j] - sh[i]) <= TOL * sh[i] for i in sh) for j in range(len(T))]
        # first stretch, not last: scan forwards for the earliest j with hold
        conv = None
        streak = 0
        for j in range(i0, i1):
            streak = streak + 1 if ok[j] else 0
            if streak >= hold:
                conv = T[j - hold + 1] - t0
                break
        # queue settle: every active flow is fast_adaptive on one link and the
        # queue stays within +-10 % of sum(alpha) for 1 s
        qconv = None
        qtarget = None
        alpha = meta.get("fa_attrs", {}).get("alpha_pkts", 20)
        if nb == 1 and all(meta["flows"][i]["cc"] == "fast" for i in sh):
            qtarget = alpha * len(sh)
            streak = 0
            for j in range(i0, i1):
                okq = abs(qpk[0][j] - qtarget) <= TOL * qtarget
                streak = streak + 1 if okq else 0
                if streak >= hold:
                    qconv = T[j - hold + 1] - t0
                    break
        steady = {i: mean(rate[i][im:ie]) for i in sh}
        # settle: every active flow within +-10 % of its own steady rate for
        # 1 s (the dynamics, whatever the equilibrium they reach)
        settle = None
        streak = 0
        for j in range(i0, i1):
            oks = all(steady[i] > 0 and abs(rate[i][j] - steady[i]) <= TOL * steady[i] for i in sh)
            streak = streak + 1 if oks else 0
            if streak >= hold:
                settle = T[j - hold + 1] - t0
                break
        risers = [i for i in sh if i not in sh_before or sh[i] > sh_before.get(i, 0) + 1e-9]
        over = None
        over_by = {}
        for i in risers:
            pk = max(rate[i][i0:i1]) if i1 > i0 else 0
            if steady[i] > 0:
                over_by[i] = 100.0 * (pk - steady[i]) / steady[i]
        if over_by:
            over = max(0.0, max(over_by.values()))
        xs = [steady[i] / (sh[i] if meta["topo"] == "parkinglot" else 1.0) for i in sh]
        jain = (sum(xs) ** 2) / (len(xs) * sum(x * x for x in xs)) if xs and sum(xs) > 0 else float("nan")
        util = []
        for b in range(nb):
            on = [i for i in sh if str(b) in meta["flows"][i]["links"].split(",")]
            tot = sum(sum(c["f%d_pkts" % i][im:i1]) for i in on)
            util.append(100.0 * tot / (cap_per_sample * max(1, i1 - im)))
        qd_steady = [qdelay[b][im:i1] for b in range(nb)]
        qp_steady = [mean(qpk[b][im:i1]) for b in range(nb)]
        qpeak = [max(qpk[b][i0:i1]) if i1 > i0 else 0 for b in range(nb)]
        phases.append({
            "t0": t0, "t1": t1, "event": e["kind"], "flows": e["flows"],
            "active": sorted(sh), "share": sh, "conv_s": conv, "overshoot_pct": over,
            "overshoot_by_flow": over_by, "steady_rate": steady, "jain": jain,
            "util_pct": util, "qdelay_mean_ms": [mean(q) for q in qd_steady],
            "qdelay_p95_ms": [pct(q, 95) for q in qd_steady],
            "queue_pkts": qp_steady, "queue_peak_pkts": qpeak,
            "queue_target_pkts": qtarget, "q_conv_s": qconv, "settle_s": settle,
            "queue_sd_pkts": [math.sqrt(max(0.0, mean([v * v for v in qpk[b][im:i1]]) - qp_steady[b] ** 2)) for b in range(nb)],
        })
    t_first = min(f["start"] for f in meta["flows"])
    j0 = next((j for j, t in enumerate(T) if t >= t_first), 0)
    util_total = []
    for b in range(nb):
        on = [i for i in range(n) if str(b) in meta["flows"][i]["links"].split(",")]
        tot = sum(sum(c["f%d_pkts" % i][j0:]) for i in on)
        util_total.append(100.0 * tot / (cap_per_sample * max(1, len(T) - j0)))
    drops = [c["q%d_drops" % b][-1] if T else 0 for b in range(nb)]
    # base RTT the law holds at the end vs the true minimum RTT, per
    # fast_adaptive flow (ms); and how often it moved up (adopted a longer path)
    base_err, base_up = {}, {}
    for i, f in enumerate(meta["flows"]):
        if f["cc"] != "fast":
            continue
        b = [v for v in c["f%d_base_us" % i] if v > 0]
        if not b:
            continue
        base_err[i] = (b[-1] - true_min_rtt_us(meta, f)) / 1e3
        base_up[i] = sum(1 for x, y in zip(b, b[1:]) if y > x)
    return {
        "prefix": prefix, "meta": meta, "phases": phases,
        "util_total_pct": util_total,
        "qdelay_mean_ms": [mean(q[j0:]) for q in qdelay],
        "qdelay_p95_ms": [pct(q[j0:], 95) for q in qdelay],
        "drops": drops, "base_err_ms": base_err, "base_up": base_up,
        "series": {"t": T, "rate": rate, "q_pkts": qpk, "qdelay_ms": qdelay,
                   "cwnd": [c["f%d_cwnd" % i] for i in range(n)]},
    }


def fmt(x, nd=1):
    if x is None:
        return "—"
    if isinstance(x, float) and math.isnan(x):
        return "nan"
    return ("%." + str(nd) + "f") % x


def main():
    for p in sys.argv[1:]:
        r = analyze(p)
        print(p, "util_total=%s%%" % fmt(r["util_total_pct"][0]),
              "qdelay mean/p95=%s/%s ms" % (fmt(r["qdelay_mean_ms"][0], 2), fmt(r["qdelay_p95_ms"][0], 2)),
              "drops=%d" % r["drops"][0], "wall=%.1fs" % r["meta"]["wall_s"])
        for ph in r["phases"]:
            print("  %s %s @%.1f-%.1f conv=%s s settle=%s qconv=%s over=%s%% util=%s%% q=%s pkts (peak %d) qd=%s ms jain=%.3f rates=%s" % (
                ph["event"], ph["flows"], ph["t0"], ph["t1"], fmt(ph["conv_s"], 2), fmt(ph["settle_s"], 2), fmt(ph["q_conv_s"], 2), fmt(ph["overshoot_pct"]),
                "/".join(fmt(u) for u in ph["util_pct"]), "/".join(fmt(q, 0) for q in ph["queue_pkts"]),
                max(ph["queue_peak_pkts"]), "/".join(fmt(q, 2) for q in ph["qdelay_mean_ms"]), ph["jain"],
                ",".join("%d:%.3f" % (i, v) for i, v in sorted(ph["steady_rate"].items()))))


if __name__ == "__main__":
    main()
