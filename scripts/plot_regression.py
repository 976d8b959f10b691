#!/usr/bin/env python3
"""Plots each regression deck's results against its reference.

For every deck under regression/ that has both a reference (regression/NAME/reference.h5) and a new
output (RUNS/NAME.h5), writes OUT/NAME.png. Beamline decks: rms sizes sigma_x and sigma_y along s,
reference dashed and new solid, and below them the relative difference |new - reference| / reference.
Detector decks: the energy deposited in each volume, new against reference, and the hit counts.

Usage: scripts/plot_regression.py --runs DIR --out DIR [NAME ...]
Needs h5py, numpy and matplotlib (scripts/install-deps.sh --python).
"""
import argparse
import pathlib
import sys

import h5py
import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_stats(path):
    with h5py.File(path, "r") as f:
        g = f["stats"]
        return {k: g[k][:] for k in ("s", "turn", "sigma_x", "sigma_y", "alive")}


def relative(new, ref):
    scale = np.maximum(np.abs(ref), np.finfo(float).tiny)
    return np.abs(new - ref) / scale


def plot_deck(name, reference, new, out):
    ref, cur = read_stats(reference), read_stats(new)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 6), sharex=True,
                                      gridspec_kw={"height_ratios": [3, 1.3]})
    for key, colour in (("sigma_x", "tab:blue"), ("sigma_y", "tab:red")):
        top.plot(cur["s"], cur[key] * 1e3, "-", color=colour, lw=1.6, label=f"{key} (new)")
        top.plot(ref["s"], ref[key] * 1e3, "--", color="k", lw=0.9,
                 label="reference" if key == "sigma_x" else None)
    top.set_ylabel("rms size [mm]")
    turns = int(cur["turn"].max()) + 1
    top.set_title(f"{name}: beam size along s ({turns} turn{'s' if turns > 1 else ''}, "
                  f"{int(cur['alive'][-1])} of {int(cur['alive'][0])} alive at the end)")
    top.legend(fontsize=8, loc="best")
    top.grid(alpha=0.3)
    if len(ref["s"]) == len(cur["s"]):
        identical = True
        for key, colour in (("sigma_x", "tab:blue"), ("sigma_y", "tab:red")):
            d = relative(cur[key], ref[key])
            identical = identical and not d.any()
            # Zero differences cannot be drawn on a log axis: show them at the axis floor.
            bottom.semilogy(cur["s"], np.maximum(d, 1e-18), ".", ms=3, color=colour, label=key)
        bottom.set_ylim(1e-18, 1.0)
        bottom.axhline(1e-10, color="grey", lw=0.8, ls=":")
        bottom.text(cur["s"][0], 2e-10, "stats tolerance 1e-10", fontsize=7, color="grey")
        if identical:
            bottom.text(0.5, 0.5, "sigma_x and sigma_y identical to the reference, bit for bit",
                        ha="center", va="center", transform=bottom.transAxes, fontsize=9)
        bottom.set_ylabel("|new - ref| / ref")
        bottom.legend(fontsize=7, loc="upper right")
    else:
        bottom.text(0.5, 0.5, f"different number of rows: reference {len(ref['s'])}, new {len(cur['s'])}",
                    ha="center", va="center", transform=bottom.transAxes, color="red")
    bottom.set_xlabel("s [m]")
    bottom.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    plt.close(fig)


def read_tallies(path):
    with h5py.File(path, "r") as f:
        g = f["tallies"]
        names = [n.decode() for n in g.attrs["volume_names"]]
        hits = f["hits"]["edep"].shape[0] if "hits" in f else 0
        return names, g["edep"][:], hits


def plot_detector(name, reference, new, out):
    names, ref, ref_hits = read_tallies(reference)
    _, cur, cur_hits = read_tallies(new)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 6), gridspec_kw={"height_ratios": [3, 1.3]})
    x = np.arange(len(names))
    top.bar(x - 0.2, ref, width=0.4, color="0.6", label="reference")
    top.bar(x + 0.2, cur, width=0.4, color="tab:blue", label="new")
    top.set_xticks(x, names, rotation=30, ha="right", fontsize=8)
    top.set_ylabel("energy deposited [MeV]")
    top.set_title(f"{name}: energy per volume; hits: {cur_hits} new, {ref_hits} reference")
    top.legend(fontsize=8)
    top.grid(alpha=0.3, axis="y")
    if len(ref) == len(cur):
        d = relative(cur, ref)
        bottom.semilogy(x, np.maximum(d, 1e-18), "o", color="tab:blue")
        bottom.set_ylim(1e-18, 1.0)
        bottom.axhline(1e-12, color="grey", lw=0.8, ls=":")
        if not d.any() and cur_hits == ref_hits:
            bottom.text(0.5, 0.5, "tallies identical to the reference, bit for bit", ha="center",
                        va="center", transform=bottom.transAxes, fontsize=9)
        bottom.set_xticks(x, names, rotation=30, ha="right", fontsize=8)
        bottom.set_ylabel("|new - ref| / ref")
    else:
        bottom.text(0.5, 0.5, f"different volumes: reference {len(ref)}, new {len(cur)}", ha="center",
                    va="center", transform=bottom.transAxes, color="red")
    bottom.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    plt.close(fig)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", required=True, help="directory holding the new outputs NAME.h5")
    p.add_argument("--out", required=True, help="directory for the PNG files")
    p.add_argument("--regression", default=str(pathlib.Path(__file__).resolve().parent.parent / "regression"))
    p.add_argument("names", nargs="*")
    a = p.parse_args()
    runs, out, reg = pathlib.Path(a.runs), pathlib.Path(a.out), pathlib.Path(a.regression)
    out.mkdir(parents=True, exist_ok=True)
    names = a.names or sorted(d.name for d in reg.iterdir() if (d / "deck.toml").is_file())
    failed = 0
    for name in names:
        reference, new = reg / name / "reference.h5", runs / f"{name}.h5"
        if not reference.is_file() or not new.is_file():
            print(f"plot_regression: {name}: missing {reference if not reference.is_file() else new}",
                  file=sys.stderr)
            failed += 1
            continue
        png = out / f"{name}.png"
        with h5py.File(reference, "r") as f:
            detector = "tallies" in f
        (plot_detector if detector else plot_deck)(name, reference, new, png)
        print(png)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
