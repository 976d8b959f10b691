#!/usr/bin/env python3
"""The importers and the element registry: MAD-X SROTATION and ELEGANT ROTATE become gtrack's srotation
(scripts/gtrack_elements.json lists them), the deck they write passes `gtrack check`, and a type the
registry does not map stays unconvertible.

Usage: import_srotation_test.py GTRACK SOURCE_DIR (exit 77 when cpymad is missing)."""
import os
import subprocess
import sys
import tempfile

try:
    import cpymad.madx  # noqa: F401
except ImportError as e:
    print(f"skipped: {e}")
    sys.exit(77)

gtrack, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
scripts = os.path.join(source, "scripts")
sys.path.insert(0, scripts)
from lattice_deck import source_types  # noqa: E402

failures = []


def expect(what, ok):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


expect("the registry maps MAD-X srotation", "srotation" in source_types("madx"))
expect("the registry maps ELEGANT ROTATE", "ROTATE" in source_types("elegant"))

MADX = """
beam, particle=proton, pc=2.0;
r: srotation, angle=0.25;
d: drift, l=1;
q: quadrupole, l=0.5, k1=0.3;
cell: line=(d, r, q, d);
"""
LTE = """R: ROTATE, TILT=0.25
D: DRIF, L=1
Q: QUAD, L=0.5, K1=0.3
CELL: LINE=(D, R, Q, D)
"""
with tempfile.TemporaryDirectory() as tmp:
    madx = os.path.join(tmp, "cell.madx")
    with open(madx, "w") as f:
        f.write(MADX)
    deck = os.path.join(tmp, "madx.toml")
    r = subprocess.run([sys.executable, os.path.join(scripts, "import_madx.py"), madx, "--sequence", "cell",
                        "-o", deck], capture_output=True, text=True)
    expect("import_madx converts SROTATION: " + r.stderr.strip(), r.returncode == 0)
    text = open(deck).read() if r.returncode == 0 else ""
    expect("MAD-X r becomes srotation with angle 0.25", 'type = "srotation"' in text and "0.25" in text)
    c = subprocess.run([gtrack, "check", deck], capture_output=True, text=True)
    expect("gtrack check reads the MAD-X import: " + c.stderr.strip()[-300:], c.returncode == 0 and "s rotation" in c.stdout)

    lte = os.path.join(tmp, "cell.lte")
    with open(lte, "w") as f:
        f.write(LTE)
    deck = os.path.join(tmp, "lte.toml")
    r = subprocess.run([sys.executable, os.path.join(scripts, "import_elegant.py"), lte, "--use", "CELL",
                        "--particle", "proton", "--momentum-mev", "2000", "-o", deck], capture_output=True, text=True)
    expect("import_elegant converts ROTATE: " + r.stderr.strip(), r.returncode == 0)
    text = open(deck).read() if r.returncode == 0 else ""
    expect("ELEGANT R becomes srotation with angle 0.25, no tilt",
           'type = "srotation"' in text and "angle = 0.25" in text and "tilt" not in text)
    c = subprocess.run([gtrack, "check", deck], capture_output=True, text=True)
    expect("gtrack check reads the ELEGANT import: " + c.stderr.strip()[-300:], c.returncode == 0)

    # A MAD-X type the registry maps to nothing stays unconvertible (the import fails and names it).
    with open(madx, "w") as f:
        f.write("beam, particle=proton, pc=2.0;\ny: yrotation, angle=0.001;\nd: drift, l=1;\ncell: line=(d, y, d);\n")
    r = subprocess.run([sys.executable, os.path.join(scripts, "import_madx.py"), madx, "--sequence", "cell",
                        "-o", os.path.join(tmp, "y.toml")], capture_output=True, text=True)
    expect("YROTATION is refused as unconvertible", r.returncode != 0 and "yrotation" in (r.stderr + r.stdout).lower())

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
