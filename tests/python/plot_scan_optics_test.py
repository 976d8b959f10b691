#!/usr/bin/env python3
"""gtrack plot on a scan summary (gtrack collect) and on an /optics file (the layout of
/work/optics-schema.md, built here with h5py), scripts/plot_scan.py on the same summary, the message for a
file with nothing to draw and for a Python without its packages, and an installed gtrack finding its
installed plotting program.

Usage: plot_scan_optics_test.py GTRACK SOURCE_DIR. Exit 77 (skipped) without h5py, numpy or matplotlib."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_common import args, check_png, expect, finish, plot, same  # noqa: E402

import h5py  # noqa: E402
import numpy as np  # noqa: E402

gtrack, source = args()


def names(files):
    return sorted(os.path.basename(p) for p in files)


def write_optics(path):
    """A FODO ring's optics in the agreed layout: 8 cells of QF, bend, QD, bend."""
    s = np.linspace(0, 80, 161)
    cell = 2 * np.pi * s / 10
    n = len(s)
    with h5py.File(path, "w") as f:
        g = f.create_group("optics")
        attrs = dict(periodic=1, length=80.0, tune_x=6.2512345, tune_y=5.8765432, chroma_x=-7.5,
                     chroma_y=-6.25, momentum_compaction=0.0123, slip_factor=0.01, coupled=0)
        for k, v in attrs.items():
            g.attrs[k] = v
        g.attrs["deck"] = np.bytes_("lattices/fodo_ring.toml")
        g["s"] = s
        g["name"] = np.array([b"start"] + [b"E%d" % i for i in range(1, n)], dtype="S8")
        g["type"] = np.array([b"marker"] + [b"drift"] * (n - 1), dtype="S8")
        cols = dict(beta_x=17 + 6 * np.cos(cell), beta_y=17 - 6 * np.cos(cell), alpha_x=np.sin(cell),
                    alpha_y=-np.sin(cell), mu_x=s / 80 * 6.25, mu_y=s / 80 * 5.88, D_x=1.5 + 0.3 * np.cos(cell + 1),
                    Dp_x=np.zeros(n), D_y=np.zeros(n), Dp_y=np.zeros(n), x_co=1e-4 * np.sin(cell / 4),
                    px_co=np.zeros(n), y_co=np.zeros(n), py_co=np.zeros(n), pt_co=np.zeros(n))
        for k, v in cols.items():
            g[k] = v
        lay = g.create_group("layout")
        start, length, types, strength = [], [], [], []
        for c in range(8):
            for off, ln, ty, k in ((0, 0.5, b"quadrupole", 0.8), (1, 3, b"sbend", np.pi / 8),
                                   (5, 0.5, b"quadrupole", -0.8), (6, 3, b"sbend", np.pi / 8)):
                start.append(10 * c + off), length.append(ln), types.append(ty), strength.append(k)
        lay["s_start"], lay["length"] = np.array(start, float), np.array(length, float)
        lay["type"], lay["strength"] = np.array(types, dtype="S12"), np.array(strength)
        return cols


def gtrack_plot(*a, env=None):
    return subprocess.run([gtrack, "plot", *a], capture_output=True, text=True,
                          env={**os.environ, "GTRACK_PYTHON": sys.executable, **(env or {})})


with tempfile.TemporaryDirectory() as tmp:
    # 1. A scan of two quadrupole strengths (5 x 2 points, 200 particles each), one point deleted.
    deck = os.path.join(source, "inputs/fodo_scan.toml")
    subprocess.run([gtrack, "scan", deck, "--local", "--set", "beam.macroparticles=200", "--threads", "1"],
                   cwd=tmp, check=True, capture_output=True)
    os.remove(os.path.join(tmp, "fodo_scan_3.h5"))
    summary = os.path.join(tmp, "summary.h5")
    p = subprocess.run([gtrack, "collect", "fodo_scan_*.h5", "-o", summary], cwd=tmp, capture_output=True)
    expect("collect: one point missing (status 3)", p.returncode == 3, f"status {p.returncode}")
    files, rec = plot(gtrack, summary, os.path.join(tmp, "scan"))
    expect("scan: one picture per statistic", {"scan_sigma_x.png", "scan_emittance_xn.png", "scan_alive.png"}
           <= set(names(files)), names(files))
    with h5py.File(summary, "r") as f:
        t = {k: f["summary"][k][:] for k in f["summary"]}
    ok = t["complete"] == 1
    expect("the summary has 9 complete points of 10", ok.sum() == 9 and len(ok) == 10)
    for qd in (-1.2, -1.0):
        sel = ok & (t["elements_QD_k1"] == qd)
        order = np.argsort(t["elements_QFH_k1"][sel])
        key = f"scan_sigma_x.png|elements.QD.k1 = {qd:g}"
        same(f"scan line QD.k1 = {qd}: the QFH.k1 values", rec[f"{key}|0"], t["elements_QFH_k1"][sel][order])
        same(f"scan line QD.k1 = {qd}: the final sigma_x", rec[f"{key}|1"], t["sigma_x"][sel][order])
    # the CSV table of the same scan draws the same lines
    subprocess.run([gtrack, "collect", "fodo_scan_*.h5", "--csv", "summary.csv"], cwd=tmp, capture_output=True)
    files_csv, rec_csv = plot(gtrack, os.path.join(tmp, "summary.csv"), os.path.join(tmp, "scan_csv"))
    expect("scan from CSV: the same pictures", names(files_csv) == names(files))
    for qd in (-1.2, -1.0):
        key = f"scan_sigma_x.png|elements.QD.k1 = {qd:g}|1"
        # the CSV holds 17 significant digits: the same doubles
        same(f"scan from CSV, QD.k1 = {qd}: the same sigma_x", rec_csv[key], rec[key])
    # scripts/plot_scan.py, the same code with its own axes
    png = os.path.join(tmp, "scan_cli.png")
    p = subprocess.run([sys.executable, os.path.join(source, "scripts/plot_scan.py"), summary, "--x",
                        "elements.QD.k1", "--y", "emittance_xn", "-o", png], capture_output=True, text=True)
    expect("plot_scan.py runs", p.returncode == 0 and "9 points in 5 line(s)" in p.stdout, p.stdout + p.stderr)
    check_png(png)

    # 2. /optics: beta and dispersion over the element bar, the tunes in the title; the closed orbit.
    optics = os.path.join(tmp, "optics.h5")
    cols = write_optics(optics)
    files, rec = plot(gtrack, optics, os.path.join(tmp, "optics"))
    expect("optics: the pictures", names(files) == ["closed_orbit.png", "optics.png"], names(files))
    for col in ("s", "beta_x", "beta_y", "D_x"):
        same(f"optics draws {col}", rec[f"optics.png|{col}"], cols[col] if col != "s" else np.linspace(0, 80, 161))
    same("closed orbit draws x_co", rec["closed_orbit.png|x_co"], cols["x_co"])
    title = str(rec["optics.png|title"])
    for part in ("Qx = 6.25123", "Qy = 5.87654", "ξx = dQx/dδ = -7.5", "ξy = -6.25", "periodic", "fodo_ring.toml"):
        expect(f"optics title says '{part}'", part in title, title)

    # 3. A file with nothing to draw: the message lists its groups.
    other = os.path.join(tmp, "other.h5")
    with h5py.File(other, "w") as f:
        f.create_group("calibration")
        f["weights"] = np.zeros(3)
    p = gtrack_plot(other, "-o", os.path.join(tmp, "other"))
    expect("nothing to draw: non-zero status", p.returncode != 0, f"status {p.returncode}")
    expect("nothing to draw: the groups are listed", "/calibration, /weights" in p.stderr, p.stderr.strip())
    p = gtrack_plot(os.path.join(tmp, "absent.h5"))
    expect("a missing file is named", p.returncode != 0 and "absent.h5: no such file" in p.stderr, p.stderr.strip())

    # 4. Python without h5py, and no Python at all: say what to install.
    fake = os.path.join(tmp, "fake", "h5py")
    os.makedirs(fake)
    with open(os.path.join(fake, "__init__.py"), "w") as f:
        f.write("raise ImportError(\"No module named 'h5py'\")\n")
    p = gtrack_plot(optics, env={"PYTHONPATH": os.path.dirname(fake)})
    expect("without h5py: what to install", p.returncode != 0 and "install-deps.sh --python" in p.stderr,
           p.stderr.strip())
    p = gtrack_plot(optics, env={"GTRACK_PYTHON": os.path.join(tmp, "no-python3")})
    expect("without Python: what to install", p.returncode != 0 and "cannot start" in p.stderr
           and "install-deps.sh --python" in p.stderr, p.stderr.strip())

    # 5. An installed gtrack runs the installed copy of the program (share/gtrack beside bin/).
    cmake = shutil.which("cmake")
    build = os.path.dirname(gtrack)
    if cmake and os.path.isfile(os.path.join(build, "cmake_install.cmake")):
        prefix = os.path.join(tmp, "prefix")
        subprocess.run([cmake, "--install", build, "--prefix", prefix], check=True, capture_output=True)
        installed = os.path.join(prefix, "share/gtrack/gtrack_plot.py")
        expect("installed: bin/gtrack and share/gtrack/gtrack_plot.py",
               os.access(os.path.join(prefix, "bin/gtrack"), os.X_OK) and os.path.isfile(installed))
        with open(installed, "a") as f:
            f.write("\nprint('the installed copy')\n")
        p = subprocess.run([os.path.join(prefix, "bin/gtrack"), "plot", optics, "-o", os.path.join(tmp, "inst")],
                           capture_output=True, text=True, env=dict(os.environ, GTRACK_PYTHON=sys.executable))
        expect("installed gtrack runs the installed program", p.returncode == 0 and "the installed copy" in p.stdout,
               p.stdout + p.stderr)
    else:
        print("note: no cmake or no cmake_install.cmake beside gtrack: the install check was not run")

finish()
