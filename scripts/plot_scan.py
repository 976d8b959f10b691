#!/usr/bin/env python3
"""Plot one final statistic against one scan parameter, from a table made by `gtrack collect`.

    scripts/plot_scan.py summary.h5 --x elements.QFH.k1 --y sigma_x -o sigma_x.png
    scripts/plot_scan.py summary.csv --y emittance_xn            # the CSV table works too
    scripts/plot_scan.py summary.h5 --list                       # the parameters and statistics

One line per combination of the other scan parameters (or only those named with --by). Points that
are missing or broken in the scan are left out of the lines and counted in the title.
Needs h5py (for .h5), numpy and matplotlib: scripts/install-deps.sh --python.
"""
import argparse
import csv
import sys

import numpy as np


def read_h5(path):
    import h5py

    with h5py.File(path, "r") as f:
        if "summary" not in f:
            sys.exit(f"{path}: no /summary table (make one with gtrack collect ... -o {path})")
        g = f["summary"]
        text = lambda a: [x.decode() if isinstance(x, bytes) else str(x) for x in a]
        columns = text(g.attrs["columns"])
        data = {c: g[c][:] for c in columns}
        units = {c: (g[c].attrs["unit"].decode() if isinstance(g[c].attrs["unit"], bytes) else g[c].attrs["unit"])
                 for c in columns}
        keys = text(g.attrs["parameters"])
        param_columns = text(g.attrs["parameter_columns"])
        params = {}
        for key, col in zip(keys, param_columns):
            labels = text(g.attrs[f"labels_{col}"])
            values = data.pop(col)
            unit = units.pop(col)
            if np.issubdtype(values.dtype, np.integer):  # not numbers: indices into the labels
                params[key] = dict(values=values.astype(float), unit="", labels=[labels[i] for i in values],
                                   ticks=labels)
            else:
                params[key] = dict(values=values.astype(float), unit=unit, labels=None, ticks=None)
        complete = data.pop("complete").astype(bool)
        data.pop("index")
        stats = {c: dict(values=v.astype(float), unit=units[c]) for c, v in data.items()}
    return params, stats, complete


def split_header(h):
    if h.endswith("]") and " [" in h:
        name, unit = h[:-1].split(" [", 1)
        return name, unit
    return h, ""


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], rows[1:]
    state = header.index("state")
    first_stat = next(i for i, h in enumerate(header) if split_header(h)[0] == "s")
    complete = np.array([r[state] == "complete" for r in rows])
    params, stats = {}, {}
    for i in range(header.index("file") + 1, first_stat):
        key, unit = split_header(header[i])
        col = [r[i] for r in rows]
        try:
            params[key] = dict(values=np.array(col, dtype=float), unit=unit, labels=None, ticks=None)
        except ValueError:  # not numbers: names, booleans, lists
            ticks = sorted(set(col), key=col.index)
            params[key] = dict(values=np.array([ticks.index(c) for c in col], dtype=float), unit="", labels=col,
                               ticks=ticks)
    for i in range(first_stat, len(header)):
        name, unit = split_header(header[i])
        stats[name] = dict(values=np.array([float(r[i]) if r[i] else np.nan for r in rows]), unit=unit)
    return params, stats, complete


def axis_label(name, unit):
    return f"{name} [{unit}]" if unit and unit != "1" else name


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

    params, stats, complete = (read_csv if args.summary.endswith(".csv") else read_h5)(args.summary)
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

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def label(key, i):
        p = params[key]
        if p["labels"] is not None:
            return p["labels"][i]
        return f"{p['values'][i]:g}" + (f" {p['unit']}" if p["unit"] else "")

    groups = {}
    for i in range(len(complete)):
        groups.setdefault(tuple(label(b, i) for b in by), []).append(i)
    px, py = params[x], stats[args.y]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, members in groups.items():
        members = [i for i in members if complete[i]]
        if not members:
            continue
        members.sort(key=lambda i: px["values"][i])
        text = ", ".join(f"{b} = {v}" for b, v in zip(by, name)) or None
        ax.plot(px["values"][members], py["values"][members], "o-", label=text)
    if px["ticks"] is not None:
        ax.set_xticks(range(len(px["ticks"])), px["ticks"])
    ax.set_xlabel(axis_label(x, px["unit"]))
    ax.set_ylabel(axis_label(args.y, py["unit"]))
    if args.logx:
        ax.set_xscale("log")
    if args.logy:
        ax.set_yscale("log")
    missing = int((~complete).sum())
    title = f"final {args.y} against {x}"
    if missing:
        title += f"\n({missing} of {len(complete)} points missing or broken, not shown)"
    ax.set_title(title, fontsize=10)
    if len(groups) > 1:
        ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output}: {int(complete.sum())} points in {len(groups)} line(s)")


if __name__ == "__main__":
    main()
