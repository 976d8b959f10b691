#!/usr/bin/env python3
"""gtrack plot on beamline runs: the pictures a run's file gives (beam along s, phase space as scatter and as
density, losses, space-charge and collective diagnostics) exist as PNGs of the right size, and the arrays
they drew are the file's.

Usage: plot_beamline_test.py GTRACK SOURCE_DIR. Exit 77 (skipped) without h5py, numpy or matplotlib."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_common import args, expect, finish, plot, run, same  # noqa: E402

import h5py  # noqa: E402
import numpy as np  # noqa: E402

gtrack, source = args()
sys.path.insert(0, os.path.join(source, "scripts"))
import gtrack_plot  # noqa: E402


def names(files):
    return sorted(os.path.basename(p) for p in files)


with tempfile.TemporaryDirectory() as tmp:
    # 1. Apertures and collimators: stats after every element, a snapshot at the end, 2310 losses.
    out = os.path.join(tmp, "apertures.h5")
    run(gtrack, "run", os.path.join(source, "regression/apertures/deck.toml"), "-o", out, "--profile")
    # 690 particles reach the end: more than --max-points 300, so the snapshot is drawn as a density
    files, rec = plot(gtrack, out, os.path.join(tmp, "ap"), "--max-points", "300")
    expect("apertures: the pictures", names(files) == ["beam_size.png", "centroid.png", "emittance.png",
                                                       "losses.png", "phase_space_0.png", "profile.png"],
           names(files))
    with h5py.File(out, "r") as f:
        st = {k: f["stats"][k][:] for k in f["stats"]}
        x, px = f["data/0/particles/beam/position/x"][:], f["data/0/particles/beam/momentum/x"][:]
        lost = {k: f["lost"][k][:] for k in f["lost"]}
        seconds = f["profile/seconds"][:]
    same("profile: the kernel times, longest first", rec["profile.png|seconds"], np.sort(seconds)[::-1][:30])
    for col in ("sigma_x", "sigma_y", "sigma_t", "sigma_pt"):
        same(f"beam_size draws stats/{col}", rec[f"beam_size.png|{col}"], st[col])
    for col in ("emittance_xn", "emittance_yn", "emittance_t"):
        same(f"emittance draws stats/{col}", rec[f"emittance.png|{col}"], st[col])
    for col in ("mean_x", "mean_y", "mean_px", "mean_py", "mean_pt"):
        same(f"centroid draws stats/{col}", rec[f"centroid.png|{col}"], st[col])
    same("beam_size is along s", rec["beam_size.png|s"], st["s"])
    same("losses: lost/s", rec["losses.png|s"], lost["s"])
    positions, counts = np.unique(lost["s"], return_counts=True)
    same("losses: the places of loss", rec["losses.png|positions"], positions)
    same("losses: the count at each", rec["losses.png|counts"], counts)
    expect("losses: every lost particle counted", int(rec["losses.png|counts"].sum()) == len(lost["s"]) == 2310)
    same("losses: per element", rec["losses.png|per_element"], np.bincount(lost["element"]))
    same("losses: alive along s", rec["losses.png|alive"], st["alive"])

    # The snapshot as a density: the histogram of all particles, equal to numpy's of the file's columns
    # over the same bins.
    expect("density mode above --max-points", str(rec["phase_space_0.png|mode"]) == "density")
    key = "phase_space_0.png|pairs|position/x,momentum/x"
    h, ex, ep = rec[f"{key}|0"], rec[f"{key}|1|0"], rec[f"{key}|1|1"]
    same("density x-px = histogram2d of the file", h, np.histogram2d(x, px, bins=(ex, ep))[0])
    # the frame is the 0.05-99.95 % quantiles of a sample widened by 10 %: nearly every particle is inside
    expect("density frame holds >= 99 % of the particles", h.sum() >= 0.99 * len(x), f"{h.sum()} of {len(x)}")
    # the fast 2D histogram is numpy's, bit for bit, also for values on the edges and outside
    rng = np.random.default_rng(5)
    e1, e2 = np.linspace(-1, 2, 41), np.linspace(0, 1, 8)
    a = np.concatenate([rng.normal(size=5000), e1, [-3, 5, np.nan]])
    b = np.concatenate([rng.uniform(-0.2, 1.2, 5000), np.resize(e2, len(e1)), [0.5, 0.5, 0.5]])
    w = rng.uniform(size=len(a))
    same("histogram2d = numpy.histogram2d", gtrack_plot.histogram2d(a, b, e1, e2, w),
         np.histogram2d(a, b, bins=(e1, e2), weights=w)[0])
    # reading in chunks (100 rows here) gives the same histogram as reading at once
    gtrack_plot.CHUNK = 100
    with h5py.File(out, "r") as f:
        mode, n, pairs, nbins = gtrack_plot.phase_space(f["data/0/particles/beam"], 300, 200)
    same("density in chunks of 100 rows", pairs[0][0], h)

    # 2. Space charge: the /space_charge diagnostics.
    out = os.path.join(tmp, "sc.h5")
    run(gtrack, "run", os.path.join(source, "regression/space_charge_fodo/deck.toml"), "-o", out)
    files, rec = plot(gtrack, out, os.path.join(tmp, "sc"))
    expect("space charge: a space_charge picture", "space_charge.png" in names(files), names(files))
    expect("space charge: no losses picture without losses", "losses.png" not in names(files))
    with h5py.File(out, "r") as f:
        sc = {k: f["space_charge"][k][:] for k in f["space_charge"]}
    for col in ("s", "field_energy", "outside", "hx", "hz", "t_solve"):
        same(f"space_charge draws {col}", rec[f"space_charge.png|{col}"], sc[col])

    # 3. Collective effects: CSR in the chicane's bends, LSC in its drifts (5000 particles).
    out = os.path.join(tmp, "csr.h5")
    run(gtrack, "run", os.path.join(source, "inputs/chicane_csr.toml"), "--set", "beam.macroparticles=5000",
        "-o", out)
    files, rec = plot(gtrack, out, os.path.join(tmp, "csr"))
    expect("collective: a collective picture", "collective.png" in names(files), names(files))
    with h5py.File(out, "r") as f:
        co = {k: f["collective"][k][:] for k in f["collective"]}
    for col in ("s", "energy_change", "charge_on_grid", "bin_width"):
        same(f"collective draws {col}", rec[f"collective.png|{col}"], co[col])
    # 5000 particles, fewer than --max-points (20000 by default): a scatter of every particle
    with h5py.File(out, "r") as f:
        beam = f["data/0/particles/beam"]
        x, px, t, pt = (beam[r][:] for r in ("position/x", "momentum/x", "position/t", "momentum/t"))
    expect("phase space of 5000 particles is a scatter of all", str(rec["phase_space_0.png|mode"]) == "scatter"
           and int(rec["phase_space_0.png|n"]) == len(x) == 5000, f"{rec['phase_space_0.png|mode']}, {len(x)}")
    same("scatter x", rec["phase_space_0.png|pairs|position/x,momentum/x|0"], x)
    same("scatter px", rec["phase_space_0.png|pairs|position/x,momentum/x|1"], px)
    same("scatter t", rec["phase_space_0.png|pairs|position/t,momentum/t|0"], t)
    same("scatter pt", rec["phase_space_0.png|pairs|position/t,momentum/t|1"], pt)

finish()
