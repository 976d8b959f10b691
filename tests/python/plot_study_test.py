#!/usr/bin/env python3
"""gtrack plot on a momentum-aperture study (inputs/light_source_ma.toml, 8 turns): one picture,
momentum_aperture.png, drawing δ+ and δ− of /momentum_aperture against its s, bit for bit, over the layout
of the file's /lattice.

Usage: plot_study_test.py GTRACK SOURCE_DIR. Exit 77 (skipped) without h5py, numpy or matplotlib."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_common import args, expect, finish, plot, run, same  # noqa: E402

import h5py  # noqa: E402

gtrack, source = args()
with tempfile.TemporaryDirectory() as tmp:
    h5 = os.path.join(tmp, "ma.h5")
    run(gtrack, "run", os.path.join(source, "inputs", "light_source_ma.toml"), "--backend", "cpu", "-o", h5,
        "--set", "momentum_aperture.turns=8", "--set", "momentum_aperture.resolution=2e-3")
    files, records = plot(gtrack, h5, os.path.join(tmp, "plots"))
    names = sorted(os.path.basename(p) for p in files)
    expect("one picture, momentum_aperture.png", names == ["momentum_aperture.png"], f"{names}")
    with h5py.File(h5, "r") as f:
        g = f["momentum_aperture"]
        expect("/lattice is written beside it", "lattice" in f)
        for col in ("s", "delta_plus", "delta_minus"):
            same(f"drawn {col}", records[f"momentum_aperture.png|{col}"], g[col][:])
finish()
