#!/usr/bin/env python3
"""Published ring lattices (tests/data/lattices: PIMMS, ELENA, BESSY III, SLS 2.0, the CLIC damping ring, the SPS; origin and licence in its
README.md), imported by scripts/import_madx.py without --replace-with-drifts: the deck's length equals
MAD-X's to round-off (the importer itself checks every element's position against MAD-X's SURVEY and
fails otherwise), and gtrack optics gives MAD-X's tunes (with integer part) to 1e-6 and its chromaticities to
1e-4 (relative, or absolute below 1).

Usage: real_lattices_test.py GTRACK SOURCE_DIR [--all] (exit 77 when cpymad or h5py is missing). Without
--all the CLIC damping ring (10 000 elements: 20 s of MAD-X on a loaded 2-core machine), SLS 2.0 and the SPS
(6.9 km) are left out; the ctest entry python_real_lattices_all (label long) runs them."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from madx_common import failures, finish, gtrack, importer, source  # noqa: E402

import h5py  # noqa: E402
from cpymad.madx import Madx  # noqa: E402

folder = os.path.join(source, "tests", "data", "lattices")

# (folder, sequence)
LATTICES = [("pimms", "pimms"), ("elena", "elena"), ("bessy3", "sec")]
if "--all" in sys.argv[3:]:
    LATTICES += [("clic_dr", "ring"), ("sls", "ring"), ("sps", "sps")]


def check(name, got, want, tol):
    """madx_common's check, printing the two values (the lattices' numbers are worth reading)."""
    err = abs(got - want)
    ok = err <= tol
    print(f"{'ok' if ok else 'FAIL':4} {name}: {got:.10g} vs MAD-X {want:.10g} (diff {err:.2e}, bound {tol:g})")
    if not ok:
        failures.append(name)


with tempfile.TemporaryDirectory() as tmp:
    for name, sequence in LATTICES:
        driver = os.path.join(folder, name, "driver.madx")
        deck = os.path.join(tmp, name + ".toml")
        r = subprocess.run([sys.executable, importer, driver, "--sequence", sequence, "-o", deck],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(r.stderr)
            failures.append(f"{name}: import")
            continue
        m = Madx(stdout=False)
        m.chdir(os.path.join(folder, name))
        m.call("driver.madx")
        m.use(sequence=sequence)
        m.twiss(sequence=sequence)
        summ = m.table.summ
        beta = m.sequence[sequence].beam.beta
        h5 = os.path.join(tmp, name + ".h5")
        r = subprocess.run([gtrack, "optics", deck, "--ring", "-o", h5], capture_output=True, text=True)
        if r.returncode != 0:
            print(r.stdout, r.stderr)
            failures.append(f"{name}: gtrack optics")
            continue
        with h5py.File(h5, "r") as f:
            a = dict(f["optics"].attrs)
        # Round-off of a sum of a few thousand lengths: 1e-12 relative.
        check(f"{name}: length [m]", a["length"], summ.length[0], 1e-12 * summ.length[0])
        # The bound: the linear maps agree to ~1e-10 where the elements are gtrack's kinds.
        check(f"{name}: tune_x", a["tune_x"], summ.q1[0], 1e-6)
        check(f"{name}: tune_y", a["tune_y"], summ.q2[0], 1e-6)
        if "synchrotron_tune" in a:
            # One cavity at the zero crossing (CLIC DR: lag 0.5, above transition): the linear one-turn map of
            # (t, pt) gives cos(2 pi Qs) = 1 - a b / 2, a b = (|q| V / p c) 2 pi h |eta| / beta^3, with eta from
            # MAD-X's momentum compaction (eta = alfa - 1/gamma^2). The formula leaves out the coupling of
            # (t, pt) to x through the dispersion and the bends' R51, R52, which moves Qs by a few 1e-6
            # relative (measured 3.6e-6): bound 1e-5.
            import math
            cav = [e for e in m.sequence[sequence].expanded_elements if e.base_type.name == "rfcavity"][0]
            bm = m.sequence[sequence].beam
            eta = summ.alfa[0] - 1 / bm.gamma**2
            ab = cav.volt * 1e-3 / bm.pc * 2 * math.pi * cav.harmon * abs(eta) / bm.beta**3
            check(f"{name}: synchrotron tune", a["synchrotron_tune"], math.acos(1 - ab / 2) / (2 * math.pi),
                  1e-5 * a["synchrotron_tune"])
        # Chromaticity dQ/d delta against MAD-X's beta DQ1, DQ2 (its second-order maps: the exact bend body and
        # the second-order edges give the same T terms, tests/ExactBendTest.cc). The bound, 1e-4 relative,
        # of the natural chromaticity's scale: a corrected ring's Q' (BESSY III: -0.17) is a small difference
        # of sextupole and magnet terms of ~100, and gtrack's five-point stencil leaves ~1e-7 absolute.
        for plane, q in (("x", summ.dq1[0]), ("y", summ.dq2[0])):
            check(f"{name}: chroma_{plane}", a["chroma_" + plane], beta * q, 1e-4 * max(1.0, abs(beta * q)))

finish()
