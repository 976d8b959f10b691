#!/usr/bin/env python3
"""scripts/import_elegant.py reads ELEGANT's syntax as ELEGANT does, one small typed case each (each failed on
the importer of the round before: names split at the colon, RPN errors on strings, ',,' refused, FREQ 0):

- quoted names of any characters ("S1A:Q1": KQUAD): two magnets, never one name overwritten;
- string parameters kept as strings (WATCH FILENAME, MODE: listed as ignored; OPEN_SIDE: the open side);
- an empty line item (',,') skipped; '&' joins the next line with nothing in between (a number split in two);
- ELEGANT's documented defaults: RFCA FREQ = 500 MHz, CSBEND FINT = 0.5 (acting with HGAP), RBEN L the chord,
  KSEXT N_KICKS as gtrack's kicks;
- MAXAMP (an aperture from there on, after each element with a length, until the next MAXAMP), RCOL, ECOL
  (a zero half size: an open plane), MAXAMP OPEN_SIDE (an aperture open on that side), SCRAPER (both sides,
  or two facing each other: one aperture; one side alone: an aperture open on the far side; with a length: its
  limit at both ends of a drift, with material XO refused), MALIGN (no
  shift: a marker; a shift, DT, DE: beam_shift; one pass only, DP with DE: refused by name), CHARGE (the bunch
  charge), RECIRC;
- a parameter gtrack has no term for is refused, one without effect on its tracking is listed;
- the self-check of positions names the first element that ends elsewhere than in ELEGANT's line;
- `gtrack check` reads every deck written here.

Expected values are ELEGANT's manual's (cited in scripts/elegant_convert.py) or arithmetic typed here.
Usage: import_elegant_syntax_test.py GTRACK SOURCE_DIR (exit 77 without h5py, numpy)."""
import contextlib
import io
import math
import os
import re
import subprocess
import sys
import tempfile

try:
    import h5py
    import numpy as np
except ImportError as e:
    print(f"skipped: {e}")
    sys.exit(77)

gtrack, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(source, "scripts"))
import import_elegant  # noqa: E402
from elegant_convert import check_positions, resolve_type  # noqa: E402
from elegant_lte import Lte  # noqa: E402
from lattice_deck import Element, Lattice  # noqa: E402

failures = []
tmp = tempfile.mkdtemp()


def check(name, ok, detail=""):
    print(f"{'ok' if ok else 'FAIL':4} {name}{': ' + detail if detail and not ok else ''}")
    if not ok:
        failures.append(name)


def run(text, *options):
    """Imports `text` (a .lte file); returns (exit status, deck text or '', stderr)."""
    path, deck = os.path.join(tmp, "t.lte"), os.path.join(tmp, "t.toml")
    with open(path, "w") as f:
        f.write(text)
    if os.path.exists(deck):
        os.remove(deck)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = import_elegant.main([path, "--momentum-mev", "3000", "-o", deck, *options])
    body = open(deck).read() if os.path.exists(deck) else ""
    if body:
        r = subprocess.run([gtrack, "check", deck], capture_output=True, text=True)
        check("  gtrack check reads the deck", r.returncode == 0, r.stdout + r.stderr)
    return status, body, err.getvalue()


def element(body, name):
    """The inline table of element `name` in the deck, as text."""
    m = re.search(r'^' + re.escape(name) + r' = \{ (.*) \}$', body, re.M)
    return m.group(1) if m else ""


def names_in_line(body):
    text = body[body.index("line = [") + len("line = ["):body.index("]", body.index("line = ["))]
    return [n.strip().strip('"') for n in text.replace("\n", "").split(",") if n.strip()]


def track_wide(body):
    """Runs an imported deck with a beam wide enough that most of it is lost (beta 400 m, emittance 1 um),
    with snapshots at the line's first marker `m` and the end: (the run, the first beam, the last beam)."""
    for a, b in (("beta_x = 1.0", "beta_x = 400.0"), ("beta_y = 1.0", "beta_y = 400.0"),
                 ("emittance_x = 1e-09", "emittance_x = 1e-06"), ("emittance_y = 1e-09", "emittance_y = 1e-06"),
                 ('phase_space = ["end"]', 'phase_space = ["m", "end"]')):
        body = body.replace(a, b)
    with open(os.path.join(tmp, "t.toml"), "w") as f:
        f.write(body)
    r = subprocess.run([gtrack, "run", "t.toml", "--quiet"], cwd=tmp, capture_output=True, text=True)
    with h5py.File(os.path.join(tmp, "l1.h5"), "r") as f:
        beams = [f["data"][it]["particles"]["beam"] for it in sorted(f["data"], key=int)]
        keys = ("id", "position/x", "position/y", "momentum/x", "momentum/y", "momentum/z")
        first = {k: beams[0][k][:] for k in keys}
        last = {k: beams[-1][k][:] for k in keys}
    return r, first, last


# Quoted names with colons: two quadrupoles, each with its own strength.
status, body, err = run('"S1A:Q1": KQUAD, L=0.5, K1=0.4\n"S1B:Q1": KQUAD, L=0.5, K1=-0.4\nD: DRIF, L=1\n'
                        'RING: LINE=("S1A:Q1", D, S1B:Q1, D)\n')
check("quoted names with ':' are two elements", status == 0 and 'k1 = 0.4' in element(body, '"s1a:q1"')
      and 'k1 = -0.4' in element(body, '"s1b:q1"'), err + body)
check("  and the line names both", names_in_line(body) == ["s1a:q1", "d", "s1b:q1", "d"], str(names_in_line(body)))

# String parameters: WATCH's FILENAME and MODE are strings with no effect on tracking (listed), never RPN.
status, body, err = run('W1: WATCH, FILENAME="%s.w1", MODE="centroid"\nD: DRIF, L=1\nL1: LINE=(W1, D)\n')
check("WATCH FILENAME, MODE: strings, listed as ignored", status == 0 and 'type = "monitor"' in element(body, "w1")
      and "FILENAME ignored" in err and "MODE ignored" in err, err)
# ... a string that changes the physics (a multipole-error file) is refused by name.
status, body, err = run('Q: KQUAD, L=0.5, K1=0.4, SYSTEMATIC_MULTIPOLES="q.sdds"\nL1: LINE=(Q)\n')
check("SYSTEMATIC_MULTIPOLES refused by name", status == 1 and 'SYSTEMATIC_MULTIPOLES="q.sdds"' in err, err)

# An empty item: skipped.
status, body, err = run("D: DRIF, L=1\nM: MARK\nL1: LINE=(D,,M, ,D)\n")
check("',,' skipped", status == 0 and names_in_line(body) == ["d", "m", "d"], err + body)

# '&' joins with nothing in between: ELEGANT's own SPEAR3 lattice splits numbers so.
status, body, err = run("D: DRIF, L=1.2&\n5\nL1: LI&\nNE=(D)\n")
check("'&' joins a split number", status == 0 and "length = 1.25" in element(body, "d"), err + body)

# Type words matched as ELEGANT's tell_type does; an element defined from another one (NAME: OTHER, ...).
status, body, err = run('Q: KQUADRUPOLE, L=0.5, K1=0.4\nH: HMONITOR\nHI: HISTOGRAM, FILENAME="%s.h", BINS=100\n'
                        '"LTP:Q2": Q, K1=-0.3\n"LTP:Q3": "LTP:Q2"\nL1: LINE=(Q, H, HI, LTP:Q2, "LTP:Q3")\n')
check("KQUADRUPOLE is KQUAD, HMONITOR is HMON, HISTOGRAM a monitor", status == 0 and 'type = "quadrupole"' in
      element(body, "q") and 'type = "monitor"' in element(body, "h") and 'type = "monitor"' in element(body, "hi"),
      err + body)
check("  an element copied from another, with its changes", element(body, '"ltp:q2"') ==
      'type = "quadrupole", length = 0.5, k1 = -0.3' and element(body, '"ltp:q3"') ==
      'type = "quadrupole", length = 0.5, k1 = -0.3', body)

# ELEGANT's defaults.
status, body, err = run("C: RFCA, VOLT=1e6, PHASE=180\nL1: LINE=(C)\n")
check("RFCA without FREQ: 500 MHz", status == 0 and "frequency = 500000000.0" in element(body, "c")
      and "phase = 90.0" in element(body, "c"), err + body)
status, body, err = run("B: CSBEND, L=1, ANGLE=0.1, HGAP=0.02\nB2: CSBEND, L=1, ANGLE=0.1, HGAP=0.02, FINT2=0.3\n"
                        "L1: LINE=(B, B2)\n")
check("CSBEND with HGAP, without FINT: FINT = 0.5", "hgap = 0.02, fint = 0.5" in element(body, "b")
      and "fintx" not in element(body, "b"), body)
check("  FINT2 given: the exit's own, the entrance FINT's 0.5", "fint = 0.5, fintx = 0.3" in element(body, "b2"),
      body)
status, body, err = run("R: RBEN, L=1, ANGLE=0.2\nL1: LINE=(R)\n")
arc = 1 * 0.1 / math.sin(0.1)
check("RBEN: L is the chord; the arc L (a/2)/sin(a/2), faces a/2", f"length = {arc!r}" in element(body, "r")
      and "e1 = 0.1, e2 = 0.1" in element(body, "r"), body)
status, body, err = run("S: KSEXT, L=0.2, K2=3, N_KICKS=10\nS2: KSEXT, L=0.2, K2=3\nL1: LINE=(S, S2)\n")
check("KSEXT N_KICKS -> kicks; ELEGANT's default 4 is gtrack's", "kicks = 10" in element(body, "s")
      and "kicks" not in element(body, "s2"), body)
status, body, err = run('F: RFCA, VOLT=1e6, FREQ="c_mks 1104 / 1296 *", PHASE="180 0.5 dasin -"\nL1: LINE=(F)\n')
check("RPN with c_mks and dasin", f"frequency = {299792458.0 / 1104 * 1296!r}" in element(body, "f")
      and f"phase = {180 - 30.000000000000004 - 90!r}" in element(body, "f"), body)

status, body, err = run('F: RFCA, VOLT=1e6, FREQ="880 beta.p c_mks * 30.6667 /", PHASE=90, CHANGE_P0=1\n'
                        'L1: LINE=(F)\n')
beta = 880 / math.sqrt(1 + 880.0 ** 2)
check("RPN beta.p (defns.rpn); CHANGE_P0 = 1 is gtrack's own reference", status == 0 and
      f"frequency = {beta * 299792458.0 / 30.6667!r}" in element(body, "f") and "note" not in err, err + body)
status, body, err = run("F: RFCA, VOLT=1e6, FREQ=1e9, PHASE=90\nL1: LINE=(F)\n")
check("  CHANGE_P0 = 0 with an energy gain: noted", status == 0 and "CHANGE_P0 = 0" in err, err)

# MAXAMP: an aperture from there on, after every element with a length; a zero MAXAMP ends it.
status, body, err = run("A: MAXAMP, X_MAX=0.02, Y_MAX=0.01, ELLIPTICAL=1\nZ: MAXAMP\nD: DRIF, L=1\nM: MARK\n"
                        "Q: KQUAD, L=0.5, K1=0.3\nL1: LINE=(D, A, D, M, Q, Z, D)\n")
check("MAXAMP: an ellipse after each element with a length until the next MAXAMP",
      status == 0 and names_in_line(body) == ["d", "a", "d", "a", "m", "q", "a", "z", "d"]
      and element(body, "a") == 'type = "aperture", shape = "ellipse", half_x = 0.02, half_y = 0.01',
      str(names_in_line(body)) + err)
status, body, err = run('A: MAXAMP, X_MAX=0.02, Y_MAX=0.01, OPEN_SIDE="+X"\nD: DRIF, L=1\nL1: LINE=(A, D)\n')
check("MAXAMP OPEN_SIDE: an aperture open at +x", status == 0 and element(body, "a") ==
      'type = "aperture", shape = "rectangle", half_x = 0.02, half_y = 0.01, open_side = "+x"', err + body)
status, body, err = run('A: MAXAMP, X_MAX=0.02, Y_MAX=0.01, OPEN_SIDE="-v"\nD: DRIF, L=1\nL1: LINE=(A, D)\n')
check("  OPEN_SIDE -v (ELEGANT's v for y)", status == 0 and 'open_side = "-y"' in element(body, "a"), err + body)
status, body, err = run('A: MAXAMP, X_MAX=0.02, Y_MAX=0.01, OPEN_SIDE="X"\nD: DRIF, L=1\nL1: LINE=(A, D)\n')
check("  OPEN_SIDE without a sign (ELEGANT refuses it): refused by name", status == 1 and 'OPEN_SIDE="X"' in err, err)
status, body, err = run('R: RCOL, L=0.1, X_MAX=0.01, Y_MAX=0.004, DX=0.001, OPEN_SIDE="-Y"\nL1: LINE=(R)\n')
check("  RCOL OPEN_SIDE: the open aperture at both faces of a drift (ELEGANT checks both faces)", status == 0
      and names_in_line(body) == ["r_face", "r", "r_face"] and element(body, "r_face") == 'type = "aperture", '
      'shape = "rectangle", half_x = 0.01, half_y = 0.004, open_side = "-y", dx = 0.001'
      and element(body, "r") == 'type = "drift", length = 0.1', err + body)

# RCOL, ECOL: shapes, offsets; an open plane is refused.
status, body, err = run("R: RCOL, L=0.1, X_MAX=0.01, Y_MAX=0.005, DX=0.001\nE: ECOL, X_MAX=0.01, Y_MAX=0.005\n"
                        "L1: LINE=(R, E)\n")
check("RCOL, ECOL", element(body, "r") == 'type = "collimator", shape = "rectangle", half_x = 0.01, '
      'half_y = 0.005, length = 0.1, dx = 0.001'
      and 'shape = "ellipse"' in element(body, "e"), body + err)
status, body, err = run("R2: RCOL, L=0.1, X_MAX=0.01\nE2: ECOL, Y_MAX=0.004\nL1: LINE=(R2, E2)\n")
check("RCOL with Y_MAX = 0: open in y; ECOL with X_MAX = 0: ELEGANT's RCOL in y", status == 0 and
      element(body, "r2") == 'type = "collimator", shape = "rectangle", half_x = 0.01, length = 0.1' and
      element(body, "e2") == 'type = "collimator", shape = "rectangle", half_y = 0.004, length = 0.0', err + body)

# SCRAPER (ELEGANT's beam_scraper): "+x" at p loses x - DX > p, "-x" loses x - DX < p, "x" loses |x - DX| > p.
status, body, err = run('S: SCRAPER, POSITION=0.01, INSERT_FROM="+X"\nU: SCRAPER, POSITION=0.004, INSERT_FROM="-Y", '
                        'DY=-0.001\nD: DRIF, L=1\nL1: LINE=(S, D, U)\n')
check("a one-sided SCRAPER alone, edge on its side: x <= 0.01 as a rectangle about the axis open at -x",
      status == 0 and element(body, "s") == 'type = "aperture", shape = "rectangle", half_x = 0.01, open_side = "-x"',
      err + body)
check("  edge across the axis (from -y, y >= 0.003): shifted so that its edge is there, open at +y",
      element(body, "u") == 'type = "aperture", shape = "rectangle", half_y = 0.003, open_side = "+y", dy = 0.006',
      body)
status, body, err = run("D: DRIF, L=-0.1\nL1: LINE=(D)\n")
check("a negative drift: refused by name", status == 1 and "negative length" in err and not body, err)
status, body, err = run('A: SCRAPER, POSITION=-0.018, INSERT_FROM="-X"\nB: SCRAPER, POSITION=0.042, INSERT_FROM="+X"\n'
                        'M: MARK\nT: SCRAPER, POSITION=0.02, INSERT_FROM="y", DY=0.001\nL1: LINE=(A, M, B, T)\n')
opening = 'type = "aperture", shape = "rectangle", half_x = 0.03, dx = 0.012000000000000002'
check("two SCRAPERs facing each other (thin elements between): x from -0.018 to 0.042, open in y",
      status == 0 and element(body, "a") == opening and element(body, "b") == opening, err + body)
check("  a two-sided SCRAPER (y): |y - DY| <= 0.02, open in x",
      element(body, "t") == 'type = "aperture", shape = "rectangle", half_y = 0.02, dy = 0.001', body)
status, body, err = run('A: SCRAPER, POSITION=-0.018, INSERT_FROM="-X"\nD: DRIF, L=1\n'
                        'B: SCRAPER, POSITION=0.042, INSERT_FROM="+X"\nL1: LINE=(A, D, B)\n')
check("  a drift between them: two one-sided limits, each an aperture open on its far side", status == 0
      and element(body, "a") == 'type = "aperture", shape = "rectangle", half_x = 0.018, open_side = "+x"'
      and element(body, "b") == 'type = "aperture", shape = "rectangle", half_x = 0.042, open_side = "-x"',
      err + body)

# SCRAPER with a length (no material, XO = 0): ELEGANT's beam_scraper checks its limit at the entrance, drifts by L
# and checks again at the exit: an aperture, a drift named as the scraper, the aperture again.
status, body, err = run('S: SCRAPER, L=0.5, POSITION=0.01, INSERT_FROM="+X"\nT: SCRAPER, L=0.2, POSITION=0.02, '
                        'INSERT_FROM="y", DY=0.001\nL1: LINE=(S, T)\n')
check("a SCRAPER with a length: its limit at both ends of a drift", status == 0
      and element(body, "s_face") == 'type = "aperture", shape = "rectangle", half_x = 0.01, open_side = "-x"'
      and element(body, "s") == 'type = "drift", length = 0.5'
      and element(body, "t_face") == 'type = "aperture", shape = "rectangle", half_y = 0.02, dy = 0.001'
      and names_in_line(body) == ["s_face", "s", "s_face", "t_face", "t", "t_face"], err + body)
status, body, err = run('S: SCRAPER, L=0.5, POSITION=0.01, INSERT_FROM="+X", XO=0.0035\nL1: LINE=(S)\n')
check("  with material (XO > 0: scattering in the block): refused by name", status == 1 and "XO" in err
      and not body, err)
# Tracked through a long one (200 m: the divergence moves particles across the edge on the way): gtrack keeps
# exactly those ELEGANT's rule keeps, x <= 0.01 at the entrance and x + L x' <= 0.01 at the exit (x' = px/pz).
status, body, err = run('S: SCRAPER, L=200, POSITION=0.01, INSERT_FROM="+X"\nM: MARK\nL1: LINE=(M, S)\n')
r, first, last = track_wide(body)
x, slope = first["position/x"], first["momentum/x"] / first["momentum/z"]
rule = (x <= 0.01) & (x + 200 * slope <= 0.01)
check("tracked: a SCRAPER with a length keeps what ELEGANT's rule keeps, some lost only at its exit",
      r.returncode == 0 and 100 < rule.sum() < 900 and (x <= 0.01).sum() - rule.sum() > 20
      and set(first["id"][rule]) == set(last["id"]),
      f"{rule.sum()} by the rule ({(x <= 0.01).sum() - rule.sum()} at the exit), {len(last['id'])} kept; {r.stderr}")

# Tracked: gtrack keeps exactly the particles ELEGANT's rules keep (a facing pair in x, a two-sided scraper in
# y with DY, an RCOL open in y; the rules as typed above), for a beam wide enough that most are lost.
status, body, err = run('A: SCRAPER, POSITION=-0.018, INSERT_FROM="-X"\nB: SCRAPER, POSITION=0.012, '
                        'INSERT_FROM="+X"\nT: SCRAPER, POSITION=0.01, INSERT_FROM="y", DY=0.002\n'
                        'R: RCOL, X_MAX=0.015\nM: MARK\nL1: LINE=(M, A, B, T, R)\n')
r, first, last = track_wide(body)
ids, x, y = first["id"], first["position/x"], first["position/y"]
kept = set(last["id"])
rule = (x >= -0.018) & (x <= 0.012) & (np.abs(y - 0.002) <= 0.01) & (np.abs(x) <= 0.015)
check("tracked: the scrapers and the open RCOL keep what ELEGANT's rules keep",
      r.returncode == 0 and 100 < rule.sum() < 900 and set(ids[rule]) == kept,
      f"{rule.sum()} by the rules, {len(kept)} kept; {r.stderr}")

# Tracked: an elliptical MAXAMP open at +x, a lone scraper from -y (its edge on its side) and one from -x whose
# edge is across the axis, then a MALIGN: gtrack keeps exactly what ELEGANT's rules keep, typed here
# (evaluateLostWithOpenSides: open +x keeps x > 0, |y| < Y_MAX outside the ellipse; beam_scraper as above), and
# the kept particles end shifted by DX, DY (x' = px / pz unchanged: no DXP, DZ, DP), to one rounding.
status, body, err = run('A: MAXAMP, X_MAX=0.02, Y_MAX=0.01, ELLIPTICAL=1, OPEN_SIDE="+X"\n'
                        'U: SCRAPER, POSITION=-0.004, INSERT_FROM="-Y", DY=0.001\n'
                        'S: SCRAPER, POSITION=0.004, INSERT_FROM="-X", DX=-0.001\nZ: MAXAMP\n'
                        'W: MALIGN, DX=0.001, DY=-0.0005\nM: MARK\nL1: LINE=(M, A, U, S, Z, W)\n')
r, first, last = track_wide(body)
ids, x, y = first["id"], first["position/x"], first["position/y"]
end_ids, end_x, end_y = last["id"], last["position/x"], last["position/y"]
inside = (x / 0.02) ** 2 + (y / 0.01) ** 2 <= 1
rule = (inside | ((x > 0) & (np.abs(y) < 0.01))) & (y - 0.001 >= -0.004) & (x + 0.001 >= 0.004)
open_side_kept = rule & ~inside
check("tracked: the open MAXAMP and the lone scrapers keep what ELEGANT's rules keep",
      r.returncode == 0 and 100 < rule.sum() < 900 and open_side_kept.sum() > 20 and set(ids[rule]) == set(end_ids),
      f"{rule.sum()} by the rules ({open_side_kept.sum()} outside the ellipse), {len(end_ids)} kept; {r.stderr}")
start = dict(zip(ids, zip(x, y)))
shift_err = max((abs(ex - start[i][0] - 0.001) + abs(ey - start[i][1] + 0.0005) for i, ex, ey in
                 zip(end_ids, end_x, end_y)), default=1.0)
check("  the MALIGN shifts x by DX, y by DY (1e-17 m: one rounding of x + DX)", shift_err < 1e-17, str(shift_err))

# MALIGN, CHARGE, RECIRC.
status, body, err = run("M0: MALIGN, ON_PASS=0\nC: CHARGE, TOTAL=1e-9\nRC: RECIRC\nD: DRIF, L=1\n"
                        "L1: LINE=(C, M0, RC, D)\n")
check("MALIGN without a shift, CHARGE, RECIRC", status == 0 and 'type = "marker"' in element(body, "m0")
      and 'bunch_charge = "1e-09 C"' in body and 'type = "marker"' in element(body, "rc"), err + body)
status, body, err = run("M1: MALIGN, DX=0.001, DYP=-2e-4, DZ=0.1, DP=1e-3\nD: DRIF, L=1\nL1: LINE=(M1, D)\n")
check("MALIGN with a shift: a beam_shift", status == 0 and element(body, "m1") ==
      'type = "beam_shift", shift_x = 0.001, shift_yp = -0.0002, shift_z = 0.1, shift_delta = 0.001', err + body)
status, body, err = run("M2: MALIGN, DT=1e-12, DE=0.001\nD: DRIF, L=1\nL1: LINE=(M2, D)\n")
check("  MALIGN with DT, DE: a beam_shift of the arrival time and the energy", status == 0 and element(body, "m2")
      == 'type = "beam_shift", shift_t = 1e-12, shift_energy = 0.001', err + body)
status, body, err = run("M1: MALIGN, DX=0.001, ON_PASS=0\nM3: MALIGN, DP=0.001, DE=0.001\nD: DRIF, L=1\n"
                        "L1: LINE=(M1, M3, D)\n")
check("  MALIGN on one pass only, or DP with DE (ELEGANT's DE then drops DP): refused by name", status == 1
      and "ON_PASS=0" in err and "DP with DE" in err, err)
status, body, err = run("RC: RECIRC\nD: DRIF, L=1\nL1: LINE=(D, RC, D)\n")
check("an element with a length before RECIRC: refused", status == 1 and "first pass only" in err, err)

# Parameters without a gtrack term are refused; those without effect are listed.
status, body, err = run("Q: KQUAD, L=0.5, K1=0.4, FSE=0.01\nL1: LINE=(Q)\n")
check("KQUAD FSE: refused by name", status == 1 and "FSE=0.01" in err, err)
status, body, err = run("B: CSBEND, L=1, ANGLE=0.1, EDGE1_EFFECTS=0\nL1: LINE=(B)\n")
check("CSBEND EDGE1_EFFECTS=0 (not ELEGANT's default 1): refused", status == 1 and "EDGE1_EFFECTS=0" in err, err)

# The self-check: a deck entry that ends elsewhere than ELEGANT's sum is named.
lte = Lte("D: DRIF, L=1\nQ: KQUAD, L=0.5, K1=0.2\nL1: LINE=(D, Q, D)\n", "t.lte", resolve_type)
lattice = Lattice()
for n, length in (("d", 1.0), ("q", 0.5000001), ("d", 1.0)):
    lattice.define(Element(n, "drift", {"length": length}))
    lattice.line.append(n)
problem = check_positions(lattice, lte.expand("l1"), lte, [])
check("self-check: names the first element that ends elsewhere", problem.startswith("'q' (entry 2) ends at"),
      problem)

print("FAILED: " + ", ".join(failures) if failures else "all checks passed")
sys.exit(1 if failures else 0)
