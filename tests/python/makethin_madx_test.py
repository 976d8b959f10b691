#!/usr/bin/env python3
"""Thin lattices made by MAD-X's MAKETHIN (thin MULTIPOLEs with knl, thin RF cavities, DIPEDGEs of the bends
sliced thick; and with the bends sliced thin: MULTIPOLEs with knl[0] != 0 and lrad, which bend the reference,
gtrack's thin bends), imported by scripts/import_madx.py with no option: the import takes seconds (its processor
time bounded: 20 s for BESSY III's 7 555 entries, 60 s for the 29 438 of the thin CLIC damping ring; a
quadratic loop over the entries would not pass them; wall time printed), the deck's length equals MAD-X's to round-off (the importer itself checks every element's
position against MAD-X's SURVEY) and gtrack optics gives the thin lattice's MAD-X tunes to 1e-6 (the
issue's bound: a thin multipole's kick and the thick slices' maps are exact in both codes).

The drivers (tests/data/lattices/*/makethin*.madx) are ours; the lattices are the published files of
tests/data/lattices/README.md. Without --all BESSY III (7 555 entries, bends thick) and PIMMS with thin bends
(504 entries) run; the ctest entry python_makethin_madx_all (label long) adds the CLIC damping ring (29 438
entries: collider size), BESSY III (9 859) and the SPS (15 120, RBENDs) with thin bends.

Usage: makethin_madx_test.py GTRACK SOURCE_DIR [--all] (exit 77 when cpymad, h5py or numpy is missing)."""
import os
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from madx_common import check, failures, finish, gtrack, importer, source  # noqa: E402

import h5py  # noqa: E402
from cpymad.madx import Madx  # noqa: E402

folder = os.path.join(source, "tests", "data", "lattices")
# (folder, sequence, driver, bound on the import's seconds)
LATTICES = [("bessy3", "sec", "makethin.madx", 20.0), ("pimms", "pimms", "makethin_bends.madx", 10.0)]
if "--all" in sys.argv[3:]:
    LATTICES += [("clic_dr", "ring", "makethin.madx", 60.0), ("bessy3", "sec", "makethin_bends.madx", 30.0),
                 ("sps", "sps", "makethin_bends.madx", 45.0)]

with tempfile.TemporaryDirectory() as tmp:
    for folder_name, sequence, driver_name, seconds in LATTICES:
        name = folder_name + ("" if driver_name == "makethin.madx" else " (thin bends)")
        driver = os.path.join(folder, folder_name, driver_name)
        deck = os.path.join(tmp, folder_name + driver_name + ".toml")
        start, cpu0 = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
        r = subprocess.run([sys.executable, importer, driver, "--sequence", sequence, "-o", deck],
                           capture_output=True, text=True)
        took, cpu1 = time.monotonic() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
        # The processor time of the import and the MAD-X process it ran (its children): the bound does not
        # depend on the machine's load, the wall time (printed) does.
        cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
        if r.returncode != 0:
            print(r.stderr)
            failures.append(f"{name}: import")
            continue
        m = Madx(stdout=False)
        m.chdir(os.path.join(folder, folder_name))
        m.call(driver_name)
        m.use(sequence=sequence)
        entries = len(m.sequence[sequence].expanded_elements)
        print(f"{name}: {entries} entries imported in {took:.1f} s ({cpu:.1f} s of processor time)")
        check(f"{name}: import's processor time [s] ({entries} entries)", cpu, 0.0, seconds)
        kinds = {e.base_type.name for e in m.sequence[sequence].expanded_elements}
        # The premise: the thin lattice has MAKETHIN's thin multipoles and dipole edges.
        check(f"{name}: MAKETHIN made multipoles and dipedges", int({"multipole", "dipedge"} <= kinds), 1, 0)
        if driver_name == "makethin_bends.madx":
            # ... and thin bends: multipoles with a dipole component (the old importer made plain kicks of them,
            # its optics then found no closed orbit or another ring).
            bends = sum(1 for e in m.sequence[sequence].expanded_elements
                        if e.base_type.name == "multipole" and len(e.knl) and e.knl[0] != 0)
            print(f"{name}: {bends} thin bends")
            check(f"{name}: MAKETHIN made thin bends", int(bends > 0), 1, 0)
        t = m.twiss(sequence=sequence)
        h5 = os.path.join(tmp, folder_name + driver_name + ".h5")
        r = subprocess.run([gtrack, "optics", deck, "--ring", "-o", h5], capture_output=True, text=True)
        if r.returncode != 0:
            print(r.stdout, r.stderr)
            failures.append(f"{name}: gtrack optics")
            continue
        with h5py.File(h5, "r") as f:
            a = dict(f["optics"].attrs)
        length = float(t.summary.length)
        check(f"{name}: length [m]", a["length"], length, 1e-12 * length)  # a sum of ~1e4 lengths
        check(f"{name}: tune_x", a["tune_x"], t.summary.q1, 1e-6)
        check(f"{name}: tune_y", a["tune_y"], t.summary.q2, 1e-6)
        if driver_name == "makethin_bends.madx":
            # The thin bends' path term (t += angle x / beta_particle) makes the momentum compaction: MAD-X's
            # alfa, relative 1e-6 (measured 1.1e-10 on PIMMS).
            check(f"{name}: momentum compaction (relative)", a["momentum_compaction"] / t.summary.alfa, 1.0, 1e-6)

finish()
