#!/usr/bin/env python3
"""Published ELEGANT storage rings (tests/data/lattices/elegant: NSLS-II, SPEAR3 and the APS 7 GeV ring from
ELEGANT's own examples; origin and licence in its README.md), imported by scripts/import_elegant.py.

NSLS-II (2 402 elements) and SPEAR3 (766) are imported with no option: the deck's length equals the
reference's to round-off and `gtrack optics` gives the reference's tunes (with integer part) to 1e-6.

The reference is independent of the importer twice over: the file is read by another program's ELEGANT
reader (PyAT's at.load_elegant, accelerator-toolbox on PyPI: its own parser, line expansion and parameter
conventions), and the optics is computed by MAD-X (cpymad) from a MAD-X model this test writes from PyAT's
elements, one for one (drift, quadrupole, sbend with its faces, gap and fringe integrals, sextupole, marker).
The two readers share nothing but the file.

The APS ring (4 300 entries: quoted names with colons, an empty line item, MAXAMP, SCRAPER, MALIGN, RECIRC)
is refused with no option, naming exactly the elements gtrack cannot model (its three MAXAMPs with OPEN_SIDE:
docs/lattice-import.md; its SCRAPERs, in facing pairs, convert); with --replace-with-drifts it imports, its
positions pass the importer's own check against ELEGANT's lengths, and its length is the APS circumference,
1104 m (40 sectors of 27.6 m), to round-off.

Usage: elegant_real_lattices_test.py GTRACK SOURCE_DIR (exit 77 when cpymad, h5py or accelerator-toolbox is
missing)."""
import contextlib
import io
import os
import subprocess
import sys
import tempfile
import warnings

try:
    import h5py
    from cpymad.madx import Madx
    import at
except ImportError as e:
    print(f"skipped: {e}")
    sys.exit(77)

warnings.simplefilter("ignore")
gtrack, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
importer = os.path.join(source, "scripts", "import_elegant.py")
folder = os.path.join(source, "tests", "data", "lattices", "elegant")
failures = []

# (folder, file, momentum p c [GeV]: the examples' own p_central, 3 GeV both)
LATTICES = [("nsls2", "lattice.lte", 3.0), ("spear3", "spear.lte", 3.0)]


def check(name, got, want, tol):
    err = abs(got - want)
    ok = err <= tol
    print(f"{'ok' if ok else 'FAIL':4} {name}: {got:.12g} vs {want:.12g} (diff {err:.2e}, bound {tol:g})")
    if not ok:
        failures.append(name)


def reference(path, pc_gev):
    """MAD-X's tunes and length of PyAT's reading of the file: (q1, q2, length, number of elements)."""
    with contextlib.redirect_stdout(io.StringIO()):
        ring = at.load_elegant(path, energy=pc_gev * 1e9)
    defs = []
    for i, e in enumerate(ring):
        n, kind, length = f"e{i}", type(e).__name__, float(getattr(e, "Length", 0.0))
        if kind == "Dipole":
            k1 = float(e.PolynomB[1]) if len(e.PolynomB) > 1 else 0.0
            defs.append(f"{n}: sbend, l={length!r}, angle={float(e.BendingAngle)!r}, e1={float(e.EntranceAngle)!r}, "
                        f"e2={float(e.ExitAngle)!r}, k1={k1!r}, hgap={float(getattr(e, 'FullGap', 0.0)) / 2!r}, "
                        f"fint={float(getattr(e, 'FringeInt1', 0.0))!r}, "
                        f"fintx={float(getattr(e, 'FringeInt2', 0.0))!r};")
        elif kind == "Quadrupole":
            defs.append(f"{n}: quadrupole, l={length!r}, k1={float(e.PolynomB[1])!r};")
        elif kind == "Sextupole":  # AT's PolynomB[2] is K2/2
            defs.append(f"{n}: sextupole, l={length!r}, k2={2 * float(e.PolynomB[2])!r};")
        elif length > 0:  # drifts, correctors (no kick set), monitors with a length
            defs.append(f"{n}: drift, l={length!r};")
        else:
            defs.append(f"{n}: marker;")
    text = ("\n".join(defs) + "\nring: line=(" + ",".join(f"e{i}" for i in range(len(ring))) + ");\n"
            + f"beam, particle=electron, pc={pc_gev!r};\nuse, sequence=ring;\n")
    m = Madx(stdout=False)
    m.input(text)
    m.twiss()
    s = m.table.summ
    return s.q1[0], s.q2[0], s.length[0], len(ring)


def optics(deck, h5):
    r = subprocess.run([gtrack, "optics", deck, "--ring", "-o", h5], capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stdout, r.stderr)
        return None
    with h5py.File(h5, "r") as f:
        return dict(f["optics"].attrs)


with tempfile.TemporaryDirectory() as tmp:
    for name, filename, pc in LATTICES:
        path = os.path.join(folder, name, filename)
        deck = os.path.join(tmp, name + ".toml")
        r = subprocess.run([sys.executable, importer, path, "--momentum-mev", repr(pc * 1e3), "-o", deck],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(r.stderr)
            failures.append(f"{name}: import with no option")
            continue
        a = optics(deck, os.path.join(tmp, name + ".h5"))
        if a is None:
            failures.append(f"{name}: gtrack optics")
            continue
        q1, q2, length, count = reference(path, pc)
        print(f"     {name}: {count} elements in PyAT's reading")
        # A sum of a few thousand lengths: round-off, 1e-12 relative.
        check(f"{name}: length [m]", a["length"], length, 1e-12 * length)
        # Both are exact linear maps of the same thick elements: measured 6e-11; the bound 1e-6.
        check(f"{name}: tune_x", a["tune_x"], q1, 1e-6)
        check(f"{name}: tune_y", a["tune_y"], q2, 1e-6)

    # The APS ring: refused with no option, naming what gtrack cannot model, and nothing else.
    aps = os.path.join(folder, "aps", "apsKick.lte")
    deck = os.path.join(tmp, "aps.toml")
    r = subprocess.run([sys.executable, importer, aps, "--momentum-mev", "7000", "-o", deck],
                       capture_output=True, text=True)
    named = sorted(line.split()[0] for line in r.stderr.splitlines() if line.startswith("  "))
    want = sorted(["idextru", "id3extru", "idnextru"])
    check("aps: refused with no option (exit status 1)", r.returncode, 1, 0)
    check("aps: names the OPEN_SIDE MAXAMPs, nothing else", 1.0 if named == want else 0.0, 1.0, 0)
    if named != want:
        print(r.stderr)
    check("aps: no deck left behind", 1.0 if not os.path.exists(deck) else 0.0, 1.0, 0)
    r = subprocess.run([sys.executable, importer, aps, "--momentum-mev", "7000", "--replace-with-drifts", "-o", deck],
                       capture_output=True, text=True)
    check("aps: imports with --replace-with-drifts (positions checked)", r.returncode, 0, 0)
    a = optics(deck, os.path.join(tmp, "aps.h5"))
    if a is None:
        failures.append("aps: gtrack optics")
    else:
        # 40 sectors of 27.6 m (APS: 1104 m); the reading's sum of lengths, to round-off.
        check("aps: length [m]", a["length"], 1104.0, 1e-12 * 1104.0)
        print(f"     aps: tunes {a['tune_x']:.8f} {a['tune_y']:.8f}")

print("FAILED: " + ", ".join(failures) if failures else "all checks passed")
sys.exit(1 if failures else 0)
