#!/usr/bin/env python3
"""MAD-X sequences written every way MAD-X reads them: REFER = ENTRY, CENTRE or EXIT, positions FROM another
element, and nested sequences (a cell sequence placed twice in the ring, with a REFER of its own). Each, the
same ring of sector bends, quadrupoles and sextupoles, is imported by scripts/import_madx.py with no option
(which itself fails unless every element ends where MAD-X's SURVEY puts it); gtrack optics' s at every element
exit equals MAD-X's TWISS s to 1e-12 of the circumference (round-off of a sum of ~40 lengths) and its tunes
equal MAD-X's to 1e-8 (exact linear maps in both codes: optics_madx_test.py measures 1e-10).

Usage: sequence_structure_madx_test.py GTRACK SOURCE_DIR [--all] (exit 77 when cpymad, h5py or numpy is
missing); without --all three of the seven cases run (ctest python_sequence_structure_madx_all, label long)."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from madx_common import check, finish, gtrack_optics, madx  # noqa: E402

import numpy as np  # noqa: E402

ELEMENTS = """b: sbend, l = 1.2, angle = 0.3141592653589793, e1 = 0.05, e2 = 0.05;
qf: quadrupole, l = 0.3, k1 = 0.6;
qd: quadrupole, l = 0.3, k1 = -0.6;
sf: sextupole, l = 0.1, k2 = 3.0;
mk: marker;
beam, particle = electron, energy = 1.0;
"""

# The cell (10 m) as (element, length, centre position). Every sequence below places these elements.
CELL = [("qf", 0.3, 0.5), ("sf", 0.1, 1.0), ("b", 1.2, 2.5), ("mk", 0.0, 4.0), ("qd", 0.3, 5.0),
        ("b", 1.2, 7.0), ("sf", 0.1, 8.8), ("qf", 0.3, 9.5)]


def placed(refer, offset=0.0, frm=None):
    """The cell's lines for REFER = refer; frm: positions relative to the marker mk (placed absolutely)."""
    shift = {"entry": -0.5, "centre": 0.0, "exit": 0.5}[refer]
    lines = []
    for name, length, at in CELL:
        pos = at + shift * length + offset
        if frm and name != "mk":
            lines.append(f"{name}, at = {pos - (4.0 + offset)!r}, from = mk;")
        else:
            lines.append(f"{name}, at = {pos!r};")
    return " ".join(lines)


def flat(refer, frm=None):
    body = placed(refer, 0.0, frm) + " " + placed(refer, 10.0, frm).replace("mk,", "mk2: mk,").replace(
        "from = mk;", "from = mk2;")
    return ELEMENTS + f"ring: sequence, l = 20, refer = {refer}; {body} endsequence;\n"


def nested(inner, outer):
    return ELEMENTS + (f"cell: sequence, l = 10, refer = {inner}; {placed(inner)} endsequence;\n"
                       f"ring: sequence, l = 20, refer = {outer}; "
                       f"cell, at = {({'entry': 0.0, 'centre': 5.0, 'exit': 10.0}[outer])}; "
                       f"cell, at = {({'entry': 10.0, 'centre': 15.0, 'exit': 20.0}[outer])}; endsequence;\n")


# Without --all (CI) three of the seven: refer = exit, from, and a nested sequence.
CASES = {
    "refer=exit": flat("exit"),
    "from, refer=entry": flat("entry", frm=True),
    "nested (exit in entry)": nested("exit", "entry"),
}
if "--all" in sys.argv[3:]:
    CASES.update({
        "refer=entry": flat("entry"),
        "refer=centre": flat("centre"),
        "from, refer=centre": flat("centre", frm=True),
        "nested (entry in centre)": nested("entry", "centre"),
    })

with tempfile.TemporaryDirectory() as tmp:
    reference = None
    for k, (name, text) in enumerate(CASES.items()):
        g = gtrack_optics(tmp, text, f"case{k}")
        t = madx(text).twiss(sequence="ring")
        keep = [not n.split(":")[0].endswith(("$start", "$end")) for n in t.name]
        length = float(t.summary.length)
        check(f"{name}: s at every element exit", g["s"][1:], np.asarray(t.s)[keep], 1e-12 * length)
        check(f"{name}: tune_x", g["tune_x"], t.summary.q1, 1e-8)
        check(f"{name}: tune_y", g["tune_y"], t.summary.q2, 1e-8)
        # The premise: every way of writing it is the same ring (MAD-X's own tunes agree).
        if reference is None:
            reference = (t.summary.q1, t.summary.q2)
        check(f"{name}: the same ring in MAD-X", [t.summary.q1, t.summary.q2], reference, 1e-10)

finish()
