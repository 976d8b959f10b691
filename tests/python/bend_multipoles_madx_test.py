#!/usr/bin/env python3
"""Bends with multipole components in the body (K1S, K2S, K3, K3S, KNL, KSL of SBEND and RBEND) and exact
thick solenoids, imported by scripts/import_madx.py, against MAD-X (cpymad).

What MAD-X does with them (its source, src/twiss.f90 tmbend and src/mad_dict.c): TWISS's thick bend takes
K1 and K2 only; K1S, K2S, K3, K3S, KNL and KSL are ignored there ("ld: ignored"). PTC takes them all, as
one body field with KNL/L and KSL/L added to the K's (src/madx_ptc_module.f90, SBEND: k(2) = K1 + KNL(1)/L,
ks(2) = K1S + KSL(1)/L, ...), and so does gtrack. So:

- Ring A (uncoupled): sector and rectangular bends carrying KNL, KSL, K2S, K3, K3S, and a pair of opposite
  thick solenoids, against MAD-X TWISS of the same ring with KNL(1)/L, KNL(2)/L written into K1, K2 (what
  PTC does with them) and the rest left out (none of them acts at zero orbit to first order in delta):
  tunes to 1e-8, beta and D at every element exit to 1e-6 relative, chromaticities to 1e-4 relative
  (solenoids: MAD-X's chromatic solenoid map, gtrack's exact model). The control: the same ring with the
  solenoids of the linear model misses their chromatic terms (the check can fail).
- Ring C (coupled): K1S and KSL(1) in bends, one solenoid: eigen-tunes against PTC_TWISS to 1e-8.
- Ring O: dipole components (KNL(0), KSL(0)) and K2S, K3 in bends: the closed orbit at every element exit
  against PTC_TWISS's to 1e-9 m.
- The importers write the keys (and no longer refuse them): MAD-X's, and ELEGANT's CSBEND K3, K4.

Usage: bend_multipoles_madx_test.py GTRACK SOURCE_DIR (exit 77 when cpymad or h5py is missing)."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from madx_common import check, finish, gtrack, gtrack_optics, madx_twiss, source  # noqa: E402

import numpy as np  # noqa: E402

RING = """
beam, particle=proton, pc=2.0;
qf: quadrupole, l=0.5, k1=0.4;
qd: quadrupole, l=0.5, k1=-0.4;
bf: sbend, l=2, angle=2*pi/16, k1={k1f}, k2={k2f}, e1=0.03 {bf};
bd: sbend, l=1.2, angle=2*pi/32, k1={k1d}, k2={k2d}, fint=0.5, hgap=0.03, e2=0.05 {bd};
r: rbend, l=1.2, angle=2*pi/32 {r};
sf: multipole, knl={{0, 0, 0.3}};
sd: multipole, knl={{0, 0, -0.5}};
so1: solenoid, l=0.3, ks={ks};
so2: solenoid, l=0.3, ks=-{ks};
d: drift, l=1;
ds: drift, l=0.4;
cell: line=(qf, d, sf, bf, d, qd, ds, sd, ds, bd, d, r, so1, so2, d);
ring: line=(8*cell);
"""


def ring(**kw):
    v = dict(k1f=0.05, k2f=0.3, k1d=-0.08, k2d=-0.4, bf="", bd="", r="", ks=0.0)
    v.update(kw)
    return RING.format(**v)


def madx(text, tmp, ptc=False):
    m, t = madx_twiss(text, cwd=tmp)  # PTC writes files (internal_mag_pot.txt) where MAD-X runs
    if ptc:
        # PTC's exact model, matrix-kick-matrix, 6th-order integrator: nst 10 and 30 give the same tunes to
        # 1e-10 on these rings.
        m.input("ptc_create_universe; ptc_create_layout, model=2, method=6, nst=10, exact=true;"
                "ptc_twiss, icase=4, no=1, closed_orbit; ptc_end;")
    return m, t


a = 2 * np.pi / 32
r_arc = float(1.2 * (a / 2) / np.sin(a / 2))  # MAD-X's RBEND: L is the chord; KNL spread over the arc

with tempfile.TemporaryDirectory() as tmp:
    # ---- ring A: MAD-X TWISS with KNL(1), KNL(2) as K1, K2 ----------------------------------------------
    extras = dict(bf=", knl={0,0.04,0.2,3,40}, ksl={0,0,0.3,2}, k2s=0.2, k3=3, k3s=1",
                  bd=", k2s=-0.3, k3=-2, knl={0,-0.03,0.1}", r=", knl={0,0.01,0.05}, k3=4")
    ring_a = ring(ks=0.7, **extras)
    as_k = ring(ks=0.7, k1f=0.05 + 0.04 / 2, k2f=0.3 + 0.2 / 2, k1d=-0.08 - 0.03 / 1.2, k2d=-0.4 + 0.1 / 1.2,
                r=f", k1={0.01 / r_arc!r}, k2={0.05 / r_arc!r}")
    m, t = madx(as_k, tmp)
    summ, beta_rel = m.table.summ, m.sequence.ring.beam.beta
    g = gtrack_optics(tmp, ring_a, "ring_a")
    for what, text in (("k1s/k2s/k3/k3s/knl/ksl written", 'knl = [0.0, 0.04, 0.2, 3.0, 40.0], '
                        'ksl = [0.0, 0.0, 0.3, 2.0]'), ("k2s", "k2s = 0.2"), ("k3", "k3 = 3.0"), ("k3s", "k3s = 1.0"),
                       ("rbend knl", "knl = [0.0, 0.01, 0.05]"), ("solenoid model exact", 'model = "exact"')):
        check(f"importer: {what}", 0 if text in g["toml"] else 1, 0, 0)
    inner = slice(1, len(t.s) - 1)
    names = [n.split(":")[0] for n in t.name[inner]]
    # Tunes: both maps are exact at the design momentum (gtrack's KNL(1) in the bend's linear flow, as K1);
    # the optics' centred differences leave ~1e-11.
    check("ring A: tune_x", g["tune_x"], summ.q1[0], 1e-8)
    check("ring A: tune_y", g["tune_y"], summ.q2[0], 1e-8)
    # Between the two solenoids the motion is coupled (the first turns the planes, the second turns them
    # back); MAD-X and gtrack define beta_x there differently: those rows (so1's exits) are left out.
    rows = np.array([n != "so1" for n in names])
    for plane in "xy":
        bt = t["bet" + plane][inner][rows]
        check(f"ring A: beta_{plane} at every exit but inside the solenoid pair (relative)",
              g["beta_" + plane][1:][rows] / bt, np.ones_like(bt), 1e-6)
    dx = beta_rel * t.dx[inner]
    check("ring A: D_x at every exit (relative to max |D_x|)", g["D_x"][1:] / np.max(np.abs(dx)),
          dx / np.max(np.abs(dx)), 1e-6)
    # Chromaticity: MAD-X's DQ1 (per PT) times beta is dQ/d delta; the bends' second-order terms and the
    # solenoids' chromatic terms are in both maps; the five-point stencil leaves ~1e-9 (measured 3e-7).
    for plane, q in (("x", summ.dq1[0]), ("y", summ.dq2[0])):
        print(f"     chroma_{plane}: gtrack {g['chroma_' + plane]:.10f}, MAD-X {beta_rel * q:.10f}")
        check(f"ring A: chroma_{plane} (relative)", g["chroma_" + plane] / (beta_rel * q), 1.0, 1e-4)
    # The control: the solenoids of the linear model (no chromatic terms) miss MAD-X's chromaticity.
    lin = gtrack_optics(tmp, ring_a, "ring_a_linear_solenoids", lambda b: b.replace(', model = "exact"', ""))
    check("ring A, linear solenoids: chroma_x differs by > 1e-3 relative (the check can fail)",
          0 if abs(lin["chroma_x"] / (beta_rel * summ.dq1[0]) - 1) > 1e-3 else 1, 0, 0)
    check("ring A, linear solenoids: the same tunes", lin["tune_x"], summ.q1[0], 1e-8)

    # ---- ring C: skew gradients in the bends, one solenoid: eigen-tunes against PTC ----------------------
    ring_c = ring(ks=0.7, bf=", k1s=0.02, knl={0,0,0,3}, ksl={0,0.01,0.1}", r=", k1s=-0.03, k3s=2").replace(
        "so1, so2, d", "so1, d")
    m, _ = madx(ring_c, tmp, ptc=True)
    p = m.table.ptc_twiss_summary
    # The skew gradient is a kick of the split steps (its linear part is not exact like k1's): the tune error
    # falls as steps^-4, 1e-7 at the default steps here, 7e-9 with 16 (measured): 32 for the test.
    g = gtrack_optics(tmp, ring_c, "ring_c", lambda b: b.replace('type = "sbend",', 'type = "sbend", kicks = 32,'))
    check("ring C: coupled flag", g["coupled"], 1, 0)
    check("ring C: eigen-tune 1 against PTC (fractional)", g["tune_x"] % 1.0, p.q1[0], 1e-8)
    check("ring C: eigen-tune 2 against PTC (fractional)", g["tune_y"] % 1.0, p.q2[0], 1e-8)

    # ---- ring O: dipole components in the bodies: the closed orbit against PTC -----------------------------
    ring_o = ring(bf=", knl={2e-5,0,0,3}, k3=2", r=", ksl={-1e-5}, k2s=0.5", bd=", knl={-1e-5}")
    m, _ = madx(ring_o, tmp, ptc=True)
    pt = m.table.ptc_twiss
    g = gtrack_optics(tmp, ring_o, "ring_o")
    n = len(g["x_co"])
    print(f"     largest |x_co| {np.max(np.abs(pt.x)):.3g} m, |y_co| {np.max(np.abs(pt.y)):.3g} m")
    # Without the curvature term of the dipole component (px -= l a0 h x) the difference was 2e-9 m; the
    # hkicker-only orbit agrees to 5e-13 m.
    check("ring O: closed orbit x at every exit [m]", g["x_co"][1:], pt.x[1:n], 1e-9)
    check("ring O: closed orbit y at every exit [m]", g["y_co"][1:], pt.y[1:n], 1e-9)
    check("ring O: closed orbit px at every exit", g["px_co"][1:], pt.px[1:n], 1e-9)
    check("ring O: closed orbit py at every exit", g["py_co"][1:], pt.py[1:n], 1e-9)

    # ---- ELEGANT: CSBEND's K3, K4 into the body's octupole and decapole ------------------------------------
    lte = os.path.join(tmp, "bend.lte")
    with open(lte, "w") as f:
        f.write("B: CSBEND, L=2, ANGLE=0.1, K1=0.05, K2=0.3, K3=4.5, K4=60\nD: DRIF, L=1\nL1: LINE=(B, D)\n")
    r = subprocess.run([sys.executable, os.path.join(source, "scripts", "import_elegant.py"), lte, "--particle",
                        "proton", "--momentum-mev", "2000", "-o", os.path.join(tmp, "bend.toml")],
                       capture_output=True, text=True)
    check("ELEGANT CSBEND with K3, K4: imports", r.returncode, 0, 0)
    with open(os.path.join(tmp, "bend.toml")) as f:
        body = f.read()
    check("ELEGANT CSBEND: K3 as k3, K4 L as knl[4]",
          0 if "k3 = 4.5, knl = [0.0, 0.0, 0.0, 0.0, 120.0]" in body else 1, 0, 0)
    r = subprocess.run([gtrack, "check", os.path.join(tmp, "bend.toml")], capture_output=True, text=True)
    check("ELEGANT CSBEND: gtrack check reads the deck", r.returncode, 0, 0)

finish()
