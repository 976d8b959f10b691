"""ELEGANT elements in gtrack's terms: used by scripts/import_elegant.py.

Defaults are ELEGANT's own where the file leaves a parameter out (its manual's element dictionary,
ops.aps.anl.gov/manuals/elegant_latest, and the same table in its source, src/track_data.c):
- RFCA, RFCW: FREQ = 500 MHz (manual 10.88 RFCA: "FREQ Hz double 500000000"); PHASE = 90 is the crest;
- CSBEND, SBEN, RBEN: FINT = 0.5 (manual 10.20 CSBEND: "FINT double 0.5"; DEFAULT_FINT in src/track.h),
  FINT1, FINT2 = -1: "If negative, use FINT"; HGAP = 0 (so FINT acts only where HGAP is given);
  EDGE_ORDER = 1, EDGE1_EFFECTS = EDGE2_EFFECTS = 1;
- RBEN: L is the magnet's straight (chord) length ("magnet (straight) length"); ELEGANT turns it into a
  sector bend of arc L (angle/2)/sin(angle/2) with angle/2 added to each face (src/mad_parse.c);
- N_KICKS (KQUAD, KSEXT, KOCT, CSBEND; N_SLICES in newer versions, "full integrator steps") is the number of
  steps of ELEGANT's integrator: gtrack's quadrupole and bend bodies are exact maps that need none, and its
  thick sextupoles and octupoles take it as `kicks` (kicks per slice; ELEGANT's default: 4);
- MAXAMP: X_MAX, Y_MAX = 0 "causes the aperture to be ignored"; the aperture holds "for itself and all
  subsequent elements ... until another MAXAMP element is seen" (manual 10.64 MAXAMP);
- RCOL, ECOL: a zero X_MAX or Y_MAX leaves that plane open (src/limit_amplitudes.c);
- MALIGN: a shift of the beam's coordinates (DX, DXP, DY, DYP, DZ, DT, DP, DE), ON_PASS = -1: every pass;
  gtrack's beam_shift does offset_beam's DX, DXP, DY, DYP, DZ, DP, DT, DE (src/do_tracking.c; DE scales the
  total energy, gamma += DE gamma; with DP it starts from the energy before DP: the pair is refused);
- SCRAPER alone, one-sided: loses x - DX > POSITION inserted from +x, x - DX < POSITION from -x (beam_scraper,
  src/limit_amplitudes.c): an aperture open on the far side; with L > 0 and XO = 0 the limit holds at the entrance
  and, after a drift of L, at the exit (the same function): aperture, drift, aperture;
- MAXAMP OPEN_SIDE: kept outside the shape on the open side of the axis while |y| < Y_MAX (open +x; x alike
  for +y, -y), evaluateLostWithOpenSides (src/limit_amplitudes.c): the aperture's open_side.
"""
from __future__ import annotations

import math
import sys

from lattice_deck import Element, Lattice, source_types

# ELEGANT type -> gtrack role.
TYPES = {
    "DRIF": "drift", "DRIFT": "drift", "EDRIFT": "drift",
    "QUAD": "quad", "QUADRUPOLE": "quad", "KQUAD": "quad",
    "SBEN": "sbend", "SBEND": "sbend", "CSBEND": "sbend", "CSBEN": "sbend", "NIBEND": "sbend",
    "RBEN": "rbend", "RBEND": "rbend",
    "SEXT": "sext", "SEXTUPOLE": "sext", "KSEXT": "sext",
    "OCTU": "octu", "OCTUPOLE": "octu", "KOCT": "octu",
    "MULT": "mult", "SOLE": "sole", "SOLENOID": "sole",
    "RFCA": "rf", "RFCW": "rf",
    "HKICK": "hkick", "VKICK": "vkick", "KICKER": "kick", "EHKICK": "hkick", "EVKICK": "vkick", "EKICKER": "kick",
    "HKICKER": "hkick", "VKICKER": "vkick",
    "MARK": "marker", "MARKER": "marker", "MONI": "monitor", "HMON": "monitor", "VMON": "monitor",
    "WATCH": "monitor", "HISTOGRAM": "diagnostic", "MHISTOGRAM": "diagnostic", "SLICE": "diagnostic",
    "RCOL": "rcol", "ECOL": "ecol",
    "ROTATE": "rotate",
    # Elements of no gtrack type of their own, converted here: see convert() below.
    "MAXAMP": "maxamp", "SCRAPER": "scraper", "MALIGN": "malign", "CHARGE": "charge", "RECIRC": "recirc",
}
# Other ELEGANT types named in messages (abbreviations resolve against these too).
OTHER_TYPES = ["CSRDRIFT", "LSCDRIFT", "CENTER", "WAKE", "TRWAKE", "RFDF", "MATR", "SREFFECTS", "CSRCSBEND",
               "KSBEND", "WIGGLER", "CWIGGLER", "ILMATRIX", "TAPERAPC", "TAPERAPE", "TAPERAPR"]

# The parameters each role carries into gtrack.
USED = {
    "drift": {"L"}, "marker": set(), "monitor": {"L"}, "diagnostic": set(),
    "quad": {"L", "K1", "TILT", "DX", "DY"},
    "sbend": {"L", "ANGLE", "E1", "E2", "FINT", "FINT1", "FINT2", "HGAP", "K1", "K2", "K3", "K4", "TILT", "DX",
              "DY"},
    "sext": {"L", "K2", "TILT", "DX", "DY", "N_KICKS", "N_SLICES"},
    "octu": {"L", "K3", "TILT", "DX", "DY", "N_KICKS", "N_SLICES"},
    "mult": {"L", "KNL", "ORDER", "TILT", "DX", "DY"}, "sole": {"L", "KS"},
    "rf": {"L", "VOLT", "FREQ", "PHASE", "CHANGE_P0"},
    "hkick": {"L", "KICK", "TILT", "DX", "DY"}, "vkick": {"L", "KICK", "TILT", "DX", "DY"},
    "kick": {"L", "HKICK", "VKICK", "TILT", "DX", "DY"},
    "rcol": {"L", "X_MAX", "Y_MAX", "DX", "DY", "OPEN_SIDE"},
    "ecol": {"L", "X_MAX", "Y_MAX", "DX", "DY", "OPEN_SIDE"},
    "rotate": {"TILT"},
    "maxamp": {"X_MAX", "Y_MAX", "ELLIPTICAL", "EXPONENT", "YEXPONENT", "OPEN_SIDE"},
    "scraper": {"L", "POSITION", "INSERT_FROM", "DIRECTION", "DX", "DY"}, "malign": set(), "charge": {"TOTAL"},
    "recirc": set(),
}
USED["rbend"] = USED["sbend"]
# Parameters with no effect on gtrack's tracking: left out, and listed in a note. Output files, fit and
# correction bookkeeping, integrator settings of maps gtrack computes exactly, per-element radiation switches
# (gtrack's radiation is the deck's: [lattice] radiation).
IGNORED = {"GROUP", "FITPOINT", "WEIGHT", "FILENAME", "MODE", "LABEL", "INTERVAL", "START_PASS", "END_PASS",
           "PRECISION", "DISABLE", "FLUSH_INTERVAL", "N_KICKS", "N_SLICES", "INTEGRATION_ORDER", "ISR", "ISR1PART", "SYNCH_RAD",
           "SQRT_ORDER", "USE_RAD_DIST", "ADD_OPENING_ANGLE", "PHOTON_OUTPUT_FILE", "EDGE_ORDER", "ORDER",
           "FORCE_MODIFY_MATRIX", "CO_FITPOINT", "XCO", "YCO", "CALIBRATION", "XCALIBRATION", "YCALIBRATION",
           "STEERING", "SETPOINT", "X_SETPOINT", "Y_SETPOINT", "CALIBRATION_FACTOR", "BPM_NOISE", "FLOOR",
           "REFERENCE_CORRECTION", "LINEARIZE", "REFERENCE_ORDER", "EXCLUDE_ORBIT"}
# Defaults of parameters that are not zero by default (src/track_data.c): a value that differs from these
# (and from zero for every other parameter) changes the physics.
DEFAULTS = {"EDGE1_EFFECTS": 1.0, "EDGE2_EFFECTS": 1.0, "NONLINEAR": 1.0, "EXPONENT": 2.0, "ON_PASS": -1.0,
            "FINT": 0.5, "FINT1": -1.0, "FINT2": -1.0, "ETILT_SIGN": 1.0, "FREQ": 500e6, "PLIMIT": 0.05,
            "DIRECTION": -1.0, "START_PID": -1.0, "END_PID": -1.0, "T_REFERENCE": -1.0, "N_KICKS": 4.0,
            "N_SLICES": 4.0, "INTEGRATION_ORDER": 4.0, "EDGE_ORDER": 1.0, "ORDER": 1.0}
STRINGS = {"OPEN_SIDE", "INSERT_FROM", "FILENAME", "MODE", "GROUP", "FIDUCIAL", "BODY_FOCUS_MODEL",
           "SYSTEMATIC_MULTIPOLES", "RANDOM_MULTIPOLES", "STEERING_MULTIPOLES", "EDGE_MULTIPOLES", "METHOD",
           "LABEL", "PHOTON_OUTPUT_FILE", "INPUTFILE", "OUTPUTFILE", "RECORD"}
SHIFTS = ("DX", "DXP", "DY", "DYP", "DZ", "DT", "DP", "DE")  # MALIGN


def resolve_type(word: str) -> str:
    """The ELEGANT type of a type word, matched as ELEGANT's tell_type does (src/mad_parse.c): a type whose
    first min(len(word), len(type)) characters equal the word's, an exact match first, else the only one
    (so KQUADRUPOLE is KQUAD, HMONITOR is HMON, SEXTUPOLE is SEXT); an unknown or ambiguous word is kept
    (unconvertible)."""
    w = word.strip().upper()
    if w in TYPES or w in OTHER_TYPES:
        return w
    matches = [t for t in list(TYPES) + OTHER_TYPES if t.startswith(w) or w.startswith(t)]
    if len(w) >= 3 and len(set(TYPES.get(m, m) for m in matches)) == 1:
        return matches[0]
    return w


def number(params, key, default=0.0):
    v = params.get(key)
    return default if v is None else v.number()


def text(params, key):
    v = params.get(key)
    return "" if v is None else v.text.strip()


def elegant_length(kind, params) -> float:
    """The length ELEGANT advances s by (RBEN: the arc of its chord L, as ELEGANT converts it)."""
    role = TYPES.get(kind)
    if role in (None, "marker", "maxamp", "malign", "charge", "recirc", "rotate"):
        return number(params, "L") if role is None and "L" in params else 0.0
    length = number(params, "L")
    angle = number(params, "ANGLE")
    if role == "rbend" and abs(angle) > 1e-14:  # ELEGANT's own threshold (src/mad_parse.c)
        length *= (angle / 2) / math.sin(angle / 2)
    return length


class Converter:
    """Fills a Lattice from the expanded line, element by element, holding MAXAMP's aperture in force."""

    def __init__(self, lte, lattice: Lattice):
        self.lte, self.lattice = lte, lattice
        self.aperture = None  # the MAXAMP aperture in force (an Element), or None
        self.inserted = []  # indices in lattice.line of the apertures added after elements (MAXAMP)
        self.ignored = {}  # PARAM -> set of element names
        self.bunch_charge = None
        self.gtrack_types = source_types("elegant")

    def run(self, names):
        recirc = [i for i, n in enumerate(names) if self.lte.elements[n][0] == "RECIRC"]
        self.scraper_pairs = self.pair_scrapers(names)
        for i, name in enumerate(names):
            self.index = i
            kind, params, _ = self.lte.elements[name]
            self.convert(name, kind, params, recirc_after=(recirc and i < recirc[0]))
        return self

    def unconvertible(self, name, kind, reason, params):
        self.lattice.unconvertible(name, kind, reason, elegant_length(kind, params))

    def convert(self, name, kind, params, recirc_after=False):
        if TYPES.get(kind) == "maxamp":
            self.aperture = None  # a MAXAMP ends the one before, converted or not
        self.convert_one(name, kind, params, recirc_after)
        if elegant_length(kind, params) > 0 and self.aperture is not None:
            self.inserted.append(len(self.lattice.line))
            self.lattice.add(self.aperture)

    def convert_one(self, name, kind, params, recirc_after):
        role = TYPES.get(kind)
        length = elegant_length(kind, params)
        if role is None or (kind not in self.gtrack_types and role not in
                            ("maxamp", "scraper", "malign", "charge", "recirc", "diagnostic")):
            self.unconvertible(name, kind, "no gtrack element of this type", params)
            return
        problems = []
        for key, v in params.items():
            if key in USED[role] or key in ("L",):
                continue
            if key in IGNORED or role == "diagnostic":  # a diagnostic's parameters are all about its output
                self.ignored.setdefault(key, set()).add(name)
                continue
            if key in STRINGS:
                if v.text.strip():
                    problems.append(f"{key}=\"{v.text}\"")
                continue
            try:
                value = v.number()
            except Exception:
                problems.append(f"{key}={v.raw}")
                continue
            if value != DEFAULTS.get(key, 0.0):
                problems.append(f"{key}={v.raw}")
        if role == "recirc":
            problems = []
        if problems and role != "malign":
            self.unconvertible(name, kind, ", ".join(problems) + " (gtrack has no such term)", params)
            return
        if length < 0:  # ELEGANT takes negative drifts (a step back); gtrack's lengths are >= 0
            self.unconvertible(name, kind, f"negative length L={length!r}: gtrack's elements have lengths >= 0",
                               params)
            return
        if recirc_after and (length > 0 or role not in ("marker", "monitor", "malign", "charge")):
            # ELEGANT tracks the elements before a RECIRC on the first pass only; gtrack tracks every element
            # every turn.
            self.unconvertible(name, kind, "before the RECIRC element: ELEGANT tracks it on the first pass only",
                               params)
            return
        self.recirc_after = bool(recirc_after)
        method = "role_kicker" if role in ("hkick", "vkick", "kick") else "role_" + role
        getattr(self, method)(name, kind, params, length)

    def misalignment(self, params):
        out = {}
        for src, dst in (("TILT", "tilt"), ("DX", "dx"), ("DY", "dy")):
            if number(params, src):
                out[dst] = number(params, src)
        return out

    def add(self, name, gtrack_type, keys):
        self.lattice.add(Element(name, gtrack_type, keys))

    def role_drift(self, name, kind, params, length):
        self.add(name, "drift", {"length": length})

    def role_marker(self, name, kind, params, length):
        self.add(name, "marker", {})

    def role_monitor(self, name, kind, params, length):
        # gtrack's monitors are thin: one with a length is a drift of it, so nothing downstream moves.
        if length > 0:
            print(f"import_elegant: note: {name}: a {kind} of length {length} m imported as a drift of that length",
                  file=sys.stderr)
            self.add(name, "drift", {"length": length})
        else:
            self.add(name, "monitor", {})

    def role_diagnostic(self, name, kind, params, length):  # HISTOGRAM, SLICE: output only, thin
        self.add(name, "monitor", {})

    def role_recirc(self, name, kind, params, length):
        self.add(name, "marker", {})

    def role_quad(self, name, kind, params, length):
        if length == 0:
            self.unconvertible(name, kind, "zero length (K1 L = 0): give a thin quadrupole as a MULT", params)
            return
        self.add(name, "quadrupole", {"length": length, "k1": number(params, "K1"), **self.misalignment(params)})

    def role_rbend(self, name, kind, params, length):
        self.role_sbend(name, kind, params, length, rectangular=True)

    def role_sbend(self, name, kind, params, length, rectangular=False):
        angle, e1, e2 = number(params, "ANGLE"), number(params, "E1"), number(params, "E2")
        if rectangular:  # parallel faces: angle/2 added to each (src/mad_parse.c)
            e1, e2 = e1 + angle / 2, e2 + angle / 2
        keys = {"length": length, "angle": angle}
        if e1:
            keys["e1"] = e1
        if e2:
            keys["e2"] = e2
        hgap = number(params, "HGAP")
        if hgap:  # the fringe term is FINT HGAP: FINT alone (ELEGANT's default 0.5) acts only with a gap
            fint = number(params, "FINT", DEFAULTS["FINT"])
            fint1, fint2 = number(params, "FINT1", -1.0), number(params, "FINT2", -1.0)
            fint1, fint2 = (fint1 if fint1 >= 0 else fint), (fint2 if fint2 >= 0 else fint)
            keys["hgap"] = hgap
            if fint1:
                keys["fint"] = fint1
            if fint2 != fint1:
                keys["fintx"] = fint2
        if number(params, "K1"):
            keys["k1"] = number(params, "K1")
        if number(params, "K2"):  # CSBEND's midplane field B0 rho (K1 x + K2 x^2/2), as gtrack's exact bend
            keys["k2"] = number(params, "K2")
        # CSBEND's K3, K4: the midplane field's x^3/6 and x^4/24 terms, gtrack's body octupole k3 and the
        # decapole of knl (integrated: K4 L). gtrack adds no curvature terms to them (ELEGANT's field expansion
        # has its own: they differ at one order higher in h x; docs/lattice-import.md).
        if number(params, "K3"):
            keys["k3"] = number(params, "K3")
        if number(params, "K4"):
            keys["knl"] = [0.0, 0.0, 0.0, 0.0, number(params, "K4") * length]
        self.add(name, "sbend", {**keys, **self.misalignment(params)})

    def role_sext(self, name, kind, params, length):
        self.thick_multipole(name, kind, params, length, "sextupole", "K2")

    def role_octu(self, name, kind, params, length):
        self.thick_multipole(name, kind, params, length, "octupole", "K3")

    def thick_multipole(self, name, kind, params, length, gtrack_type, key):
        if length == 0:
            self.unconvertible(name, kind, "zero length: give it as a MULT", params)
            return
        keys = {"length": length, key.lower(): number(params, key)}
        if kind.startswith("K"):  # KSEXT, KOCT: N_KICKS (or N_SLICES) kicks, ELEGANT's default 4
            kicks = int(number(params, "N_SLICES", number(params, "N_KICKS", DEFAULTS["N_KICKS"])))
            if kicks != 4:
                keys["kicks"] = max(kicks, 1)
        self.add(name, gtrack_type, {**keys, **self.misalignment(params)})

    def role_rotate(self, name, kind, params, length):  # rotateBeamCoordinates: x' = x cos + y sin
        self.add(name, "srotation", {"angle": number(params, "TILT")})

    def role_mult(self, name, kind, params, length):
        if length > 0:
            self.unconvertible(name, kind, "a MULT with a length (its kicks spread over L): give L = 0", params)
            return
        order = int(number(params, "ORDER", 1.0))
        self.add(name, "multipole", {"knl": [0.0] * order + [number(params, "KNL")], **self.misalignment(params)})

    def role_sole(self, name, kind, params, length):
        self.add(name, "solenoid", {"length": length, "ks": number(params, "KS")})

    def role_rf(self, name, kind, params, length):
        # ELEGANT: dE = q V sin(phase), 90 deg on crest; gtrack's phase is 0 on crest. gtrack's reference
        # follows a cavity's energy gain (without radiation: docs/physics.md), as ELEGANT's CHANGE_P0 = 1 does;
        # with ELEGANT's default CHANGE_P0 = 0 and a gain, the magnets downstream see another reference: noted.
        gain = number(params, "VOLT") * math.sin(math.radians(number(params, "PHASE")))
        if not number(params, "CHANGE_P0") and abs(gain) > 1e-9 * abs(number(params, "VOLT")):
            print(f"import_elegant: note: {name}: CHANGE_P0 = 0 (ELEGANT's default) with an energy gain: gtrack's "
                  "reference follows the cavity, as ELEGANT's CHANGE_P0 = 1", file=sys.stderr)
        self.add(name, "rfcavity", {"length": length, "voltage": number(params, "VOLT"),
                                    "frequency": number(params, "FREQ", DEFAULTS["FREQ"]),
                                    "phase": number(params, "PHASE") - 90.0})

    def role_kicker(self, name, kind, params, length):
        role = TYPES[kind]
        h = number(params, "KICK") if role == "hkick" else number(params, "HKICK") if role == "kick" else 0.0
        v = number(params, "KICK") if role == "vkick" else number(params, "VKICK") if role == "kick" else 0.0
        keys = {"length": length}
        if h:
            keys["hkick"] = h
        if v:
            keys["vkick"] = v
        self.add(name, "kicker", {**keys, **self.misalignment(params)})

    @staticmethod
    def open_side(params):
        """ELEGANT's OPEN_SIDE as gtrack's `open_side` ("+x", "-x", "+y", "-y"; "" when not given), or None when
        ELEGANT refuses it: determineOpenSideCode (src/limit_amplitudes.c) takes a sign and x, y, h or v."""
        side = text(params, "OPEN_SIDE").lower()
        if not side:
            return ""
        if len(side) != 2 or side[0] not in "+-" or side[1] not in "xyhv":
            return None
        return side[0] + {"h": "x", "v": "y"}.get(side[1], side[1])

    def aperture_keys(self, params, elliptical):
        """gtrack's aperture keys of a collimator or MAXAMP ({shape, half_x, half_y, open_side}; a half size left
        out is an open plane, as ELEGANT's zero X_MAX or Y_MAX), or the reason it has none."""
        side = self.open_side(params)
        if side is None:
            return f"OPEN_SIDE=\"{text(params, 'OPEN_SIDE')}\": ELEGANT takes +x, -x, +y, -y (or h, v)"
        if elliptical and (number(params, "EXPONENT", 2.0) != 2.0 or number(params, "YEXPONENT") not in (0.0, 2.0)):
            return "EXPONENT, YEXPONENT other than 2: not an ellipse"
        keys = {"shape": "ellipse" if elliptical else "rectangle"}
        for key, plane in (("X_MAX", "half_x"), ("Y_MAX", "half_y")):
            if number(params, key) > 0:
                keys[plane] = number(params, key)
        if len(keys) == 2:  # one plane: an ECOL with a zero half-axis is ELEGANT's RCOL (src/limit_amplitudes.c)
            keys["shape"] = "rectangle"
        if side:
            # ELEGANT keeps a particle outside the shape on the open side of the axis while |other| < its half
            # size or that plane is open (evaluateLostWithOpenSides): kernels/elements/Aperture.hh's rule.
            keys["open_side"] = side
        return keys

    def role_rcol(self, name, kind, params, length):
        self.collimator(name, kind, params, length, False)

    def role_ecol(self, name, kind, params, length):
        self.collimator(name, kind, params, length, True)

    def collimator(self, name, kind, params, length, elliptical):
        if number(params, "X_MAX") <= 0 and number(params, "Y_MAX") <= 0:
            self.add(name, "drift", {"length": length})  # no aperture at all (an open side opens nothing more)
            return
        keys = self.aperture_keys(params, elliptical)
        if isinstance(keys, str):
            self.unconvertible(name, kind, keys, params)
            return
        if "open_side" not in keys:
            self.add(name, "collimator", {**keys, "length": length, **self.misalignment(params)})
            return
        # With an open side: ELEGANT checks the aperture at the entrance and at the exit of a drift (its
        # rectangular_ and elliptical_collimator, src/limit_amplitudes.c), as gtrack's collimator does, which has
        # no open side: the same, written out as an open aperture, the drift (the ELEGANT element's name, for
        # the position check) and the aperture again; the two faces are inserted entries.
        face = Element(name + "_face", "aperture", {**keys, **self.misalignment(params)})
        self.inserted.append(len(self.lattice.line))
        self.lattice.add(face)
        self.add(name, "drift", {"length": length})
        self.inserted.append(len(self.lattice.line))
        self.lattice.add(face)

    def role_maxamp(self, name, kind, params, length):
        # The aperture holds here and after every later element with a length (particles move only there),
        # until the next MAXAMP; ELEGANT also checks it inside KQUAD, KSEXT, CSBEND, ... (not modelled).
        self.aperture = None
        if number(params, "X_MAX") <= 0 and number(params, "Y_MAX") <= 0:  # with or without an open side
            self.add(name, "marker", {})  # "The default values of X_MAX and Y_MAX are 0, which causes the
            return  # aperture to be ignored"
        elliptical = bool(number(params, "ELLIPTICAL"))
        if elliptical and (number(params, "X_MAX") <= 0 or number(params, "Y_MAX") <= 0):
            self.unconvertible(name, kind, "ELLIPTICAL with a zero half-axis (downstream of it: no aperture until "
                               "the next MAXAMP)", params)
            return
        keys = self.aperture_keys(params, elliptical)
        if isinstance(keys, str):
            self.unconvertible(name, kind, keys + " (downstream of it: no aperture until the next MAXAMP)", params)
            return
        self.aperture = Element(name, "aperture", keys)
        self.lattice.add(self.aperture)

    @staticmethod
    def scraper_edge(params):
        """(plane, side, edge) of a SCRAPER: ELEGANT's beam_scraper (src/limit_amplitudes.c) loses x - DX >
        POSITION from "+x", x - DX < POSITION from "-x", |x - DX| > POSITION from "x" (side ""); y alike, DY."""
        side = text(params, "INSERT_FROM").lower()
        if not side and number(params, "DIRECTION", -1.0) in (0.0, 1.0, 2.0, 3.0):
            # the deprecated DIRECTION: 0 +x, 1 +y, 2 -x, 3 -y (interpretScraperDirection, src/mad_parse.c)
            side = ("+x", "+y", "-x", "-y")[int(number(params, "DIRECTION"))]
        side = side.replace("h", "x").replace("v", "y")  # H and V name the planes too
        if side not in ("+x", "-x", "x", "+y", "-y", "y"):
            return None
        plane = side[-1]
        return plane, side[:-1], number(params, "POSITION"), number(params, "D" + plane.upper())

    def pair_scrapers(self, names):
        """{index: (plane, low edge, high edge)} for one-sided thin SCRAPERs that face each other across the
        axis with nothing of a length between them: together, a limit on both sides of one plane."""
        pairs, pending = {}, {}
        for i, n in enumerate(names):
            kind, params, _ = self.lte.elements[n]
            if TYPES.get(kind) == "scraper" and elegant_length(kind, params) == 0:
                edge = self.scraper_edge(params)
                if edge and edge[1]:
                    plane, side, position, offset = edge
                    other = pending.pop((plane, "-" if side == "+" else "+"), None)
                    if other is not None:
                        j, edge_j = other
                        low, high = (offset + position, edge_j) if side == "-" else (edge_j, offset + position)
                        pairs[i] = pairs[j] = (plane, low, high)
                    else:
                        pending[(plane, side)] = (i, offset + position)
                    continue
            if elegant_length(kind, params) > 0:
                pending = {}
        return pairs

    def role_scraper(self, name, kind, params, length):
        edge = self.scraper_edge(params)
        if edge is None:
            self.unconvertible(name, kind, f"INSERT_FROM=\"{text(params, 'INSERT_FROM')}\": expected +x, -x, x, "
                               "+y, -y or y", params)
            return
        plane, side, position, offset = edge
        if length > 0:
            self.scraper_with_length(name, kind, params, length, plane, side, position, offset)
            return
        if side:
            pair = self.scraper_pairs.get(self.index)
            if pair is None:
                self.add(name, "aperture", self.one_sided_scraper(plane, side, offset + position))
                return
            _, low, high = pair
            half, centre = (high - low) / 2, (high + low) / 2
        else:
            half, centre = position, offset
        if not half > 0:
            self.unconvertible(name, kind, "the scrapers' edges leave no opening: every particle is lost", params)
            return
        # A rectangle in that plane, open in the other: the half opening about the centre.
        keys = {"shape": "rectangle", f"half_{plane}": half}
        if centre:
            keys[f"d{plane}"] = centre
        self.add(name, "aperture", keys)

    def scraper_with_length(self, name, kind, params, length, plane, side, position, offset):
        """A SCRAPER with L > 0 and no material (XO = 0; XO > 0 scatters in the block: refused as any parameter off
        ELEGANT's default): ELEGANT's beam_scraper (src/limit_amplitudes.c) applies its limit at the entrance,
        drifts the survivors by L (x += L x', y += L y') and applies the limit again at the exit. Written so: the
        scraper's thin aperture (one-sided: open on its far side, as a lone thin one; "x": both sides), a drift
        of L named as the ELEGANT element (the position check) and the aperture again; the two faces are
        inserted entries, as RCOL's with an open side."""
        if side:
            keys = self.one_sided_scraper(plane, side, offset + position)
        elif position > 0:
            keys = {"shape": "rectangle", f"half_{plane}": position}
            if offset:
                keys[f"d{plane}"] = offset
        else:
            self.unconvertible(name, kind, "the scraper's edges leave no opening: every particle is lost", params)
            return
        face = Element(name + "_face", "aperture", keys)
        self.inserted.append(len(self.lattice.line))
        self.lattice.add(face)
        self.add(name, "drift", {"length": length})
        self.inserted.append(len(self.lattice.line))
        self.lattice.add(face)

    @staticmethod
    def one_sided_scraper(plane, side, edge):
        """A thin one-sided scraper alone (ELEGANT loses x - DX > POSITION inserted from +x, x - DX < POSITION from
        -x) as a rectangle in its plane, open in the other, whose far side is left open: from +x, a half size h
        ending at the edge and the -x side open keeps exactly x <= edge. Where the edge is on the scraper's own
        side of the axis, h is the edge's distance and the rectangle is centred on the axis (no shift: the
        comparison is ELEGANT's, bit for bit); otherwise it is shifted so that its edge is the scraper's (to a
        rounding of the shift). An edge on the axis takes h = 1 m (any h keeps the same particles)."""
        sign = 1.0 if side == "+" else -1.0
        half = abs(edge) if edge else 1.0
        centre = 0.0 if sign * edge > 0 else edge - sign * half
        keys = {"shape": "rectangle", f"half_{plane}": half, "open_side": ("-" if side == "+" else "+") + plane}
        if centre:
            keys[f"d{plane}"] = centre
        return keys

    def role_malign(self, name, kind, params, length):
        # ELEGANT's offset_beam (src/do_tracking.c): gtrack's beam_shift does the same to every particle
        # (kernels/elements/BeamShift.hh); one pass only, some particles only, or DP with DE are refused.
        given = {k: params[k] for k in params if k in SHIFTS + ("ON_PASS", "START_PID", "END_PID")}
        shifts = {k: v.number() for k, v in given.items() if k in SHIFTS and v.number() != 0.0}
        if not shifts:
            self.add(name, "marker", {})  # no shift: nothing happens to the beam
            return
        listed = ", ".join(f"{k}={params[k].raw}" for k in shifts)
        on_pass = number(params, "ON_PASS", -1.0)
        reasons = []
        if on_pass >= 0:
            reasons.append(f"ON_PASS={params['ON_PASS'].raw}: on pass {int(on_pass)} only; gtrack's beam_shift acts "
                           "every turn")
        if self.recirc_after:
            reasons.append("before the RECIRC element: ELEGANT shifts the beam on the first pass only")
        if number(params, "START_PID", -1.0) >= 0 or number(params, "END_PID", -1.0) >= 0:
            reasons.append("START_PID, END_PID: some particles only")
        if "DE" in shifts and "DP" in shifts:
            # offset_beam computes DE's energy from the one before DP: the pair is not DP then DE.
            reasons.append("DP with DE: ELEGANT then scales the energy before DP (DP is lost); give one")
        if reasons:
            self.unconvertible(name, kind, f"{listed}: " + "; ".join(reasons), params)
            return
        keys = {}
        for src, dst in (("DX", "shift_x"), ("DXP", "shift_xp"), ("DY", "shift_y"), ("DYP", "shift_yp"),
                         ("DZ", "shift_z"), ("DP", "shift_delta"), ("DT", "shift_t"), ("DE", "shift_energy")):
            if src in shifts:
                keys[dst] = shifts[src]
        self.add(name, "beam_shift", keys)

    def role_charge(self, name, kind, params, length):
        if number(params, "PER_PARTICLE"):
            self.unconvertible(name, kind, "PER_PARTICLE: the bunch's charge depends on the number of "
                               "macroparticles; give TOTAL", params)
            return
        self.bunch_charge = abs(number(params, "TOTAL"))  # [beam] bunch_charge is a magnitude (its species' sign)
        self.add(name, "marker", {})

    def note_ignored(self, program):
        for key in sorted(self.ignored):
            names = sorted(self.ignored[key])
            shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
            print(f"{program}: note: {key} ignored (no effect on gtrack's tracking) on {shown}", file=sys.stderr)


def check_positions(lattice: Lattice, names, lte, inserted, rel=1e-12):
    """'' when every deck entry ends where ELEGANT puts it (a sum of ELEGANT's lengths over the expanded line,
    to round-off: 1e-12 of the position, at least 1e-9 m), else the first difference, named."""
    skip = set(inserted)
    deck = [n for i, n in enumerate(lattice.line) if i not in skip]
    if len(deck) != len(names):
        return f"{len(deck)} elements in the deck, {len(names)} in ELEGANT's line"
    s_deck = s_elegant = 0.0
    for i, (got, want) in enumerate(zip(deck, names)):
        kind, params, _ = lte.elements[want]
        s_elegant += elegant_length(kind, params)
        s_deck += float(lattice.elements[got].keys.get("length", 0.0))
        if got != want:
            return f"entry {i + 1}: '{got}' in the deck, '{want}' in ELEGANT's line"
        if abs(s_deck - s_elegant) > max(rel * abs(s_elegant), 1e-9):
            return f"'{got}' (entry {i + 1}) ends at s = {s_deck!r} m in the deck, {s_elegant!r} m in ELEGANT"
    return ""
