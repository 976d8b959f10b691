#!/usr/bin/env python3
"""gtrack plot on detector runs: energy per volume and per layer, hit maps, the shower profile, the
energy balance and the strip reconstruction's quality exist as PNGs of the right size, and the arrays
they drew are the file's.

Usage: plot_detector_test.py GTRACK SOURCE_DIR. Exit 77 (skipped) without h5py, numpy or matplotlib."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_common import args, expect, finish, plot, run, same  # noqa: E402

import h5py  # noqa: E402
import numpy as np  # noqa: E402

gtrack, source = args()


def names(files):
    return sorted(os.path.basename(p) for p in files)


with tempfile.TemporaryDirectory() as tmp:
    # 1. The sampling calorimeter of the regression set: 80 electrons along +x through 50 lead/argon layers.
    out = os.path.join(tmp, "calo.h5")
    run(gtrack, "run", os.path.join(source, "regression/detector_calorimeter/deck.toml"), "-o", out)
    files, rec = plot(gtrack, out, os.path.join(tmp, "calo"))
    expect("calorimeter: the pictures", names(files) == ["energy_per_layer.png", "energy_per_volume.png",
                                                         "hit_map.png", "shower_profile.png"], names(files))
    with h5py.File(out, "r") as f:
        tallies = {k: f["tallies"][k][:] for k in f["tallies"]}
        hits = {k: f["hits"][k][:] for k in f["hits"]}
        names_ = [n.decode() for n in f["hits"].attrs["volume_names"]]
    same("energy per volume = /tallies/edep", rec["energy_per_volume.png|edep"], tallies["edep"])
    gap = names_.index("gap")
    sel = hits["volume"] == gap
    same("energy per layer = the gap's hits summed by replica", rec["energy_per_layer.png|gap"],
         np.bincount(hits["replica"][sel], weights=hits["edep"][sel]), rtol=1e-12)  # chunked sums: rounding
    expect("50 layers", len(rec["energy_per_layer.png|gap"]) == 50, f"{len(rec['energy_per_layer.png|gap'])}")
    mid = {a: (hits[f"pre_{a}"] + hits[f"post_{a}"]) / 2 for a in "xyz"}
    axis = str(rec["shower_profile.png|axis"])
    expect("the shower axis is x, the beam's direction", axis == "x", axis)
    e = rec["hit_map.png|edges|x"], rec["hit_map.png|edges|y"]
    same("hit map x-y = energy-weighted histogram2d of the midpoints", rec["hit_map.png|maps|x,y"],
         np.histogram2d(mid["x"], mid["y"], bins=e, weights=hits["edep"])[0], rtol=1e-12)
    same("longitudinal profile = energy histogram along x", rec["shower_profile.png|longitudinal"],
         np.histogram(mid["x"], bins=rec["shower_profile.png|edges"], weights=hits["edep"])[0], rtol=1e-12)
    inside = rec["shower_profile.png|longitudinal"].sum() / hits["edep"].sum()
    expect("the profile's frame holds >= 99 % of the energy", inside >= 0.99, f"{inside:.4f}")

    # 2. Showers (5 events): the per-event energy balance.
    out = os.path.join(tmp, "em.h5")
    run(gtrack, "run", os.path.join(source, "inputs/em_calorimeter.toml"), "--set", "gun.events=5", "-o", out)
    files, rec = plot(gtrack, out, os.path.join(tmp, "em"))
    expect("showers: an energy_balance picture", "energy_balance.png" in names(files), names(files))
    with h5py.File(out, "r") as f:
        eb = {k: f["energy_balance"][k][:] for k in f["energy_balance"]}
    for col in ("primary", "deposited", "below_cut", "escaped", "lost"):
        same(f"energy balance: total {col}", rec[f"energy_balance.png|totals|{col}"], eb[col].sum())
    same("energy balance: fraction per event", rec["energy_balance.png|fraction"],
         (eb["deposited"] + eb["below_cut"]) / eb["primary"])

    # 3. A strip tracker with its [strips] reconstruction (10 events): the quality per station and the hits.
    out = os.path.join(tmp, "sts.h5")
    run(gtrack, "run", os.path.join(source, "inputs/sts.toml"), "--set", "gun.events=10", "-o", out)
    files, rec = plot(gtrack, out, os.path.join(tmp, "sts"))
    expect("strips: the quality and hit pictures", {"strip_quality.png", "strip_hits.png"} <= set(names(files)),
           names(files))
    with h5py.File(out, "r") as f:
        quality = {k: f["strip_quality"][k][:] for k in f["strip_quality"]}
        reco = {k: f["reco_hits"][k][:] for k in ("x", "y", "true")}
    for col in ("efficiency", "ghost_rate", "residual_u", "residual_v", "pull_u", "pull_v"):
        same(f"strip quality: {col} per station", rec[f"strip_quality.png|{col}"], quality[col])
    same("strip hits: x", rec["strip_hits.png|x"], reco["x"])
    same("strip hits: true hits and ghosts", rec["strip_hits.png|true"].astype(int), (reco["true"] != 0).astype(int))

finish()
