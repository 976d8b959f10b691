#!/usr/bin/env python3
"""Import a MAD-X lattice into a gtrack deck.

MAD-X itself (through cpymad) parses the file, evaluates every expression and macro and expands the
sequence, so what is converted is what MAD-X would track. Every element that has no gtrack
equivalent is listed with its name, type and reason; the import fails unless --replace-with-drifts is
given (then each becomes a drift of its length).

    scripts/import_madx.py ring.madx --sequence ring -o ring.toml [--twiss] [--turns N]

With --twiss, [beam.twiss] is MAD-X's periodic solution at the start of the sequence and the
emittances of its BEAM command (ex, ey; MAD-X's defaults ex = ey = 1 m are not a beam: a placeholder
then, with a message); otherwise a placeholder to fill in. After converting, the positions of all
elements and the total length are checked against MAD-X's SURVEY: any difference beyond round-off fails
the import.
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
    "quadrupole": ["ktap", "k0", "k0s"],
    "sbend": ["k0s", "h1", "h2", "ktap"],
    "rbend": ["k0s", "h1", "h2", "ktap"],
    "sextupole": ["ktap"],
    "octupole": ["ktap"],
    "rfcavity": ["volt_err", "freq_err"],
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


def trimmed(values):
    """A MAD-X array (knl, ksl) as floats without its trailing zeros."""
    out = [float(x) for x in values]
    while out and out[-1] == 0:
        out.pop()
    return out


def base_type(e) -> str:
    """The element's MAD-X base type ("quadrupole", ...). cpymad's Element.base_type looks the base
    element up through MAD-X (one round trip per call, most of the import time of a large ring); the
    name is in the element's own data."""
    try:
        return str(e._attr["base_type"])
    except (AttributeError, KeyError, TypeError):
        return e.base_type.name


def common(e, keys):
    tilt = attr(e, "tilt")
    if tilt:
        keys["tilt"] = tilt
    return keys


class Context:
    """What conversions need besides the element: MAD-X options and the ring's revolution frequency."""

    def __init__(self, rbarc=True, revolution_frequency=0.0):
        self.rbarc = rbarc
        self.revolution_frequency = revolution_frequency  # [Hz] of the reference around the sequence
        self.notes: list[str] = []  # what was approximated or read in a way worth saying
        # [m] the length MAD-X gives the current element's node (its SURVEY's l: what its TWISS and
        # SURVEY advance s by), None when not known
        self.node_length: float | None = None
        self.chord_rbends: list[str] = []  # RBENDs whose node length is not their arc (see convert)


# MAD-X aperture types, and what gtrack's rectangle or ellipse makes of them (docs/lattice-import.md).
APERTURES = {"circle", "ellipse", "rectangle", "rectellipse", "lhcscreen", "racetrack", "octagon"}


def aperture_shape(name, apertype, aperture, context):
    """(shape, half_x, half_y) of a MAD-X aperture, or None for no aperture (all sizes zero).
    Raises ValueError for a type gtrack cannot represent at all."""
    a = [float(x) for x in aperture] + [0.0] * 4
    if apertype not in APERTURES:
        raise ValueError(f"aperture type '{apertype}' has no gtrack counterpart")
    if not any(a[:4]):
        return None  # MAD-X: zero sizes are no aperture
    if apertype == "circle":
        return ("ellipse", a[0], a[0])
    if apertype == "ellipse":
        return ("ellipse", a[0], a[1] or a[0])
    if apertype == "rectangle":
        return ("rectangle", a[0], a[1] or a[0])
    if apertype in ("rectellipse", "lhcscreen"):
        rx, ry, ex, ey = a[0], a[1], a[2], a[3] or a[2]
        if ex <= 0 or ry <= 0 and rx <= 0:
            return ("rectangle", rx, ry) if ex <= 0 else ("ellipse", ex, ey)
        if (rx / ex) ** 2 + (ry / ey) ** 2 <= 1.0:
            return ("rectangle", rx, ry)  # the ellipse encloses the rectangle: exact
        if ex <= rx and ey <= ry:
            return ("ellipse", ex, ey)  # the rectangle encloses the ellipse: exact
        context.notes.append(f"{name}: {apertype} {a[:4]} approximated by its rectangle (the ellipse's cut "
                             "corners are not modelled: gtrack has one shape per aperture)")
        return ("rectangle", rx, ry)
    if apertype == "racetrack":
        context.notes.append(f"{name}: racetrack {a[:3]} approximated by its rectangle (rounded corners of "
                             f"radius {a[2]} m not modelled)")
        return ("rectangle", a[0], a[1])
    context.notes.append(f"{name}: octagon {a[:4]} approximated by its rectangle (the cut corners not modelled)")
    return ("rectangle", a[0], a[1])


def convert(e, lattice: Lattice, context: Context | None = None):
    """Adds one expanded MAD-X element to the lattice (converted or listed as unconvertible)."""
    context = context or Context()
    name, kind, length = e.name, base_type(e), float(attr(e, "l"))
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
        if length > 0:
            # A placeholder or an instrument of some length (gtrack's markers and monitors are thin):
            # a drift of its length, so that nothing downstream moves.
            if kind != "placeholder":
                context.notes.append(f"{name}: a {kind} of length {length} m imported as a drift of that length")
            lattice.add(Element(name, "drift", {"length": length}))
        else:
            lattice.add(Element(name, MARKERS[kind] or "marker", {}))
    elif kind == "drift":
        lattice.add(Element(name, "drift", {"length": length}))
    elif kind == "quadrupole":
        if length == 0:
            # MAD-X gives a zero-length quadrupole no integrated strength (k1 l = 0; checked with its
            # twiss): an empty thin multipole tracks what MAD-X tracks.
            if attr(e, "k1") or attr(e, "k1s"):
                context.notes.append(f"{name}: a quadrupole of zero length has no integrated strength in MAD-X "
                                     "(k1 l = 0): imported as an empty thin multipole")
            lattice.add(Element(name, "multipole", {}))
            return
        k1, k1s, tilt = attr(e, "k1"), attr(e, "k1s"), attr(e, "tilt")
        if k1s:
            # A skew component: the field of (k1, k1s) is a normal quadrupole of strength |k| rolled by
            # -atan2(k1s, k1)/2 (MAD-X: k1s alone equals k1 with tilt = -pi/4; checked in the tests).
            tilt -= math.atan2(k1s, k1) / 2
            k1 = math.hypot(k1, k1s)
        keys = {"length": length, "k1": k1}
        if tilt:
            keys["tilt"] = tilt
        lattice.add(Element(name, "quadrupole", keys))
    elif kind in ("sbend", "rbend"):
        angle = attr(e, "angle")
        e1, e2, arc = attr(e, "e1"), attr(e, "e2"), length
        if kind == "rbend":
            # MAD-X (option rbarc, its default): l is the chord; the faces are parallel, i.e. a sector
            # bend with angle/2 added to each pole-face angle.
            # With option, rbarc = false the length is the arc already.
            if context.rbarc:
                arc = length * (angle / 2) / math.sin(angle / 2) if angle else length
            # MAD-X (5.09, cpymad 1.20) gives an RBEND in a nested sequence (the CERN PS Booster's files)
            # the chord as its node length whatever rbarc says, and its TWISS and SURVEY track the bend
            # with that length (tests/python/rbend_madx_test.py). The node's length is what MAD-X
            # tracks: it is taken when known.
            if context.node_length is not None and context.node_length > 0:
                if not math.isclose(context.node_length, arc, rel_tol=1e-12):
                    context.chord_rbends.append(name)
                arc = context.node_length
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
        if attr(e, "k2"):  # the body's sextupole component (gtrack's exact bend model, MAD-X's field)
            keys["k2"] = attr(e, "k2")
        # The body's other components: kicks in gtrack's exact bend. MAD-X's TWISS ignores them in a thick
        # bend (twiss.f90, tmbend: only K1, K2 reach the map; mad_dict.c: "ignored"); PTC and MAKETHIN's
        # slices use them, KNL and KSL spread over the length and added to the K's, as gtrack's bend does.
        for key in ("k1s", "k2s", "k3", "k3s"):
            if attr(e, key):
                keys[key] = attr(e, key)
        for key in ("knl", "ksl"):
            values = trimmed(attr(e, key, []))
            if values:
                keys[key] = values
        lattice.add(Element(name, "sbend", common(e, keys)))
    elif kind in ("sextupole", "octupole"):
        order = "k2" if kind == "sextupole" else "k3"
        k, ks = attr(e, order), attr(e, order + "s")
        if length == 0:
            # As for quadrupoles: MAD-X's integrated strength k l is zero.
            if k or ks:
                context.notes.append(f"{name}: a {kind} of zero length has no integrated strength in MAD-X "
                                     f"({order} l = 0): imported as an empty thin multipole")
            lattice.add(Element(name, "multipole", {}))
            return
        keys = {"length": length, order: k}
        if ks:
            keys[order + "s"] = ks
        lattice.add(Element(name, kind, common(e, keys)))
    elif kind == "multipole":
        knl, ksl = trimmed(attr(e, "knl", [])), trimmed(attr(e, "ksl", []))
        k0l, angle = (knl[0] if knl else 0.0), attr(e, "angle")
        if ksl and ksl[0]:
            # MAD-X's TWISS bends the reference vertically by a skew dipole (no orbit kick, R43 = -ksl0^2 /
            # lrad; cpymad's rmatrix) while its SURVEY does not (user guide, SURVEY): no gtrack element does.
            lattice.unconvertible(name, kind, "a skew dipole ksl[0] (MAD-X's TWISS bends the reference "
                                  "vertically by it, its SURVEY does not): no gtrack element does", 0.0)
            return
        if angle and not math.isclose(angle, k0l, rel_tol=1e-12):
            # MAD-X's TWISS of such a multipole takes the chromatic term from knl[0] and the curvature from
            # ANGLE (cpymad's rmatrix): not the thin slice of a bend; gtrack's thin bend has knl[0] = angle.
            lattice.unconvertible(name, kind, f"angle {angle} differs from knl[0] = {k0l} (a reference curve "
                                  "that its field does not follow)", 0.0)
            return
        keys = {}
        if knl:
            keys["knl"] = knl
        if ksl:
            keys["ksl"] = ksl
        if k0l:
            # MAD-X: a dipole component has "the same effect on the reference orbit as a dipole with zero
            # length and deflection angle K0L" (user guide, MULTIPOLE): MAKETHIN's slices of a bend, a thin
            # dipole; LRAD gives the slice's weak focusing knl[0]^2 / lrad (kernels/elements/Multipole.hh).
            keys["angle"] = k0l
            if attr(e, "lrad"):
                keys["lrad"] = attr(e, "lrad")
        lattice.add(Element(name, "multipole", common(e, keys)))
    elif kind == "solenoid":
        if length == 0:
            # MAD-X's thin solenoid: KSI (= ks l) turns the coordinates by ksi/2, LRAD gives its focusing.
            keys = {"ksi": attr(e, "ksi")}
            if attr(e, "lrad"):
                keys["lrad"] = attr(e, "lrad")
            lattice.add(Element(name, "thinsolenoid", keys) if keys["ksi"] else Element(name, "marker", {}))
            return
        if not attr(e, "ks"):
            # A solenoid switched off is a drift: MAD-X tracks it as one (the ELENA ring's compensation
            # solenoids).
            context.notes.append(f"{name}: a solenoid with ks = 0 imported as a drift of its length")
            lattice.add(Element(name, "drift", {"length": length}))
            return
        # The exact map: MAD-X's solenoid has its chromatic terms (the linear model has none: 0.09 in Q' on
        # the ELENA ring).
        lattice.add(Element(name, "solenoid", {"length": length, "ks": attr(e, "ks"), "model": "exact"}))
    elif kind == "rfcavity":
        freq = attr(e, "freq") * 1e6  # MHz -> Hz
        if freq <= 0 and attr(e, "harmon"):
            # frequency = h x the revolution frequency of the reference around this sequence
            freq = attr(e, "harmon") * context.revolution_frequency
        if freq <= 0 and not attr(e, "volt"):
            # No voltage and no frequency: MAD-X tracks a drift of its length.
            lattice.add(Element(name, "drift", {"length": length}) if length else Element(name, "marker", {}))
            return
        if freq <= 0:
            lattice.unconvertible(name, kind, "no frequency (freq = 0 and no harmon)", length)
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
    elif kind == "dipedge":  # MAD-X's DIPEDGE is first order, as gtrack's dipedge
        keys = {"h": attr(e, "h")}
        for key in ("e1", "fint", "hgap"):
            if attr(e, key):
                keys[key] = attr(e, key)
        lattice.add(Element(name, "dipedge", common(e, keys)) if keys["h"] else Element(name, "marker", {}))
    elif kind == "srotation":  # the same rotation as MAD-X's (kernels/elements/SRotation.hh)
        lattice.add(Element(name, "srotation", {"angle": attr(e, "angle")}))
    elif kind in COLLIMATORS:
        apertype = str(attr(e, "apertype", "circle")).lower()
        aperture = [float(x) for x in attr(e, "aperture", [])]
        try:
            shape = aperture_shape(name, apertype, aperture, context)
        except ValueError as why:
            lattice.unconvertible(name, kind, str(why), length)
            return
        if shape is None:  # zero sizes: no aperture, a drift of its length
            lattice.add(Element(name, "drift", {"length": length}) if length else Element(name, "marker", {}))
            return
        lattice.add(Element(name, "collimator", {"shape": shape[0], "half_x": shape[1], "half_y": shape[2],
                                                 "length": length}))
    else:
        lattice.unconvertible(name, kind, "no gtrack element of this type", length)


C_LIGHT = 299792458.0  # [m/s]


def expanded_elements(madx, sequence):
    """The expanded sequence's elements, one round trip to the MAD-X process each. cpymad's
    Sequence.expanded_elements asks for the element count before every element (two round trips each: 58 899
    requests instead of 29 439 for the thin CLIC damping ring, tests/python/makethin_madx_test.py)."""
    from cpymad.madx import Element  # what cpymad's list makes of each element's data
    lib = madx._libmadx
    for i in range(lib.get_expanded_element_count(sequence)):
        data = lib.get_expanded_element(sequence, i)
        data["index"] = i
        yield Element(madx, data)


def check_positions(lattice: Lattice, survey, rel=1e-12):
    """'' when every element of the deck ends where MAD-X's survey puts it (to round-off: 1e-12 of the
    position, at least 1e-9 m), else the first difference, named."""
    rows = [(str(n).split(":")[0], float(s)) for n, s in zip(survey.name, survey.s)
            if not str(n).split(":")[0].endswith(("$start", "$end"))]
    if len(rows) != len(lattice.line):
        return f"{len(lattice.line)} elements in the deck, {len(rows)} in MAD-X's survey"
    s = 0.0
    for k, (name, (madx_name, madx_s)) in enumerate(zip(lattice.line, rows)):
        s += float(lattice.elements[name].keys.get("length", 0.0))
        if name != madx_name:
            return f"element {k} is '{name}' in the deck, '{madx_name}' in MAD-X"
        if abs(s - madx_s) > max(1e-9, rel * abs(madx_s)):
            return (f"element {k} ('{name}') ends at s = {s!r} m in the deck, {madx_s!r} m in MAD-X "
                    f"(difference {s - madx_s:.3g} m)")
    return ""


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
    beam = seq.beam
    # MAD-X's own positions: the survey of the expanded sequence (every element's exit s and length).
    survey = madx.survey(sequence=args.sequence)
    circumference = float(survey.s[-1])
    context = Context(rbarc=bool(madx.options.rbarc),
                      revolution_frequency=float(beam.beta) * C_LIGHT / circumference if circumference > 0 else 0.0)

    lattice = Lattice()
    element_apertures = []
    # The survey's node lengths, in the order of the expanded sequence (without its $start, $end markers).
    node_lengths = [float(length) for n, length in zip(survey.name, survey.l)
                    if not str(n).split(":")[0].endswith(("$start", "$end"))]
    k = 0
    for e in expanded_elements(madx, args.sequence):
        # MAD-X's own sequence-boundary markers (NAME$start, NAME$end) are not the user's elements.
        kind = base_type(e)
        if kind == "marker" and e.name.endswith(("$start", "$end")):
            continue
        context.node_length = node_lengths[k] if k < len(node_lengths) else None
        k += 1
        convert(e, lattice, context)
        if kind not in COLLIMATORS and any(float(x) for x in attr(e, "aperture", [])):
            element_apertures.append(e.name)
    if context.chord_rbends:
        context.notes.append(
            f"{len(context.chord_rbends)} RBEND(s) (first: {context.chord_rbends[0]}) have a node length in MAD-X "
            "that is not their arc (MAD-X keeps the chord as the length it tracks "
            "in a nested sequence): imported with MAD-X's node length, as its TWISS and SURVEY have them")
    if element_apertures:
        context.notes.append(f"{len(element_apertures)} element(s) carry a MAD-X aperture that is not imported "
                             f"(first: {element_apertures[0]}): gtrack's apertures are elements of their own "
                             "or [lattice] global_half_x/y")
    for note in dict.fromkeys(context.notes):  # once each, in order (an element repeats in the line)
        print(f"import_madx: note: {note}", file=sys.stderr)
    if not settle_unconverted(lattice, args.replace_with_drifts, "import_madx"):
        return 1
    problem = check_positions(lattice, survey)
    if problem:
        print(f"import_madx: {args.madx}: the deck does not reproduce MAD-X's positions: {problem}", file=sys.stderr)
        return 1

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
        if float(beam.ex) == 1.0 and float(beam.ey) == 1.0:
            # MAD-X's defaults (ex = ey = 1 m): not a beam anyone means; such a deck loses every particle.
            print("import_madx: note: BEAM has MAD-X's default emittances ex = ey = 1 m: the deck gets a "
                  "placeholder of 1e-9 m; set [beam.twiss] emittance_x, emittance_y", file=sys.stderr)
            twiss["emittance_x"] = twiss["emittance_y"] = 1e-9
    header = (f"Imported from the MAD-X file {os.path.basename(args.madx)}, sequence {args.sequence},\n"
              f"by scripts/import_madx.py ({len(lattice.line)} elements).")
    # BEAM, RADIATE: the ring radiates (classical mean loss) and its cavities, phased by LAG to replace the
    # loss, keep the reference at the design energy ([lattice] radiation = "mean", docs/physics.md).
    radiate = bool(beam.radiate)
    if radiate:
        print("import_madx: note: BEAM has RADIATE: the deck gets [lattice] radiation = \"mean\" (the mean "
              "energy loss; no quantum excitation)", file=sys.stderr)
    text = deck(header, args.sequence, beam_section(pkeys, float(beam.pc) * 1e3, twiss), lattice, args.turns,
                radiate)
    write_text(text, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
