#!/usr/bin/env python3
"""Lattice import: a MAD-X ring (sector and rectangular bends, quadrupoles, sextupoles) imported through
cpymad and tracked by gtrack gives MAD-X's tunes and beta functions (1e-6); the same ring typed as an
ELEGANT .lte file imports to the same [elements] and [lattice]; unconvertible elements are listed and
fail the import unless replaced by drifts.

Usage: lattice_import_test.py GTRACK SOURCE_DIR (exit 77 when cpymad or openpmd-beamphysics is missing)."""
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from madx_common import failures, finish, gtrack, madx, source  # noqa: E402

import h5py  # noqa: E402
import numpy as np  # noqa: E402

try:
    from beamphysics import ParticleGroup
except ImportError as e:
    print(f"skipped: {e}")
    sys.exit(77)

scripts = os.path.join(source, "scripts")

MADX = """
beam, particle=proton, pc=2.0, ex=1e-8, ey=1e-8;
qf: quadrupole, l=0.5, k1=0.4;
qd: quadrupole, l=0.5, k1=-0.4;
b: sbend, l=2, angle=2*pi/16;
r: rbend, l=1.2, angle=2*pi/32;
sf: sextupole, l=0.2, k2=0.1;
sd: sextupole, l=0.2, k2=-0.15;
d: drift, l=1;
ds: drift, l=0.4;
m1: monitor;
cell: line=(qf, d, sf, b, d, qd, ds, sd, ds, r, d, r, d, m1);
ring: line=(8*cell);
"""
# The same ring for ELEGANT: rectangular bends as RBEN of the same straight (chord) length and angle, as in
# MAD-X (ELEGANT's RBEN L is "magnet (straight) length": it tracks a sector bend of the arc, src/mad_parse.c).
LTE = """! the ring of the MAD-X test
% 2 pi * 16 / sto theta
% 2 pi * 32 / sto half
QF: KQUAD, L=0.5, K1=0.4
QD: QUAD, L=0.5, &
    K1=-0.4
B: CSBEND, L=2, ANGLE="theta"
R: RBEN, L=1.2, ANGLE="half"
SF: KSEXT, L=0.2, K2=0.1
SD: SEXT, L=0.2, K2=-0.15
D: DRIF, L=1
DS: DRIFT, L=0.4
M1: MONI
CELL: LINE=(QF, D, SF, B, D, QD, DS, SD, DS, R, D, R, D, M1)
RING: LINE=(8*CELL)
"""


def check(name, got, want, tol):
    """madx_common's check, printing the two values."""
    err = abs(got - want)
    ok = err <= tol
    print(f"{'ok' if ok else 'FAIL':4} {name}: {got:.12g} vs {want:.12g} (diff {err:.2e}, bound {tol:g})")
    if not ok:
        failures.append(name)


def sections(text, first, last):
    return text[text.index(first):text.index(last)]


with tempfile.TemporaryDirectory() as tmp:
    madx_file = os.path.join(tmp, "ring.madx")
    with open(madx_file, "w") as f:
        f.write(MADX)
    deck_file = os.path.join(tmp, "ring.toml")
    subprocess.run([sys.executable, os.path.join(scripts, "import_madx.py"), madx_file, "--sequence", "ring",
                    "--twiss", "-o", deck_file], check=True)

    mad = madx(MADX)
    tw = mad.twiss(sequence="ring")
    q1, q2 = mad.table.summ.q1[0], mad.table.summ.q2[0]
    at_m1 = [i for i, n in enumerate(tw.name) if n.startswith("m1:")]

    # Finite differences: the reference particle and +-eps in x, px, y, py (same energy), one turn.
    p0 = 2.0e9  # [eV/c]
    eps = [1e-6, 1e-7, 1e-6, 1e-7]
    rows = [np.zeros(4)]
    for k in range(4):
        for sign in (1, -1):
            r = np.zeros(4)
            r[k] = sign * eps[k]
            rows.append(r)
    rows = np.array(rows)
    n = len(rows)
    px, py = rows[:, 1] * p0, rows[:, 3] * p0
    beam = ParticleGroup(data=dict(x=rows[:, 0], px=px, y=rows[:, 2], py=py, z=np.zeros(n),
                                   pz=np.sqrt(p0**2 - px**2 - py**2), t=np.zeros(n), status=np.ones(n, int),
                                   weight=np.full(n, 1e-15), species="proton", id=np.arange(n)))
    beam.write(os.path.join(tmp, "probe.h5"))
    with open(deck_file) as f:
        text = f.read()
    text = re.sub(r"\[beam\.twiss\].*?\n\n", "", text, flags=re.S)
    text = text.replace("macroparticles = 1000", 'macroparticles = 9\ndistribution = "file"\nfile = "probe.h5"')
    text = text.replace('phase_space = ["end"]', 'phase_space = ["m1"]\nfile = "probe_out.h5"')
    with open(os.path.join(tmp, "track.toml"), "w") as f:
        f.write(text)
    subprocess.run([gtrack, "run", "track.toml", "--quiet"], check=True, cwd=tmp)

    def matrix(f, iteration):
        b = f[f"data/{iteration}/particles/beam"]
        order = np.argsort(b["id"][:])
        z = np.stack([b["position/x"][:], b["momentum/x"][:], b["position/y"][:], b["momentum/y"][:]])[:, order]
        return np.stack([(z[:, 1 + 2 * k] - z[:, 2 + 2 * k]) / (2 * eps[k]) for k in range(4)], axis=1)

    with h5py.File(os.path.join(tmp, "probe_out.h5"), "r") as f:
        iterations = sorted(f["data"], key=int)
        maps = [matrix(f, it) for it in iterations]  # start -> k-th m1; the last m1 ends the turn
    turn = maps[-1]
    mus = []
    for plane, q in ((0, q1), (1, q2)):
        m = turn[2 * plane:2 * plane + 2, 2 * plane:2 * plane + 2]
        c = (m[0, 0] + m[1, 1]) / 2
        s = math.copysign(math.sqrt(1 - c * c), m[0, 1])
        mu = math.atan2(s, c) % (2 * math.pi)
        mus.append(s)
        # Both codes are exact in the linear limit here; 1e-6 is the bound (finite differences
        # with eps = 1e-6 m leave ~1e-12).
        check(f"fractional tune {'xy'[plane]}", mu / (2 * math.pi), q % 1.0, 1e-6)
    for k, a in enumerate(maps):
        one_turn_here = a @ turn @ np.linalg.inv(a)
        for plane, column in ((0, tw.betx), (1, tw.bety)):
            beta = one_turn_here[2 * plane, 2 * plane + 1] / mus[plane]
            want = column[at_m1[k]]
            check(f"beta_{'xy'[plane]} at m1 #{k + 1}", beta, want, 1e-6 * want)

    # The ELEGANT lattice imports to the same elements and line.
    lte_file = os.path.join(tmp, "ring.lte")
    with open(lte_file, "w") as f:
        f.write(LTE)
    subprocess.run([sys.executable, os.path.join(scripts, "import_elegant.py"), lte_file, "--particle", "proton",
                    "--momentum-mev", "2000", "-o", os.path.join(tmp, "ring_e.toml")], check=True)
    with open(os.path.join(tmp, "ring_e.toml")) as f:
        lte_deck = f.read()
    with open(deck_file) as f:
        madx_deck = f.read()
    # The same text but for the last bits of the rectangular bend's arc, which ELEGANT (L (angle/2)/sin(angle/2),
    # src/mad_parse.c) and MAD-X compute in their own order: numbers equal to 2 ulp.
    number_pattern = r"-?\d+\.\d+(?:e-?\d+)?"
    a, b = sections(lte_deck, "[elements]", "[output]"), sections(madx_deck, "[elements]", "[output]")
    xs, ys = [float(x) for x in re.findall(number_pattern, a)], [float(y) for y in re.findall(number_pattern, b)]
    same = (re.sub(number_pattern, "#", a) == re.sub(number_pattern, "#", b) and len(xs) == len(ys)
            and all(abs(x - y) <= 2 * math.ulp(max(abs(x), abs(y))) for x, y in zip(xs, ys)))
    check("ELEGANT and MAD-X give the same [elements] and [lattice]", 1.0 if same else 0.0, 1.0, 0)

    # Unconvertible elements: listed by name and type; the import fails unless replaced by drifts.
    with open(os.path.join(tmp, "odd.madx"), "w") as f:
        f.write(MADX.replace("m1: monitor;", "m1: monitor;\ncrab: crabcavity, l=0.3, volt=1, freq=400;")
                .replace("ring: line=(8*cell);", "ring: line=(8*cell, crab);"))
    r = subprocess.run([sys.executable, os.path.join(scripts, "import_madx.py"), os.path.join(tmp, "odd.madx"),
                        "--sequence", "ring", "-o", os.path.join(tmp, "odd.toml")], capture_output=True, text=True)
    check("unconvertible: exit status non-zero", 1.0 if r.returncode != 0 else 0.0, 1.0, 0)
    check("unconvertible: named with its type", 1.0 if "crab (crabcavity)" in r.stderr else 0.0, 1.0, 0)
    r = subprocess.run([sys.executable, os.path.join(scripts, "import_madx.py"), os.path.join(tmp, "odd.madx"),
                        "--sequence", "ring", "--replace-with-drifts", "-o", os.path.join(tmp, "odd.toml")],
                       capture_output=True, text=True)
    with open(os.path.join(tmp, "odd.toml")) as f:
        replaced = 'crab = { type = "drift", length = 0.3 }' in f.read()
    check("--replace-with-drifts: a drift of its length", 1.0 if r.returncode == 0 and replaced else 0.0, 1.0, 0)

finish()
