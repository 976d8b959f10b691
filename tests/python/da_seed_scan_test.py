#!/usr/bin/env python3
"""A dynamic-aperture scan over error seeds, as a job array runs it (issue 45): inputs/light_source_da.toml's
ring with random quadrupole and sextupole misalignments and gradient errors, `[scan] errors.seed` over four
seeds, run with `gtrack scan --local` (each point a child `gtrack run --scan-index N`, as a job-array task),
then `gtrack collect`.

Checked, against the four output files read with h5py (what the points wrote, not what collect computed):
- `gtrack scan --list` calls every point complete (a study output has no /stats; before, every point of a
  study scan read as broken and a resumed scan ran them all again), and a second `--local` runs none;
- collect's /summary columns da_min_<i>, da_mean_<i>, da_border_<i>_<j> equal each point's own
  /dynamic_aperture/summary and /border, and da_survivors_<i> its surviving fraction;
- /dynamic_aperture_over_points/border: each angle's border_min, border_mean, border_max over the seeds
  equal numpy's min, mean and max of the four files' borders (the mean to 1e-12: a sum in another order),
  points = 4; /summary: the least border_min over the angles and the mean of border_mean;
- the seeds do differ (some angle's border differs between seeds), so the comparison cannot pass on four
  copies of one file; the printed line names the least and mean border.

Usage: da_seed_scan_test.py GTRACK SOURCE_DIR (exit 77 when h5py or numpy is missing)."""
import os
import re
import subprocess
import sys
import tempfile

try:
    import h5py
    import numpy as np
except ImportError as e:  # skipped, as ctest's SKIP_RETURN_CODE says
    print(f"skipped: {e}")
    sys.exit(77)

GTRACK, SOURCE = sys.argv[1], sys.argv[2]
SEEDS = 4


def deck_text():
    base = open(os.path.join(SOURCE, "inputs", "light_source_da.toml")).read()
    # A small grid and few turns: the test is about the scan and the collection, not the physics.
    base = base.replace("angles = 11", "angles = 5").replace("radii = 30", "radii = 12")
    base = base.replace("deltas = [-0.003, 0.0, 0.003]", "deltas = [0.0, 0.002]")
    base = base.replace("frequency_map = true", "frequency_map = false").replace("turns = 512", "turns = 200")
    base = re.sub(r'(?m)^file = .*$', 'file = "da_seed_{index}.h5"', base)
    return base + f"""
[errors]
seed = 1
[errors.quads]
type = "quadrupole"
dx = "20 um"
dy = "20 um"
gradient = 1e-3
[errors.sextupoles]
type = "sextupole"
dx = "100 um"
dy = "100 um"

[scan]
"errors.seed" = {{ from = 1, to = {SEEDS}, count = {SEEDS} }}
"""


def run(args, cwd):
    r = subprocess.run([GTRACK] + args, cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"gtrack {' '.join(args)} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}")
    return r.stdout


def main():
    with tempfile.TemporaryDirectory() as tmp:
        deck = os.path.join(tmp, "da_seeds.toml")
        open(deck, "w").write(deck_text())
        run(["scan", deck, "--local", "-j", "2", "--backend", "cpu"], tmp)
        listing = run(["scan", deck, "--list"], tmp)
        states = re.findall(r"\b(complete|missing|broken)\b", listing)
        assert states.count("complete") == SEEDS and "broken" not in states, listing
        again = run(["scan", deck, "--local", "--backend", "cpu"], tmp)
        assert f"0 run, {SEEDS} skipped" in again, again

        out = run(["collect", os.path.join(tmp, "da_seed_*.h5"), "-o", os.path.join(tmp, "sum.h5")], tmp)
        print(out)
        files = [os.path.join(tmp, f"da_seed_{i}.h5") for i in range(SEEDS)]
        borders, summaries, survivors = [], [], []
        for f in files:
            with h5py.File(f, "r") as h:
                da = h["dynamic_aperture"]
                borders.append(np.array(da["border/border"]))
                summaries.append((np.array(da["summary/min"]), np.array(da["summary/mean"])))
                deltas = np.array(da["summary/delta"])
                angles = np.array(da["border/angle"])[: len(borders[-1]) // len(deltas)]
                p_delta = np.array(da["particles/delta"])
                kept = np.array(da["particles/survived_turns"]) >= da.attrs["turns"]
                survivors.append([kept[p_delta == d].mean() for d in deltas])
        borders = np.array(borders)
        nd, na = len(deltas), len(angles)
        assert borders.shape == (SEEDS, nd * na), borders.shape
        assert np.any(borders.min(axis=0) != borders.max(axis=0)), "every seed gave the same borders"

        with h5py.File(os.path.join(tmp, "sum.h5"), "r") as h:
            s = h["summary"]
            for p in range(SEEDS):
                for i in range(nd):
                    assert s[f"da_min_{i}"][p] == summaries[p][0][i]
                    assert s[f"da_mean_{i}"][p] == summaries[p][1][i]
                    assert s[f"da_survivors_{i}"][p] == survivors[p][i]
                    for j in range(na):
                        assert s[f"da_border_{i}_{j}"][p] == borders[p, i * na + j]
            b = h["dynamic_aperture_over_points/border"]
            assert np.array_equal(np.array(b["border_min"]), borders.min(axis=0))
            assert np.array_equal(np.array(b["border_max"]), borders.max(axis=0))
            # the mean: a sum of four in collect's order; 1e-12 relative covers any order of summation
            assert np.allclose(np.array(b["border_mean"]), borders.mean(axis=0), rtol=1e-12, atol=0)
            assert np.all(np.array(b["points"]) == SEEDS)
            assert np.array_equal(np.array(b["delta"]), np.repeat(deltas, na))
            assert np.array_equal(np.array(b["angle"]), np.tile(angles, nd))
            sm = h["dynamic_aperture_over_points/summary"]
            least = borders.min(axis=0).reshape(nd, na).min(axis=1)
            mean = borders.mean(axis=0).reshape(nd, na).mean(axis=1)
            assert np.array_equal(np.array(sm["min"]), least)
            assert np.allclose(np.array(sm["mean"]), mean, rtol=1e-12, atol=0)
            unit = h["dynamic_aperture_over_points"].attrs["size_unit"]
            unit = unit.decode() if isinstance(unit, bytes) else unit
            assert unit == "sigma", unit
        assert f"over {SEEDS} points: least border" in out, out
        print(f"ok: {SEEDS} seeds, borders per angle min {least} mean {mean} sigma")


if __name__ == "__main__":
    main()
