#!/usr/bin/env python3
"""CPU particle-turns/s of gtrack and Xsuite on one imported light source, side by side (issue 45).

    scripts/bench-ring-cpu.py BUILD/gtrack [--particles N] [--turns T] [--threads K] [--lattice bessy3]

Imports a published ring from tests/data/lattices/ (MAD-X through cpymad, scripts/import_madx.py; the BESSY III
design by default: ~2200 table entries, sextupoles), then tracks the same beam size for the same turns with
  - gtrack on the CPU, full table and compacted table ([lattice] merge_drifts = true), each with the
    many-turn executor (statistics only at the end) and with one segment per turn (statistics every turn);
  - Xsuite (xtrack on its CPU context, one thread), plain and after line.optimize_for_tracking() (which
    merges drifts and drops zero-strength elements, as the compacted table does).
Each code's rate is its tracking time alone: gtrack's `track` kernel seconds from --profile's table, Xsuite's
line.track() wall time (after a first call that compiles its kernels). The beam: Gaussian, the imported
periodic Twiss, emittances small enough that every particle survives in both codes (the survivors are
printed). Prints one line per case and the ratio gtrack / Xsuite; exit 77 without xtrack or cpymad.
Keep runs short on a shared machine (the defaults: 200 particles x 100 turns, seconds each).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

source = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
try:
    import numpy as np
    import xobjects as xo
    import xtrack as xt
    from cpymad.madx import Madx
except ImportError as e:  # pragma: no cover
    print(f"skipped: {e} (pip install xsuite cpymad)")
    sys.exit(77)

LATTICES = {"bessy3": "sec", "pimms": "pimms", "elena": "elena"}


def gtrack_rate(gtrack, deck, particles, turns, threads, merge, many_turns):
    """Particle-turns/s of gtrack's `track` kernel (the --profile row), and the survivors."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.h5")
        stats = '"end"' if many_turns else '"turn"'
        cmd = [gtrack, "run", deck, "--backend", "cpu", "--threads", str(threads), "-q", "--profile",
               "-o", out, "--set", f"beam.macroparticles={particles}", "--set", f"lattice.turns={turns}",
               "--set", f"output.stats={stats}", "--set", "output.phase_space=[]",
               "--set", f"lattice.merge_drifts={'true' if merge else 'false'}"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"gtrack failed: {' '.join(cmd)}\n{r.stdout}\n{r.stderr}")
        import h5py
        with h5py.File(out, "r") as f:
            names = [n.decode() if isinstance(n, bytes) else n for n in f["profile"].attrs["kernels"]]
            seconds = f["profile/seconds"][names.index("track")]
            lost = f["lost/id"].shape[0]
            entries = f["lattice/index"].shape[0]
    return particles * turns / seconds, particles - lost, entries


def xsuite_rate(folder, sequence, particles, turns, optimize, twiss):
    m = Madx(stdout=False)
    m.chdir(folder)
    m.call("driver.madx")
    m.use(sequence=sequence)
    line = xt.Line.from_madx_sequence(m.sequence[sequence], deferred_expressions=False)
    beam = m.sequence[sequence].beam
    line.particle_ref = xt.Particles(mass0=beam.mass * 1e9, q0=beam.charge, gamma0=beam.gamma)
    line.build_tracker(_context=xo.ContextCpu())  # one thread
    if optimize:
        line.optimize_for_tracking()
    elements = len(line.element_names)
    rng = np.random.default_rng(1)

    def beam_of():
        ex = ey = 1e-9
        bx, by = twiss
        return line.build_particles(x=rng.normal(size=particles) * np.sqrt(ex * bx),
                                    px=rng.normal(size=particles) * np.sqrt(ex / bx),
                                    y=rng.normal(size=particles) * np.sqrt(ey * by),
                                    py=rng.normal(size=particles) * np.sqrt(ey / by))

    line.track(beam_of(), num_turns=1)  # compiles the kernels
    p = beam_of()
    t0 = time.perf_counter()
    line.track(p, num_turns=turns)
    seconds = time.perf_counter() - t0
    return particles * turns / seconds, int(np.sum(p.state > 0)), elements


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gtrack")
    ap.add_argument("--particles", type=int, default=200)
    ap.add_argument("--turns", type=int, default=100)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--lattice", default="bessy3", choices=sorted(LATTICES))
    a = ap.parse_args()
    folder = os.path.join(source, "tests", "data", "lattices", a.lattice)
    sequence = LATTICES[a.lattice]
    with tempfile.TemporaryDirectory() as tmp:
        deck = os.path.join(tmp, a.lattice + ".toml")
        r = subprocess.run([sys.executable, os.path.join(source, "scripts", "import_madx.py"),
                            os.path.join(folder, "driver.madx"), "--sequence", sequence, "--twiss", "-o", deck],
                           capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"import failed:\n{r.stderr}")
        text = open(deck).read()
        twiss = (float(re.search(r"beta_x = (\S+)", text).group(1)), float(re.search(r"beta_y = (\S+)", text).group(1)))
        print(f"{a.lattice}: {a.particles} particles x {a.turns} turns, CPU, gtrack --threads {a.threads}")
        rows = []
        for merge in (False, True):
            for many in (True, False):
                rate, alive, entries = gtrack_rate(a.gtrack, deck, a.particles, a.turns, a.threads, merge, many)
                label = f"gtrack {'compacted' if merge else 'full'} table ({entries} entries), " + \
                        ("many-turn executor" if many else "one segment per turn")
                rows.append((label, rate, alive))
        for optimize in (False, True):
            rate, alive, elements = xsuite_rate(folder, sequence, a.particles, a.turns, optimize, twiss)
            rows.append((f"xsuite {xt.__version__} {'optimize_for_tracking' if optimize else 'plain'} "
                         f"({elements} elements)", rate, alive))
        best_x = max(r[1] for r in rows if r[0].startswith("xsuite"))
        for label, rate, alive in rows:
            print(f"{label:70} {rate:10.4g} particle-turns/s  {alive:6d} alive  {rate / best_x:5.2f} x best xsuite")


if __name__ == "__main__":
    main()
