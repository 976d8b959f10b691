#!/usr/bin/env python3
"""RBEND lengths and positions as MAD-X (cpymad) computes them, for both settings of OPTION, RBARC and both
signs of the angle, in a flat sequence and in a nested one whose bends get their ANGLE after the sequence is
built (the CERN PS Booster's files: MAD-X's TWISS then advances s by the chord L, and tracks the bend with
that length). A ring of four RBENDs and four quadrupoles is imported by scripts/import_madx.py with no
option (which itself fails unless every element ends where MAD-X's SURVEY puts it, to 1e-12 of s); then
gtrack optics' s at every element exit equals MAD-X's TWISS s to 1e-12 of the circumference (round-off of a
sum of ~20 lengths) and its tunes equal MAD-X's to 1e-8 (the bends' and quadrupoles' linear maps are exact in
both codes: optics_madx_test.py measures 1e-10; the issue's bound 1e-6).

Before this test's change the nested case was refused by the importer's own position check (2.1e-4 m a
bend, the arc/chord difference).

Usage: rbend_madx_test.py GTRACK SOURCE_DIR [--all] (exit 77 when cpymad, h5py or numpy is missing); without
--all three of the six cases run (ctest python_rbend_madx_all, label long, runs them all)."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from madx_common import check, finish, gtrack_optics, madx  # noqa: E402

import numpy as np  # noqa: E402

CELL = "q, at=1; b, at=3; qd, at=5; b, at=7; q, at=9; b, at=11; qd, at=13; b, at=15; q, at=17;"


def ring(rbarc, sign, nested):
    """The MAD-X text of the ring (sequence ring): rbarc true or false, the bends' angle sign * 0.1 rad; nested:
    two cells (sequences of refer = centre) placed in ring, the angle set after both are built."""
    head = (f"option, rbarc={'true' if rbarc else 'false'};\n"
            "bb: rbend, l := 1.0, k1 = -0.02, e1 = 0.01;\nb: bb;\n"
            "q: quadrupole, l = 0.2, k1 = 0.5;\nqd: quadrupole, l = 0.2, k1 = -0.5;\n")
    if nested:
        seq = (f"cell: sequence, l = 20, refer = centre; {CELL} endsequence;\n"
               "ring: sequence, l = 40, refer = entry; cell, at = 0; cell, at = 20; endsequence;\n"
               f"b, angle := ang; ang = {sign} * 0.1;\n")
    else:
        seq = f"ang = {sign} * 0.1; b, angle := ang;\nring: sequence, l = 20, refer = centre; {CELL} endsequence;\n"
    return head + seq + "beam, particle = proton, pc = 1.0;\n"


with tempfile.TemporaryDirectory() as tmp:
    # The nested ring with rbarc = false is the same ring as with rbarc (MAD-X keeps the chord either way):
    # left out. Without --all (CI) three of the six cases: each setting of rbarc, each sign, and the nested
    # ring that the old importer refused.
    cases = [(False, True, -1), (False, False, 1), (True, True, -1)]
    if "--all" in sys.argv[3:]:
        cases += [(False, True, 1), (False, False, -1), (True, True, 1)]
    for nested, rbarc, sign in cases:
        name = f"{'nested' if nested else 'flat'}_rbarc_{'true' if rbarc else 'false'}_{'pos' if sign > 0 else 'neg'}"
        text = ring(rbarc, sign, nested)
        g = gtrack_optics(tmp, text, name)
        m = madx(text)
        t = m.twiss(sequence="ring")
        # MAD-X's rows without its $start/$end markers, against gtrack's rows after the start row.
        keep = [not n.split(":")[0].endswith(("$start", "$end")) for n in t.name]
        s_madx = np.asarray(t.s)[keep]
        length = float(t.summary.length)
        check(f"{name}: s at every element exit", g["s"][1:], s_madx, 1e-12 * length)
        check(f"{name}: length", g["length"], length, 1e-12 * length)
        check(f"{name}: tune_x", g["tune_x"], t.summary.q1, 1e-8)
        check(f"{name}: tune_y", g["tune_y"], t.summary.q2, 1e-8)
        # Which length MAD-X gave the bends: the chord in the nested ring (whatever rbarc says), the
        # arc (rbarc) or l (no rbarc) in the flat one; the test's premise, so that it cannot pass on a
        # case that is not the one named.
        bend = [float(x) for n, x in zip(t.name, t.l) if n.startswith("b:")][0]
        arc = 1.0 * 0.05 / np.sin(0.05)
        check(f"{name}: MAD-X's bend length (the case tested)", bend,
              arc if rbarc and not nested else 1.0, 1e-14)

finish()
