#!/usr/bin/env python3
"""Plot one final statistic against one scan parameter, from a table made by `gtrack collect`.

    scripts/plot_scan.py summary.h5 --x elements.QFH.k1 --y sigma_x -o sigma_x.png
    scripts/plot_scan.py summary.csv --y emittance_xn            # the CSV table works too
    scripts/plot_scan.py summary.h5 --list                       # the parameters and statistics

One line per combination of the other scan parameters (or only those named with --by). Points that
are missing or broken in the scan are left out of the lines and counted in the title.
`gtrack plot summary.h5` draws the usual statistics against the first parameter with the same code
(scripts/gtrack_plot.py: read_summary, plot_scan); this script chooses the axes.
Needs h5py (for .h5), numpy and matplotlib: scripts/install-deps.sh --python.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gtrack_plot import plot_scan, read_summary  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("summary", help="summary.h5 or summary.csv from gtrack collect")
    ap.add_argument("--x", help="scan parameter (key path) on the horizontal axis (default: the first)")
    ap.add_argument("--y", default="sigma_x", help="final statistic on the vertical axis (default: sigma_x)")
    ap.add_argument("--by", action="append", help="parameter that tells the lines apart (repeatable; "
                                                  "default: every other parameter)")
    ap.add_argument("--logx", action="store_true", help="logarithmic horizontal axis")
    ap.add_argument("--logy", action="store_true", help="logarithmic vertical axis")
    ap.add_argument("-o", "--output", default="scan.png", help="image file (default: scan.png)")
    ap.add_argument("--list", action="store_true", help="print the parameters and statistics, and exit")
    args = ap.parse_args()

    params, stats, complete = read_summary(args.summary)
    if args.list:
        print("parameters:", ", ".join(params))
        print("statistics:", ", ".join(stats))
        print(f"points: {len(complete)} ({int(complete.sum())} complete)")
        return
    x = args.x or next(iter(params))
    if x not in params:
        sys.exit(f"--x {x}: not a scan parameter; the parameters are: {', '.join(params)}")
    if args.y not in stats:
        sys.exit(f"--y {args.y}: not a statistic; the statistics are: {', '.join(stats)}")
    by = args.by if args.by is not None else [k for k in params if k != x]
    for b in by:
        if b not in params or b == x:
            sys.exit(f"--by {b}: not another scan parameter; the parameters are: {', '.join(params)}")
    lines = plot_scan(params, stats, complete, x, args.y, by, args.output, args.logx, args.logy)
    print(f"wrote {args.output}: {int(complete.sum())} points in {len(lines)} line(s)")


if __name__ == "__main__":
    main()
