#!/usr/bin/env python3
"""Drift plots of a regression suite's history (the history.tsv gtrack regress appends to each night).

For every case, OUT/CASE.png: each headline figure (emittances, losses, energy deposited, hits, ...)
night after night, as its relative change from the first night it was recorded, one line per figure
and backend; a night whose run failed or moved is marked with a red cross. A drift too small to fail
the comparison shows here as a slope. Reads only the history file.

Usage: scripts/plot_regress_history.py HISTORY.tsv --out DIR [CASE ...]
Needs numpy and matplotlib (scripts/install-deps.sh --python); exits 77 without them.
"""
import argparse
import csv
import pathlib
import sys

try:
    import numpy as np
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError as e:  # the report says the plots are missing, and why
    print(f"plot_regress_history.py: {e}", file=sys.stderr)
    sys.exit(77)


def read_history(path):
    """{case: {(backend, figure): [(night, value, verdict), ...]}} in file order."""
    cases = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["figure"] == "-":
                continue
            key = (row["backend"], row["figure"])
            cases.setdefault(row["case"], {}).setdefault(key, []).append(
                (row["night"], float(row["value"]), row["verdict"]))
    return cases


def plot_case(name, series, out):
    nights = sorted({n for points in series.values() for n, _, _ in points})
    index = {n: i for i, n in enumerate(nights)}
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for (backend, figure), points in sorted(series.items()):
        x = np.array([index[n] for n, _, _ in points])
        v = np.array([p[1] for p in points])
        first = v[0] if v[0] != 0 else 1.0
        rel = (v - v[0]) / abs(first)
        ax.plot(x, rel, "o-", ms=3, label=f"{figure} ({backend})")
        bad = [i for i, p in enumerate(points) if p[2] not in ("PASS", "UPDATED")]
        if bad:
            ax.plot(x[bad], rel[bad], "x", color="red", ms=9)
    ax.set_xticks(range(len(nights)))
    ax.set_xticklabels([n[:19] for n in nights], rotation=30, ha="right", fontsize=7)
    ax.set_ylabel("change from the first night (relative)")
    ax.set_title(f"{name}: headline figures night over night (red x: moved or failed)")
    ax.axhline(0, color="grey", lw=0.5)
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    plt.close(fig)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("history")
    p.add_argument("--out", required=True)
    p.add_argument("cases", nargs="*")
    a = p.parse_args()
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    cases = read_history(a.history)
    for name, series in sorted(cases.items()):
        if a.cases and name not in a.cases:
            continue
        plot_case(name, series, out / f"{name}.png")
        print(f"wrote {out / (name + '.png')}")


if __name__ == "__main__":
    main()
