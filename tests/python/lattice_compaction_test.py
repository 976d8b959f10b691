"""[lattice] merge_drifts on an imported light source (issue 45): the BESSY III design ring of
tests/data/lattices/bessy3 (MAD-X, imported by scripts/import_madx.py) has its table compacted from
`gtrack check`'s entry count N to the count its rules give on the full listing (empty thin multipoles left out,
drifts merged; this file has no markers), with the same length, and tracked 20 turns the compacted table keeps the same survivors
and final coordinates to round-off as the full one.
    python3 lattice_compaction_test.py GTRACK SOURCE_DIR
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from madx_common import failures, finish, gtrack, importer, source  # noqa: E402

import h5py  # noqa: E402
import numpy as np  # noqa: E402


KINDS = r"(thick multipole|multipole|drift|quadrupole|dipole edge|sbend body \(exact\)|sbend body|marker|monitor|kicker|" \
        r"aperture|rf cavity|solenoid|collimator|s rotation|thin solenoid)"
ROW = re.compile(r"^\s*(\d+)\s+(.+?)\s+" + KINDS + r"\s+(-?[\d.]+)\s+(-?[\d.]+)\s*(.*)$")


def entries(deck, *overrides):
    """`gtrack check`'s entry count and length, and its rows (kind, parameters)."""
    args = [gtrack, "check", deck]
    for o in overrides:
        args += ["--set", o]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stdout, r.stderr)
        failures.append("gtrack check")
        return 0, 0.0, []
    m = re.search(r"lattice: (\d+) entries, (\S+) m", r.stdout)
    rows = [(g.group(3), g.group(6)) for g in map(ROW.match, r.stdout.splitlines()) if g]
    return int(m.group(1)), float(m.group(2)), rows


def compacted_count(rows):
    """The compaction's rules (docs/decks.md, "Compacted table") applied to the full table's listing: markers,
    monitors, thin multipoles without coefficients and zero kickers go; each run of drifts (of one model) with
    only those between them becomes one entry. (No entry here is misaligned or an output point.)"""
    count, previous_drift = 0, None
    for kind, params in rows:
        nothing = kind in ("marker", "monitor") or (kind == "multipole" and params.startswith("knl=[], ksl=[]"))
        if nothing:
            continue
        if kind == "drift":
            if previous_drift == params:  # the same model: merged into the run
                continue
            previous_drift = params
        else:
            previous_drift = None
        count += 1
    return count


with tempfile.TemporaryDirectory() as tmp:
    folder = os.path.join(source, "tests", "data", "lattices", "bessy3")
    deck = os.path.join(tmp, "bessy3.toml")
    r = subprocess.run([sys.executable, importer, os.path.join(folder, "driver.madx"), "--sequence", "sec",
                        "--twiss", "-o", deck], capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stderr)
        failures.append("import")
        finish()
    full, length, rows = entries(deck)
    merged, merged_length, _ = entries(deck, "lattice.merge_drifts=true")
    expected = compacted_count(rows)
    print(f"bessy3: {full} table entries, {merged} compacted, {expected} by the rules ({length} m, {merged_length} m)")
    # This file (converted by PyAT) has no markers or monitors: only its empty thin multipoles go.
    if not (len(rows) == full > 2000 and merged == expected < full):
        failures.append(f"entry counts {full} -> {merged} (expected {expected})")
    if merged_length != length:
        failures.append("length")
    # Tracked 20 turns both ways (500 particles of the imported beam: all survive in this dynamic aperture).
    out = {}
    for merge in ("false", "true"):
        h5 = os.path.join(tmp, f"b_{merge}.h5")
        r = subprocess.run([gtrack, "run", deck, "--backend", "cpu", "-q", "-o", h5, "--set", "beam.macroparticles=500",
                            "--set", "lattice.turns=20", "--set", 'output.stats="end"', "--set",
                            f"lattice.merge_drifts={merge}"], capture_output=True, text=True)
        if r.returncode != 0:
            print(r.stdout, r.stderr)
            failures.append(f"run merge_drifts={merge}")
            finish()
        with h5py.File(h5, "r") as f:
            (it,) = list(f["data"].keys())[-1:]
            beam = f[f"data/{it}/particles/beam"]
            out[merge] = (np.asarray(f["lost/id"]), np.asarray(beam["position/x"]), np.asarray(beam["momentum/x"]))
    lost_full, x_full, px_full = out["false"]
    lost_merged, x_merged, px_merged = out["true"]
    if not np.array_equal(lost_full, lost_merged):
        failures.append("lost particles")
    elif x_full.shape != x_merged.shape:
        failures.append("survivors")
    else:
        # Round-off of the merged sums (~1e-16 relative per merge), carried and grown through 20 turns of a ring
        # with strong sextupoles (LatticeCompactionTest measures ~1e-11 relative after 40 turns of its ring):
        # 1e-9 of the largest coordinate bounds it; a wrong merge moves particles by their own size.
        dx = float(np.max(np.abs(x_full - x_merged)))
        print(f"largest |x difference| {dx:.3g} m over {x_full.size} survivors")
        if dx > 1e-9 * float(np.max(np.abs(x_full))):
            failures.append(f"coordinates differ by {dx}")
finish()
