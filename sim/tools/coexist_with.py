#!/usr/bin/env python3
"""The coexistence set (issue 13) at the module defaults with one tunable
changed (or several at once), side by side with the report's cached runs of
the defaults (out/coexist/: the law the report was made from).

    python3 tools/coexist_with.py NAME=VALUE [NAME=VALUE ...] [-j 2]

Runs the coexistence experiment's module-defaults rows (both_hdr-*, every
start schedule) with --NAME=VALUE into out/coexist_NAME_VALUE[_NAME_VALUE...]/ (cached as
run_all.py caches: a run whose command line and binary are unchanged is not
run again), then prints per row fast_adaptive's share (median
over the schedules, and each schedule's) for the defaults (out/coexist/, from
`make full` or `run_all.py --only coexist`) and for the change.  Share: the
second half of the run, as report.py's coexistence section reads it.  Used to
trial a mechanism before its default changes (README "Status").
"""
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
    a, changes, binpath = run_all.change_args("coexist_with.py")
    tag, label = run_all.change_tag(changes)
    run_all.define()
    runs = []
    for _, v, args in run_all.EXPERIMENTS["coexist"][2]:
        if v.startswith("both_hdr-"):
            runs.append((v, run_all.with_change("coexist_with.py", args, changes)))
    exp = "coexist_%s" % tag
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
        print("%-14s report %s   %s %s" % (row, col(1), label, col(2)))


if __name__ == "__main__":
    main()
