#!/usr/bin/env python3
"""Issue 11's ns-3 bars (Exp 1, 2 and 7, paced and unpaced) at the module
defaults with one tunable changed (or several at once), side by side with the
report's cached runs of the defaults (out/<exp>/both_hdr: the law the report
was made from).

    python3 tools/i11_with.py NAME=VALUE [NAME=VALUE ...] [-j 2]

Runs each set's module-defaults row (both_hdr) with each --NAME=VALUE into
out/<exp>_NAME_VALUE[_NAME_VALUE...]/ (cached as run_all.py caches), then prints one line per
bar of report.py's issue-11 table: the defaults' value, the change's, and the
bar's verdict for each.  The defaults' runs come from `make full` (or
`run_all.py --only exp1,exp1u,...`) with the same binary; a set whose
defaults run is missing prints "not run" there.  --ref reads the defaults from
another tree's out/ (a branch whose new tunable, off, is that tree's law).  Used, as coexist_with.py is
for issue 13, to trial a mechanism before its default changes.
"""
import concurrent.futures as cf
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SIM = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import analyze  # noqa: E402
import report  # noqa: E402
import run_all  # noqa: E402


def result(prefix):
    return analyze.analyze(prefix) if os.path.exists(prefix + ".meta.json") else None


def ref_option(ap):
    ap.add_argument("--ref", default=os.path.join(SIM, "out"),
                    help="the out/ directory holding the defaults' runs (another tree's, when this "
                    "tree's binary adds the tunable and its value there, off, is that tree's law)")


def main():
    a, changes, binpath = run_all.change_args("i11_with.py", ref_option)
    tag, label = run_all.change_tag(changes)
    run_all.define()
    runs = []
    for exp, _ in report.I11_SETS:
        args = [r[2] for r in run_all.EXPERIMENTS[exp][2] if r[1] == "both_hdr"]
        if not args:
            sys.exit("i11_with.py: %s has no both_hdr run" % exp)
        runs.append((exp, run_all.with_change("i11_with.py", args[0], changes)))
    with cf.ThreadPoolExecutor(a.j) as ex:
        done = list(ex.map(lambda r: (r[0], run_all.run_one(binpath, "%s_%s" % (r[0], tag),
                                                            "both_hdr", r[1])), runs))
    for exp, (_, wall, cached) in done:
        print("%-8s %s" % (exp, "cached" if cached else "%.0f s" % wall), file=sys.stderr)
    met = [0, 0]
    print("| bar | defaults | %s |" % label)
    print("|---|---|---|")
    for exp, title in report.I11_SETS:
        dflt = result(os.path.join(a.ref, exp, "both_hdr"))
        mine = result(os.path.join(SIM, "out", "%s_%s" % (exp, tag), "both_hdr"))
        for bar, get, test, unit, nd in report.i11_bars(exp):
            cells = []
            for i, r in enumerate((dflt, mine)):
                if r is None:
                    cells.append("not run")
                    continue
                v = get(r)
                ok = test(v)
                met[i] += 1 if ok else 0
                cells.append("%s %s" % (report.val(v, nd, unit), "met" if ok else "**UNMET**"))
            print("| %s: %s | %s | %s |" % (title, bar, cells[0], cells[1]))
    print("\nbars met: defaults %d, %s %d" % (met[0], label, met[1]))


if __name__ == "__main__":
    main()
