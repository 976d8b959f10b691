#!/usr/bin/env python3
"""A published ELEGANT transport line (tests/data/lattices/elegant/ptb: the APS PAR-to-Booster line of ELEGANT's
example transportLineSteering/twoPlaneSteering; origin and licence in that folder's README.md), imported by
scripts/import_elegant.py with no option, at the example's own p_central (84.12392 m c, electrons).

`gtrack optics --line` propagates a beam's Twiss parameters (ours: the example tracks one particle and gives
none) through it; beta, alpha and the dispersion D, D' at the end are compared with MAD-X's TWISS (cpymad) of a
MAD-X model this test writes from another program's reading of the file: PyAT's at.load_elegant
(accelerator-toolbox on PyPI: its own parser, line expansion and ELEGANT conventions), element for element as
tests/python/elegant_real_lattices_test.py does (PyAT reads a copy with the type words in ELEGANT's own spelling:
it knows no other). The two readers share nothing but the file. Bounds: the issue's
1e-6 (relative for beta, of the largest |D| for D); the length to round-off.

Usage: elegant_line_test.py GTRACK SOURCE_DIR (exit 77 when cpymad, h5py, numpy or accelerator-toolbox is
missing)."""
import contextlib
import io
import os
import re
import subprocess
import sys
import tempfile
import warnings

try:
    import h5py
    import numpy as np
    from cpymad.madx import Madx
    import at
except ImportError as e:
    print(f"skipped: {e}")
    sys.exit(77)

warnings.simplefilter("ignore")
gtrack, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
importer = os.path.join(source, "scripts", "import_elegant.py")
path = os.path.join(source, "tests", "data", "lattices", "elegant", "ptb", "lattice.lte")
failures = []
ELECTRON_MEV = 0.51099895000  # CODATA 2018 m_e c^2
PC_MEV = 84.12392 * ELECTRON_MEV  # the example's run.ele: p_central = 84.12392 (units of m c)
# Ours: a beam at the line's entrance (beta [m], alpha).
TWISS = {"beta_x": 6.0, "alpha_x": -0.8, "beta_y": 9.0, "alpha_y": 1.2}


ELEGANT_WORDS = {"marker": "MARK", "hmonitor": "HMON", "vmonitor": "VMON", "hkicker": "HKICK", "vkicker": "VKICK",
                 "quadrupole": "QUAD", "sbend": "SBEN", "drift": "DRIF"}


def check(name, got, want, tol):
    err = abs(got - want)
    ok = err <= tol
    print(f"{'ok' if ok else 'FAIL':4} {name}: {got:.12g} vs {want:.12g} (diff {err:.2e}, bound {tol:g})")
    if not ok:
        failures.append(name)


def madx_reference(tmp):
    """MAD-X's TWISS at the end of PyAT's reading: (betx, alfx, bety, alfy, dx, dpx, length, beta_rel, count)."""
    # PyAT's reader knows ELEGANT's own type words only; the file spells its types as MAD does (`marker`,
    # `hmonitor`, `sbend`, ...), which ELEGANT reads as the same types: the copy PyAT reads has them in ELEGANT's
    # spelling, nothing else changed.
    with open(path) as f:
        text = re.sub(r"^(\w+): (\w+)", lambda m: m.group(1) + ": " + ELEGANT_WORDS.get(m.group(2), m.group(2)),
                      f.read(), flags=re.M)
    copy = os.path.join(tmp, "ptb_for_pyat.lte")
    with open(copy, "w") as f:
        f.write(text)
    with contextlib.redirect_stdout(io.StringIO()):
        line = at.load_elegant(copy, energy=PC_MEV * 1e6, use="ptb")
    defs = []
    for i, e in enumerate(line):
        n, kind, length = f"e{i}", type(e).__name__, float(getattr(e, "Length", 0.0))
        if kind == "Dipole":
            k1 = float(e.PolynomB[1]) if len(e.PolynomB) > 1 else 0.0
            defs.append(f"{n}: sbend, l={length!r}, angle={float(e.BendingAngle)!r}, e1={float(e.EntranceAngle)!r}, "
                        f"e2={float(e.ExitAngle)!r}, k1={k1!r}, hgap={float(getattr(e, 'FullGap', 0.0)) / 2!r}, "
                        f"fint={float(getattr(e, 'FringeInt1', 0.0))!r}, "
                        f"fintx={float(getattr(e, 'FringeInt2', 0.0))!r};")
        elif kind == "Quadrupole":
            defs.append(f"{n}: quadrupole, l={length!r}, k1={float(e.PolynomB[1])!r};")
        elif length > 0:  # drifts, correctors with no kick set
            defs.append(f"{n}: drift, l={length!r};")
        else:
            defs.append(f"{n}: marker;")
    m = Madx(stdout=False)
    m.input("\n".join(defs) + "\nptb: line=(" + ",".join(f"e{i}" for i in range(len(line))) + ");\n"
            + f"beam, particle=electron, pc={PC_MEV * 1e-3!r};\nuse, sequence=ptb;\n")
    t = m.twiss(betx=TWISS["beta_x"], alfx=TWISS["alpha_x"], bety=TWISS["beta_y"], alfy=TWISS["alpha_y"])
    return (t.betx[-1], t.alfx[-1], t.bety[-1], t.alfy[-1], t.dx[-1], t.dpx[-1], t.s[-1],
            m.sequence.ptb.beam.beta, len(line), np.max(np.abs(t.dx)))


with tempfile.TemporaryDirectory() as tmp:
    deck, h5 = os.path.join(tmp, "ptb.toml"), os.path.join(tmp, "ptb.h5")
    r = subprocess.run([sys.executable, importer, path, "--momentum-mev", repr(PC_MEV), "-o", deck],
                       capture_output=True, text=True)
    check("ptb: imports with no option (exit status 0; positions checked)", r.returncode, 0, 0)
    if r.returncode != 0:
        print(r.stderr)
        sys.exit(1)
    sets = [a for k, v in TWISS.items() for a in ("--set", f"beam.twiss.{k}={v!r}")]
    r = subprocess.run([gtrack, "optics", deck, "--line", *sets, "-o", h5], capture_output=True, text=True)
    check("ptb: gtrack optics --line runs", r.returncode, 0, 0)
    if r.returncode != 0:
        print(r.stdout, r.stderr)
        sys.exit(1)
    with h5py.File(h5, "r") as f:
        g = {k: f["optics"][k][-1] for k in ("beta_x", "alpha_x", "beta_y", "alpha_y", "D_x", "Dp_x", "s")}
    betx, alfx, bety, alfy, dx, dpx, length, beta_rel, count, dmax = madx_reference(tmp)
    print(f"     ptb: {count} elements in PyAT's reading, {length:.6f} m")
    check("ptb: length [m]", g["s"], length, 1e-12 * length)  # a sum of ~100 lengths
    # Both are exact linear maps of the same thick elements and first-order edges (fint, hgap): 1e-6, the issue's.
    check("ptb: beta_x at the end (relative)", g["beta_x"] / betx, 1.0, 1e-6)
    check("ptb: beta_y at the end (relative)", g["beta_y"] / bety, 1.0, 1e-6)
    check("ptb: alpha_x at the end", g["alpha_x"], alfx, 1e-6 * max(1.0, abs(alfx)))
    check("ptb: alpha_y at the end", g["alpha_y"], alfy, 1e-6 * max(1.0, abs(alfy)))
    # gtrack's D is d x / d delta, MAD-X's DX d x / d PT times beta (docs/optics.md): beta_rel DX.
    check("ptb: D_x at the end (of the largest |D_x|)", g["D_x"], beta_rel * dx, 1e-6 * beta_rel * dmax)
    check("ptb: D'_x at the end", g["Dp_x"], beta_rel * dpx, 1e-6 * max(1e-3, abs(dpx)))

print("FAILED: " + ", ".join(failures) if failures else "all checks passed")
sys.exit(1 if failures else 0)
