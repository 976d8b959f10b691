#!/usr/bin/env python3
"""Import an ELEGANT lattice (.lte) into a gtrack deck.

Reads the file as ELEGANT does (scripts/elegant_lte.py: quoted names of any characters, string parameters,
'&' continuations, RPN values, empty line items), expands the line to use, and converts every element type
gtrack has, with ELEGANT's documented defaults where the file leaves a parameter out. Every element it
cannot convert is listed with its name, type and reason, and every parameter it leaves out with no effect
on gtrack's tracking is listed in a note; the import fails unless --replace-with-drifts is given. The
deck's element positions are then checked against a sum of ELEGANT's lengths over the expanded line.

    scripts/import_elegant.py linac.lte [--use LINE] --particle electron --momentum-mev 150 -o linac.toml
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from elegant_lte import Lte, LteError  # noqa: E402
from elegant_convert import OTHER_TYPES, TYPES, Converter, check_positions, resolve_type  # noqa: E402
from lattice_deck import Lattice, beam_section, deck, settle_unconverted, write_text  # noqa: E402

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("lte", help="ELEGANT lattice file")
    p.add_argument("--use", help="the beamline to import (default: the last one defined or USEd)")
    p.add_argument("--particle", default="electron", help="gtrack species of the beam (default electron)")
    p.add_argument("--momentum-mev", type=float, required=True, help="reference momentum p c [MeV]")
    p.add_argument("-o", "--output", help="deck to write (default: standard output)")
    p.add_argument("--turns", type=int, default=1)
    p.add_argument("--replace-with-drifts", action="store_true",
                   help="replace unconvertible elements by drifts of their length instead of failing")
    args = p.parse_args(argv)
    try:
        with open(args.lte) as f:
            lte = Lte(f.read(), args.lte, resolve_type, set(TYPES) | set(OTHER_TYPES))
        use = (args.use or lte.last_line or "").lower()
        if not use:
            raise LteError(f"{args.lte}: no beamline defined")
        names = lte.expand(use)
    except (LteError, OSError) as e:
        print(f"import_elegant: {e}", file=sys.stderr)
        return 1
    lattice = Lattice()
    try:
        converter = Converter(lte, lattice).run(names)
    except (LteError, ValueError) as e:
        print(f"import_elegant: {e}", file=sys.stderr)
        return 1
    converter.note_ignored("import_elegant")
    if not settle_unconverted(lattice, args.replace_with_drifts, "import_elegant"):
        return 1
    # The loud self-check: the deck's positions against a sum of ELEGANT's own lengths over the expanded line.
    problem = check_positions(lattice, names, lte, converter.inserted)
    if problem:
        print(f"import_elegant: {args.lte}: the deck does not reproduce ELEGANT's positions: {problem}",
              file=sys.stderr)
        return 1
    beam = {"particle": args.particle}
    if converter.bunch_charge:
        beam["bunch_charge"] = f"{converter.bunch_charge!r} C"
    header = (f"Imported from the ELEGANT file {os.path.basename(args.lte)}, beamline {use},\n"
              f"by scripts/import_elegant.py ({len(lattice.line)} elements).")
    text = deck(header, use, beam_section(beam, args.momentum_mev, None), lattice, args.turns)
    write_text(text, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
