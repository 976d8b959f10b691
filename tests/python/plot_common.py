"""What the gtrack plot tests (plot_*_test.py) share: running `gtrack plot` with the arrays each picture
drew recorded ($GTRACK_PLOT_RECORD), and checking that a picture is a PNG of the expected size that is not
blank. Not a test itself (ctest registers *_test.py only)."""
import os
import subprocess
import sys

try:
    import h5py  # noqa: F401
    import numpy as np
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.image
except ImportError as e:
    print(f"skipped: {e}")
    sys.exit(77)

#: Pixel size of each picture, by file name: the figure sizes of scripts/gtrack_plot.py at 100 dpi.
#: A picture saved with a tight bounding box or another dpi would differ, which is what this catches.
PIXELS = {"beam_size": (1000, 650), "emittance": (1000, 650), "centroid": (1000, 650),
          "closed_orbit": (1000, 650), "phase_space": (1000, 850), "losses": (1000, 800),
          "space_charge": (1000, 800), "collective": (1000, 800), "profile": (1000, 600),
          "energy_per_volume": (1000, 600), "energy_per_layer": (1000, 600), "shower_profile": (1000, 600),
          "hit_map": (1400, 500), "energy_balance": (1000, 500), "scan": (700, 450), "optics": (1100, 650),
          "strip_quality": (1000, 600), "strip_hits": (1000, 600),
          "momentum_aperture": (1000, 650)}

failures = []


def args():
    return os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])


def expect(name, ok, detail=""):
    print(f"{'ok' if ok else 'FAIL':4} {name}" + (f": {detail}" if detail else ""))
    if not ok:
        failures.append(name)


def same(name, got, want, rtol=0.0):
    """Arrays equal (rtol 0: bit for bit, what the plots must draw when they only read and scale)."""
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    ok = got.shape == want.shape and np.allclose(got, want, rtol=rtol, atol=0, equal_nan=True)
    expect(name, ok, f"shape {got.shape} vs {want.shape}" + ("" if ok or got.shape != want.shape else
                                                             f", max diff {np.nanmax(np.abs(got - want)):.3g}"))


def run(gtrack, *a):
    subprocess.run([gtrack, *a, "--quiet"], check=True)


def plot(gtrack, h5, outdir, *extra, env=None):
    """gtrack plot H5 -o OUTDIR: the files it printed and {picture|quantity: array} it drew."""
    record = os.path.join(outdir + "_record.npz")
    # the interpreter running the tests has the packages; python3 on the PATH may be another one
    e = {**os.environ, "GTRACK_PLOT_RECORD": record, "GTRACK_PYTHON": sys.executable, **(env or {})}
    p = subprocess.run([gtrack, "plot", h5, "-o", outdir, *extra], capture_output=True, text=True, env=e)
    print(p.stdout + p.stderr, end="")
    expect(f"gtrack plot {os.path.basename(h5)} exits 0", p.returncode == 0, f"status {p.returncode}")
    files = p.stdout.split()
    with np.load(record) as r:
        records = {k: r[k] for k in r.files}
    for path in files:
        check_png(path)
    return files, records


def check_png(path):
    name = os.path.basename(path)
    stem = os.path.splitext(name)[0]
    kind = next(k for k in sorted(PIXELS, key=len, reverse=True) if stem.startswith(k))
    with open(path, "rb") as f:
        head = f.read(24)
    ok = head[:8] == b"\x89PNG\r\n\x1a\n"
    expect(f"{name} is a PNG", ok)
    if not ok:
        return
    size = (int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big"))
    expect(f"{name} is {PIXELS[kind][0]}x{PIXELS[kind][1]} pixels", size == PIXELS[kind], f"{size}")
    img = matplotlib.image.imread(path)
    expect(f"{name} is not blank", float(img[..., :3].std()) > 0.02, f"pixel std {img[..., :3].std():.3f}")


def finish():
    if failures:
        print(f"{len(failures)} failure(s): {', '.join(failures)}")
        sys.exit(1)
    print("all passed")
