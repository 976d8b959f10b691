"""What the tests against MAD-X (optics_madx_test.py, bend_multipoles_madx_test.py, real_lattices_test.py,
lattice_import_test.py) share: their arguments (GTRACK SOURCE_DIR), a MAD-X ring imported by
scripts/import_madx.py and run through `gtrack optics`, the same ring in MAD-X (cpymad), and the checks'
record. Importing it exits 77 (skipped) when cpymad, h5py or numpy is missing. Not a test itself (ctest
registers *_test.py only)."""
import os
import subprocess
import sys
import warnings

try:
    import h5py
    import numpy as np
    from cpymad.madx import Madx
except ImportError as e:
    print(f"skipped: {e}")
    sys.exit(77)

warnings.simplefilter("ignore")
gtrack, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
importer = os.path.join(source, "scripts", "import_madx.py")
failures = []


def check(name, got, want, tol, quiet=False):
    """Records a failure unless max |got - want| <= tol; prints the line (quiet: only a failure's)."""
    err = np.max(np.abs(np.asarray(got, float) - np.asarray(want, float)))
    ok = bool(err <= tol)
    if not ok or not quiet:
        print(f"{'ok' if ok else 'FAIL':4} {name}: diff {err:.3e} (bound {tol:g})")
    if not ok:
        failures.append(name)


def gtrack_optics(tmp, text, name, edit=None, csv=False):
    """MAD-X `text` (sequence ring) imported into TMP/NAME.toml, `edit` applied to the deck's text, and
    `gtrack optics --ring` of it (with csv, a table TMP/NAME.csv too): a dict of the /optics datasets (one
    value per element exit and the start), its attributes (tunes, chromaticities, ...), "layout" (its
    datasets), "toml" (the deck's text) and "csv" (the table's path, with csv)."""
    madx_file, deck = os.path.join(tmp, name + ".madx"), os.path.join(tmp, name + ".toml")
    with open(madx_file, "w") as f:
        f.write(text)
    subprocess.run([sys.executable, importer, madx_file, "--sequence", "ring", "-o", deck], check=True)
    with open(deck) as f:
        body = f.read()
    if edit:
        body = edit(body)
        with open(deck, "w") as f:
            f.write(body)
    h5, table = os.path.join(tmp, name + ".h5"), os.path.join(tmp, name + ".csv")
    r = subprocess.run([gtrack, "optics", deck, "--ring", "-o", h5] + (["--csv", table] if csv else []),
                       capture_output=True, text=True)
    print(r.stdout)
    if r.returncode != 0:
        print(r.stderr)
        raise SystemExit(f"gtrack optics failed on {name}")
    with h5py.File(h5, "r") as f:
        o = f["optics"]
        out = {k: o[k][:] for k in o if k != "layout"}
        out.update(dict(o.attrs))
        out["layout"] = {k: o["layout"][k][:] for k in o["layout"]}
    out["toml"] = body
    if csv:
        out["csv"] = table
    return out


def madx(text, cwd=None):
    """A MAD-X session (quiet) that has read `text` and uses its sequence ring; cwd: where it runs (PTC
    writes files there)."""
    m = Madx(stdout=False)
    if cwd:
        m.chdir(cwd)
    m.input(text)
    m.use(sequence="ring")
    return m


def madx_twiss(text, cwd=None, misalign=None):
    """madx(text, cwd) and its TWISS table; misalign (dx, dy): the quadrupoles qf* offset first (EALIGN)."""
    m = madx(text, cwd)
    if misalign:
        m.input(f'select, flag=error, pattern="^qf"; ealign, dx={misalign[0]}, dy={misalign[1]};')
    t = m.twiss(sequence="ring")
    return m, t


def finish():
    """The summary line; exits 1 when a check failed, else 0."""
    print("FAILED: " + ", ".join(failures) if failures else "all checks passed")
    sys.exit(1 if failures else 0)
