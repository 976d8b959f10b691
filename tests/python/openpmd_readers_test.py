#!/usr/bin/env python3
"""openpmd-beamphysics and openPMD-viewer read gtrack's phase space as written, with gtrack's own rms
values; and gtrack reads a beam written by openpmd-beamphysics (fixed-s and fixed-t) with its moments.

Usage: openpmd_readers_test.py GTRACK SOURCE_DIR. Exit 77 (skipped) when the Python packages are missing
(scripts/install-deps.sh --python installs them)."""
import os
import subprocess
import sys
import tempfile
import warnings

try:
    import h5py
    import numpy as np
    from beamphysics import ParticleGroup
    from openpmd_viewer import OpenPMDTimeSeries
except ImportError as e:
    print(f"skipped: {e}")
    sys.exit(77)

warnings.simplefilter("ignore")
C = 299792458.0
gtrack, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
failures = []


def check(name, got, want, rel):
    err = abs(got - want) / max(abs(want), 1e-300)
    status = "ok" if err <= rel else "FAIL"
    print(f"{status:4} {name}: {got:.15g} vs {want:.15g} (rel {err:.2e}, bound {rel:g})")
    if err > rel:
        failures.append(name)


def run(*args):
    subprocess.run([gtrack, *args, "--quiet"], check=True)


def last_stats(path):
    """The last and first rows of /stats (a group of columns)."""
    with h5py.File(path, "r") as f:
        cols = {k: f["stats"][k][:] for k in f["stats"] if f["stats"][k].ndim == 1}
    return {k: v[-1] for k, v in cols.items()}, {k: v[0] for k, v in cols.items()}


with tempfile.TemporaryDirectory() as tmp:
    # 1. gtrack writes, the two readers read.
    out = os.path.join(tmp, "fodo.h5")
    run("run", os.path.join(source, "inputs/fodo.toml"), "--set", "beam.macroparticles=20000", "-o", out)
    end, _ = last_stats(out)
    P = ParticleGroup(out)  # one iteration ("end"): the file itself, as a user opens it
    # gtrack's moments and numpy's differ only in summation order: 1e-12 relative is ~1e4 ulps, far
    # below any physics difference and above the round-off of 2e4-particle sums.
    rel = 1e-12
    check("species", 1.0 if P.species == "proton" else 0.0, 1.0, 0)
    check("sigma_x", P["sigma_x"], end["sigma_x"], rel)
    check("sigma_y", P["sigma_y"], end["sigma_y"], rel)
    check("sigma_t [s]", P["sigma_t"], end["sigma_t"] / C, rel)
    # openpmd-beamphysics takes the covariance with N - 1 (numpy.cov), gtrack with N; its mass is
    # scipy's CODATA value, ours CODATA 2018 (1e-9 relative at most).
    unbias = (len(P) - 1) / len(P)
    check("norm_emit_x", P["norm_emit_x"] * unbias, end["emittance_xn"], 1e-8)
    check("norm_emit_y", P["norm_emit_y"] * unbias, end["emittance_yn"], 1e-8)
    check("charge [C]", P.charge, 1e-9, 1e-12)
    with h5py.File(out, "r") as f:
        b = f["data/0/particles/beam"]
        pc = b.attrs["pc_ref"] * 1e6
        check("px [eV/c] particle 7", P.px[7], b["momentum/x"][7] * pc, 1e-12)
        s_ref = b.attrs["s_ref"]
    check("z = s_ref", P["mean_z"], s_ref, 1e-15)

    ts = OpenPMDTimeSeries(tmp, check_all_files=False)
    x, y = ts.get_particle(["x", "y"], species="beam", iteration=0)
    check("openPMD-viewer sigma_x", float(np.std(x)), end["sigma_x"], rel)
    check("openPMD-viewer sigma_y", float(np.std(y)), end["sigma_y"], rel)

    # 2. openpmd-beamphysics writes, gtrack reads: at one plane (fixed s) and at one time (fixed t).
    deck = os.path.join(tmp, "read.toml")
    with open(deck, "w") as d:
        d.write('[run]\nkind = "beamline"\n[beam]\nparticle = "proton"\nkinetic_energy = "250 MeV"\n'
                'macroparticles = 20000\ndistribution = "file"\nfile = "in.h5"\n'
                '[elements]\nM = { type = "marker" }\n[lattice]\nline = ["M"]\n'
                '[output]\nfile = "read.h5"\nstats = "every_element"\n')
    for label, group in (("fixed s", P), ("fixed t", None)):
        if group is None:
            group = P.copy()
            group.drift_to_t(float(np.mean(P.t)))  # every particle at one time, z spread by the bunch length
        group.write(os.path.join(tmp, "in.h5"))
        subprocess.run([gtrack, "run", deck, "--quiet"], check=True, cwd=tmp)
        _, start = last_stats(os.path.join(tmp, "read.h5"))
        # gtrack drifts a fixed-t beam to the plane of its mean z: compare with openpmd-beamphysics'
        # own drift to that plane.
        ref = P
        if label == "fixed t":
            ref = group.copy()
            ref.drift_to_z(float(np.average(group.z, weights=group.weight)))
        # The fixed-t beam was drifted twice in free space, once with scipy's proton mass (CODATA 2022)
        # and once with gtrack's (CODATA 2018), 1.4e-9 apart: the arrival times carry that, 1e-8 bounds it.
        tol = rel if label == "fixed s" else 1e-8
        check(f"{label}: sigma_x", start["sigma_x"], ref["sigma_x"], tol)
        check(f"{label}: sigma_y", start["sigma_y"], ref["sigma_y"], tol)
        check(f"{label}: sigma_t", start["sigma_t"], ref["sigma_t"] * C, tol)
        check(f"{label}: emittance_xn", start["emittance_xn"], ref["norm_emit_x"] * unbias, 1e-8)
        check(f"{label}: alive", start["alive"], len(ref), 0)

print("FAILED: " + ", ".join(failures) if failures else "all checks passed")
sys.exit(1 if failures else 0)
