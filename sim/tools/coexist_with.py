#!/usr/bin/env python3
"""The coexistence set (issue 13) at the module defaults with one tunable
changed, side by side with the report's cached runs of the defaults
(out/coexist/: the law the report was made from).

    python3 tools/coexist_with.py NAME=VALUE [-j 2]

Runs the coexistence experiment's module-defaults rows (both_hdr-*, every
start schedule) with --NAME=VALUE into out/coexist_NAME_VALUE/ (cached as
run_all.py caches: a run whose command line and binary are unchanged is not
run again), then prints per row fast_adaptive's share (median
over the schedules, and each schedule's) for the defaults (out/coexist/, from
`make full` or `run_all.py --only coexist`) and for the change.  Share: the
second half of the run, as report.py's coexistence section reads it.  Used to
trial a mechanism before its default changes (README "Status").
"""
import argparse
import concurrent.futures as cf
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SIM = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import report  # noqa: E402
import run_all  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("change", help="NAME=VALUE, a fa-sim option")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--bin", default=os.path.join(SIM, "build", "fa-sim"))
    a = ap.parse_args()
    if "=" not in a.change:
        sys.exit("coexist_with.py: want NAME=VALUE, got %r" % a.change)
    name, val = a.change.split("=", 1)
    run_all.define()
    runs = []
    for _, v, args in run_all.EXPERIMENTS["coexist"][2]:
        if not v.startswith("both_hdr-"):
            continue
        if not any(x.startswith("--%s=" % name) for x in args):
            sys.exit("coexist_with.py: the runs have no --%s (a tunable of fa_params.h?)" % name)
        runs.append((v, [x for x in args if not x.startswith("--%s=" % name)] + ["--%s=%s" % (name, val)]))
    binpath = os.path.abspath(a.bin)
    run_all.LAW_REV = run_all.built_rev(binpath) or run_all.include_rev()
    exp = "coexist_%s_%s" % (name, val)
    # run_all's cache: a run is redone when its command line or the binary changed
    with cf.ThreadPoolExecutor(a.j) as ex:
        res = list(ex.map(lambda r: (r[0], run_all.run_one(binpath, exp, r[0], r[1])[0]), runs))
    rows = {}
    for v, p in res:
        row, sched = v[len("both_hdr-"):].rsplit("_", 1)
        n = 2 if "2v2" in row else 1
        mine = report.coexist_run(p, n, {})["share_a"]
        base = os.path.join(SIM, "out", "coexist", v)
        dflt = report.coexist_run(base, n, {})["share_a"] if os.path.exists(base + ".meta.json") else None
        rows.setdefault(row, []).append((sched, dflt, mine))
    for row, xs in sorted(rows.items()):
        def col(k):
            vals = [x[k] for x in xs if x[k] is not None]
            if not vals:
                return "not run"
            return "%5.1f (%s)" % (statistics.median(vals),
                                   " ".join("%s:%.1f" % (x[0], x[k]) for x in xs if x[k] is not None))
        print("%-14s report %s   %s=%s %s" % (row, col(1), name, val, col(2)))


if __name__ == "__main__":
    main()
