#!/usr/bin/env python3
"""Import a MAD-X lattice into a gtrack deck.

MAD-X itself (through cpymad) parses the file, evaluates every expression and macro and expands the
sequence, so what is converted is what MAD-X would track. Every element that has no gtrack
equivalent is listed with its name, type and reason; the import fails unless --replace-with-drifts is
given (then each becomes a drift of its length).

    scripts/import_madx.py ring.madx --sequence ring -o ring.toml [--twiss] [--turns N]

With --twiss, [beam.twiss] is MAD-X's periodic solution at the start of the sequence and the
emittances of its BEAM command (ex, ey); otherwise a placeholder to fill in.
Install: pip install cpymad (scripts/install-deps.sh --python does).
"""
from __future__ import annotations

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lattice_deck import (Element, Lattice, beam_section, deck, settle_unconverted, source_types,  # noqa: E402
                          write_text)

# Attributes gtrack has no counterpart for: a non-zero value makes the element unconvertible.
UNSUPPORTED = {
    "quadrupole": ["k1s", "ktap", "k0", "k0s"],
    "sbend": ["k0s", "k1s", "k2", "k2s", "k3", "k3s", "h1", "h2", "ktap"],
    "rbend": ["k0s", "k1s", "k2", "k2s", "k3", "k3s", "h1", "h2", "ktap"],
    "sextupole": ["ktap"],
    "octupole": ["ktap"],
    "solenoid": ["ksi"],
    "rfcavity": ["harmon", "volt_err", "freq_err"] ,
}
MARKERS = {"marker": "marker", "monitor": "monitor", "hmonitor": "monitor", "vmonitor": "monitor",
           "instrument": "monitor", "placeholder": None}
KICKERS = {"hkicker", "vkicker", "kicker", "tkicker"}
COLLIMATORS = {"rcollimator": "rectangle", "ecollimator": "ellipse", "collimator": None}
PARTICLES = {"proton": "proton", "antiproton": "antiproton", "electron": "electron", "positron": "positron",
             "negmuon": "mu-", "posmuon": "mu+"}


def attr(e, name, default=0.0):
    try:
        v = e[name]
    except (KeyError, AttributeError):
        return default
    return default if v is None else v


def common(e, keys):
    tilt = attr(e, "tilt")
    if tilt:
        keys["tilt"] = tilt
    return keys


def convert(e, lattice: Lattice):
    """Adds one expanded MAD-X element to the lattice (converted or listed as unconvertible)."""
    name, kind, length = e.name, e.base_type.name, float(attr(e, "l"))
    if kind not in source_types("madx"):
        lattice.unconvertible(name, kind, "no gtrack element of this type", length)
        return
    bad = [a for a in UNSUPPORTED.get(kind, []) if attr(e, a)]
    if kind == "sbend" and attr(e, "k0") and not math.isclose(attr(e, "k0"), attr(e, "angle") / length, rel_tol=1e-12):
        bad.append("k0 != angle / l")
    if bad and kind in UNSUPPORTED:
        bad = [a for a in bad if a != "k0" or kind != "sbend"]
        if bad:
            lattice.unconvertible(name, kind, "non-zero " + ", ".join(bad) + " (gtrack has no such term)", length)
            return

    if kind in MARKERS:
        if kind == "placeholder" and length > 0:
            lattice.add(Element(name, "drift", {"length": length}))
        else:
            lattice.add(Element(name, MARKERS[kind] or "marker", {}))
    elif kind == "drift":
        lattice.add(Element(name, "drift", {"length": length}))
    elif kind == "quadrupole":
        if length == 0:
            lattice.unconvertible(name, kind, "a thin quadrupole: use a multipole", 0.0)
            return
        lattice.add(Element(name, "quadrupole", common(e, {"length": length, "k1": attr(e, "k1")})))
    elif kind in ("sbend", "rbend"):
        angle = attr(e, "angle")
        e1, e2, arc = attr(e, "e1"), attr(e, "e2"), length
        if kind == "rbend":
            # MAD-X (option rbarc, its default): l is the chord; the faces are parallel, i.e. a sector
            # bend with angle/2 added to each pole-face angle.
            arc = length * (angle / 2) / math.sin(angle / 2) if angle else length
            e1, e2 = e1 + angle / 2, e2 + angle / 2
        keys = {"length": arc, "angle": angle}
        if e1:
            keys["e1"] = e1
        if e2:
            keys["e2"] = e2
        fint = attr(e, "fint")
        fintx = attr(e, "fintx", -1.0)
        if fint:
            keys["fint"] = fint
        if fintx >= 0 and fintx != fint:  # MAD-X: fintx < 0 means "equal to fint"
            keys["fintx"] = fintx
        if attr(e, "hgap"):
            keys["hgap"] = attr(e, "hgap")
        if attr(e, "k1"):
            keys["k1"] = attr(e, "k1")
        lattice.add(Element(name, "sbend", common(e, keys)))
    elif kind in ("sextupole", "octupole"):
        order = "k2" if kind == "sextupole" else "k3"
        k, ks = attr(e, order), attr(e, order + "s")
        if length == 0:
            n = 2 if kind == "sextupole" else 3
            lattice.unconvertible(name, kind, f"zero length: give it as a multipole with knl[{n}]", 0.0)
            return
        keys = {"length": length, order: k}
        if ks:
            keys[order + "s"] = ks
        lattice.add(Element(name, kind, common(e, keys)))
    elif kind == "multipole":
        knl = [float(x) for x in attr(e, "knl", [])]
        ksl = [float(x) for x in attr(e, "ksl", [])]
        while knl and knl[-1] == 0:
            knl.pop()
        while ksl and ksl[-1] == 0:
            ksl.pop()
        keys = {}
        if knl:
            keys["knl"] = knl
        if ksl:
            keys["ksl"] = ksl
        lattice.add(Element(name, "multipole", common(e, keys)))
    elif kind == "solenoid":
        if length == 0:
            lattice.unconvertible(name, kind, "a thin solenoid (ksi) has no gtrack counterpart", 0.0)
            return
        lattice.add(Element(name, "solenoid", {"length": length, "ks": attr(e, "ks")}))
    elif kind == "rfcavity":
        freq = attr(e, "freq") * 1e6  # MHz -> Hz
        if freq <= 0:
            lattice.unconvertible(name, kind, "no frequency (freq = 0; harmon needs the ring's revolution)", length)
            return
        # MAD-X: dE = q V sin(2 pi lag - omega t); gtrack's phase is 0 on crest: phase = 360 lag - 90 deg.
        keys = {"length": length, "voltage": attr(e, "volt") * 1e6, "frequency": freq,
                "phase": 360.0 * attr(e, "lag") - 90.0}
        lattice.add(Element(name, "rfcavity", keys))
    elif kind in KICKERS:
        if kind == "hkicker":
            h, v = attr(e, "kick"), 0.0
        elif kind == "vkicker":
            h, v = 0.0, attr(e, "kick")
        else:
            h, v = attr(e, "hkick"), attr(e, "vkick")
        keys = {"length": length}
        if h:
            keys["hkick"] = h
        if v:
            keys["vkick"] = v
        lattice.add(Element(name, "kicker", common(e, keys)))
    elif kind == "srotation":  # the same rotation as MAD-X's (kernels/elements/SRotation.hh)
        lattice.add(Element(name, "srotation", {"angle": attr(e, "angle")}))
    elif kind in COLLIMATORS:
        apertype = str(attr(e, "apertype", "circle")).lower()
        aperture = [float(x) for x in attr(e, "aperture", [])]
        shape = {"rectangle": "rectangle", "ellipse": "ellipse", "circle": "ellipse"}.get(apertype)
        if shape is None or not aperture or aperture[0] <= 0:
            lattice.unconvertible(name, kind, f"aperture type '{apertype}' {aperture} is not a rectangle or ellipse",
                                  length)
            return
        half_x = aperture[0]
        half_y = aperture[0] if apertype == "circle" or len(aperture) < 2 else aperture[1]
        lattice.add(Element(name, "collimator", {"shape": shape, "half_x": half_x, "half_y": half_y,
                                                 "length": length}))
    else:
        lattice.unconvertible(name, kind, "no gtrack element of this type", length)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("madx", help="MAD-X input file (calls, macros and all)")
    p.add_argument("--sequence", required=True, help="the sequence (or line) to import")
    p.add_argument("-o", "--output", help="deck to write (default: standard output)")
    p.add_argument("--twiss", action="store_true", help="fill [beam.twiss] from MAD-X's periodic solution")
    p.add_argument("--turns", type=int, default=1)
    p.add_argument("--replace-with-drifts", action="store_true",
                   help="replace unconvertible elements by drifts of their length instead of failing")
    args = p.parse_args(argv)

    from cpymad.madx import Madx  # here, so that --help works without cpymad

    if not os.path.isfile(args.madx):
        print(f"import_madx: {args.madx}: no such file", file=sys.stderr)
        return 1
    madx = Madx(stdout=False)
    folder = os.path.dirname(os.path.abspath(args.madx))
    madx.chdir(folder)
    madx.call(os.path.basename(args.madx))
    madx.use(sequence=args.sequence)  # a line becomes a sequence here; an unknown name makes none
    if args.sequence.lower() not in madx.sequence:
        print(f"import_madx: {args.madx}: MAD-X has no sequence or line '{args.sequence}' to use", file=sys.stderr)
        return 1
    seq = madx.sequence[args.sequence]

    lattice = Lattice()
    for e in seq.expanded_elements:
        # MAD-X's own sequence-boundary markers (NAME$start, NAME$end) are not the user's elements.
        if e.base_type.name == "marker" and e.name.endswith(("$start", "$end")):
            continue
        convert(e, lattice)
    if not settle_unconverted(lattice, args.replace_with_drifts, "import_madx"):
        return 1

    beam = seq.beam
    particle = str(beam.particle).lower()
    if particle in PARTICLES:
        pkeys = {"particle": PARTICLES[particle]}
    else:
        pkeys = {"particle": "ion", "mass": f"{beam.mass * 1e3!r} MeV", "charge": float(beam.charge)}
    twiss = None
    if args.twiss:
        t = madx.twiss(sequence=args.sequence)
        twiss = {"beta_x": float(t.betx[0]), "alpha_x": float(t.alfx[0]), "beta_y": float(t.bety[0]),
                 "alpha_y": float(t.alfy[0]), "emittance_x": float(beam.ex), "emittance_y": float(beam.ey)}
    header = (f"Imported from the MAD-X file {os.path.basename(args.madx)}, sequence {args.sequence},\n"
              f"by scripts/import_madx.py ({len(lattice.line)} elements).")
    text = deck(header, args.sequence, beam_section(pkeys, float(beam.pc) * 1e3, twiss), lattice, args.turns)
    write_text(text, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
