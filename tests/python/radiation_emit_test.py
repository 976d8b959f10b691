#!/usr/bin/env python3
"""The equilibrium of a radiating electron ring (3 GeV, 32 sector bends, one cavity: a light source's
figures, synchronous phase 72 deg) from gtrack optics against MAD-X's EMIT (cpymad) and Xsuite's radiation
twiss (xtrack, when installed): the synchrotron tune, the energy loss per turn U0, the damping partition
numbers and times, and the natural energy spread.

The deck comes from scripts/import_madx.py with no option: BEAM, RADIATE gives [lattice] radiation = "mean",
so gtrack optics computes the 6D model (docs/optics.md, "Models") and says so. Before the fix the synchrotron
tune was computed at the zero crossing (the 6D orbit without the radiation loss): Qs / sqrt(cos psi), with
psi = 90 deg - phi_s the synchronous phase from the zero crossing: 2.4% high here. The 4D model (--model 4d)
gives MAD-X's TWISS tunes and no synchrotron tune.

Tolerances (relative): Qs 1e-4 (the issue's bound; MAD-X and Xsuite agree to 1e-7 here); U0 1e-4 (the same
integral I2 in all three: MAD-X and Xsuite agree to 3e-6); the map's damping partition numbers and times 1e-4
against Xsuite (2e-4 for x: see there), and 5e-3 against MAD-X's EMIT (which differs from Xsuite by 3.4e-3 in Jx on this ring); the
natural energy spread (gtrack's from the integrals, sqrt(Cq gamma^2 I3 / (Je I2))) 1.5e-4 against Xsuite's
equilibrium at the cavity (sqrt of the 6D equilibrium's <delta^2>, from its W matrix and emittances): a
lumped cavity makes the spread at the cavity differ from the ring's average by about (2 pi Qs)^2 / 24 = 7e-5
here; and 1e-3 against MAD-X's EMIT (sige; 5e-4 from Xsuite's).

Usage: radiation_emit_test.py GTRACK SOURCE_DIR (exit 77 when cpymad, h5py or numpy is missing; the Xsuite
checks are skipped, said so, when xtrack is missing)."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from madx_common import failures, finish, gtrack, importer, madx  # noqa: E402

import h5py  # noqa: E402

RING = """b: sbend, l = 1.5, angle = 2*pi/32;
qf: quadrupole, l = 0.3, k1 = 1.0;
qd: quadrupole, l = 0.3, k1 = -1.0;
cav: rfcavity, l = 0.0, volt = 3.1, harmon = 2, lag = 0.5;
cell: sequence, l = 6.0, refer = centre;
qf, at = 0.15; b, at = 1.45; qd, at = 3.0; b, at = 4.55;
endsequence;
ring: sequence, l = 96.0, refer = entry;
cav, at = 0.0;
""" + "".join(f"cell, at = {6 * k};\n" for k in range(16)) + """endsequence;
beam, particle = electron, energy = 3.0, radiate = true;
"""


def text(value):
    """An HDF5 string attribute as str (h5py gives bytes for fixed-length strings)."""
    return value.decode() if isinstance(value, bytes) else str(value)


def check(name, got, want, rel):
    err = abs(got - want) / abs(want)
    ok = err <= rel
    print(f"{'ok' if ok else 'FAIL':4} {name}: {got:.9g} vs {want:.9g} (relative {err:.2e}, bound {rel:g})")
    if not ok:
        failures.append(name)


with tempfile.TemporaryDirectory() as tmp:
    src, deck, h5 = (os.path.join(tmp, n) for n in ("ring.madx", "ring.toml", "ring.h5"))
    with open(src, "w") as f:
        f.write(RING)
    subprocess.run([sys.executable, importer, src, "--sequence", "ring", "-o", deck], check=True)
    r = subprocess.run([gtrack, "optics", deck, "--ring", "-o", h5], capture_output=True, text=True)
    print(r.stdout[:2000])
    if r.returncode != 0:
        print(r.stderr)
        raise SystemExit("gtrack optics failed")
    with h5py.File(h5, "r") as f:
        g = dict(f["optics"].attrs)
    if text(g.get("model")) != "6d" or "model: 6D with RF and radiation" not in r.stdout:
        failures.append("the 6D model, said in the terminal and the file")

    m = madx(RING)
    twiss = m.twiss(sequence="ring")
    m.command.emit(deltap=0)
    emit = m.table.emitsumm
    pdamp = list(m.sequence.ring.beam.pdamp)

    check("Qs vs MAD-X EMIT", g["synchrotron_tune"], emit.qs[0], 1e-4)
    check("U0 [eV] vs MAD-X EMIT", g["U0"], emit.u0[0] * 1e9, 1e-4)
    for k, plane in enumerate("xye"):
        check(f"J{plane} (one-turn map) vs MAD-X EMIT", g[f"map_damping_partition_{plane}"], pdamp[k], 5e-3)
    check("energy spread vs MAD-X EMIT", g["natural_energy_spread"], emit.sige[0], 1e-3)

    try:
        import xtrack as xt
    except ImportError:
        print("skipped: the Xsuite checks (xtrack is not installed)")
        xt = None
    if xt is not None:
        line = xt.Line.from_madx_sequence(m.sequence.ring, deferred_expressions=False)
        line.particle_ref = xt.Particles(mass0=xt.ELECTRON_MASS_EV, q0=-1, energy0=3e9)
        line.build_tracker()
        line.configure_radiation(model="mean")
        tw = line.twiss(eneloss_and_damping=True)
        check("Qs vs Xsuite", g["synchrotron_tune"], tw.qs, 1e-4)
        check("U0 [eV] vs Xsuite", g["U0"], tw.eneloss_turn, 1e-4)
        for k, plane in enumerate("xye"):
            # x: 2e-4, measured 1.2e-4 (gtrack's Jx from the map equals its I4/I2 one to 3e-6; Xsuite's partition
            # numbers sum to 4 + 1.3e-4, Robinson's sum, so part of it is Xsuite's own); y, e: 1e-4.
            bound = 2e-4 if plane == "x" else 1e-4
            check(f"J{plane} (one-turn map) vs Xsuite", g[f"map_damping_partition_{plane}"],
                  tw.partition_numbers[k], bound)
            # Xsuite's damping constants are rates of the amplitude's logarithm [1/s]: tau = 1 / constant.
            check(f"tau_{plane} (one-turn map) vs Xsuite", g[f"map_damping_time_{plane}"],
                  1.0 / tw.damping_constants_s[k], bound)
        w = tw.W_matrix[0]
        sigma_delta = (tw.eq_gemitt_x * (w[5, 0] ** 2 + w[5, 1] ** 2) + tw.eq_gemitt_y * (w[5, 2] ** 2 + w[5, 3] ** 2)
                       + tw.eq_gemitt_zeta * (w[5, 4] ** 2 + w[5, 5] ** 2)) ** 0.5
        check("energy spread vs Xsuite", g["natural_energy_spread"], sigma_delta, 1.5e-4)
    # The 4D model on request: MAD-X's TWISS tunes, no synchrotron tune.
    r = subprocess.run([gtrack, "optics", deck, "--ring", "--model", "4d", "-o", h5], capture_output=True,
                       text=True)
    with h5py.File(h5, "r") as f:
        g4 = dict(f["optics"].attrs)
    # MAD-X's TWISS without RADIATE (with it, its orbit holds the energy loss's sawtooth): the linear maps are
    # exact in both codes (optics_madx_test.py: 1e-10).
    plain = madx(RING.replace("radiate = true", "radiate = false")).twiss(sequence="ring")
    check("--model 4d: tune_x vs MAD-X TWISS", g4["tune_x"], plain.summary.q1, 1e-8)
    check("--model 4d: tune_y vs MAD-X TWISS", g4["tune_y"], plain.summary.q2, 1e-8)
    if text(g4.get("model")) != "4d" or "synchrotron_tune" in g4:
        failures.append("--model 4d: the 4D model, no synchrotron tune")

    # The light source imported without RADIATE, its cavity off the zero crossing (LAG = 0.45: phased to give
    # energy): gtrack optics with no key or flag computes the 4D model, the cavity's gain left out, says so,
    # and gives MAD-X's TWISS tunes. Before, it stopped with "the lattice changes the reference energy".
    plain_text = RING.replace("radiate = true", "radiate = false").replace("lag = 0.5", "lag = 0.45")
    with open(src, "w") as f:
        f.write(plain_text)
    subprocess.run([sys.executable, importer, src, "--sequence", "ring", "-o", deck], check=True)
    r = subprocess.run([gtrack, "optics", deck, "--ring", "-o", h5], capture_output=True, text=True)
    print(r.stdout[:600], r.stderr)
    if r.returncode != 0 or "model: 4D with the RF cavities off" not in r.stdout:
        failures.append("no radiation, cavity off the zero crossing: the 4D model by default, said so")
    else:
        with h5py.File(h5, "r") as f:
            gp = dict(f["optics"].attrs)
        t = madx(plain_text).twiss(sequence="ring")
        check("cavity off the zero crossing, 4D: tune_x vs MAD-X TWISS", gp["tune_x"], t.summary.q1, 1e-8)
        check("cavity off the zero crossing, 4D: tune_y vs MAD-X TWISS", gp["tune_y"], t.summary.q2, 1e-8)
        if text(gp.get("model")) != "4d" or "synchrotron_tune" in gp:
            failures.append("cavity off the zero crossing: model 4d in the file, no synchrotron tune")
    # ... and the 6D model on request: the cavity replaces the loss at the same synchronous phase as with
    # RADIATE (the cavity's LAG does not matter: the orbit finds the phase), so the same Qs.
    r = subprocess.run([gtrack, "optics", deck, "--ring", "--model", "6d", "-o", h5], capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stdout, r.stderr)
        failures.append("cavity off the zero crossing: --model 6d")
    else:
        with h5py.File(h5, "r") as f:
            g6 = dict(f["optics"].attrs)
        check("cavity off the zero crossing, --model 6d: Qs vs MAD-X EMIT", g6["synchrotron_tune"], emit.qs[0], 1e-4)

finish()
