#!/usr/bin/env python3
"""Import an ELEGANT lattice (.lte) into a gtrack deck.

Reads element definitions (with '&' continuations, '!' comments, abbreviated type and parameter names,
numbers or quoted RPN expressions and '% ... sto NAME' variables) and beamlines (N*X, N*(...), -X),
expands the line to use, and converts every element type gtrack has. Every element it cannot convert
is listed with its name, type and reason; the import fails unless --replace-with-drifts is given.
Names are lower-cased, as MAD-X does, so both importers name the same lattice alike.

    scripts/import_elegant.py linac.lte [--use LINE] --particle electron --momentum-mev 150 -o linac.toml
"""
from __future__ import annotations

import argparse
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lattice_deck import (Element, Lattice, beam_section, deck, settle_unconverted, source_types,  # noqa: E402
                          write_text)

# ELEGANT type -> (gtrack handling, parameters gtrack takes); any other non-zero parameter of
# PHYSICS_PARAMETERS makes the element unconvertible.
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
    "WATCH": "monitor",
    "RCOL": "rcol", "ECOL": "ecol",
    "ROTATE": "rotate",
}
# Parameters that change the beam but have no gtrack counterpart (non-zero -> unconvertible).
UNSUPPORTED = {
    "quad": ["K1S", "FFRINGE", "FSE", "XKICK", "YKICK"],
    "sbend": ["H1", "H2", "FSE", "EDGE1_EFFECTS_OFF"],
    "rbend": ["H1", "H2", "FSE"],
    "sext": ["FSE"],
    "octu": ["FSE"],
    "rf": ["CHANGE_P0"],
}
KNOWN_TYPES_FOR_MESSAGES = ["CSRDRIFT", "LSCDRIFT", "CHARGE", "MAXAMP", "MALIGN", "CENTER", "SCRAPER", "WAKE",
                            "TRWAKE", "RFDF", "MATR", "SREFFECTS"]


class LteError(Exception):
    pass


def logical_lines(text: str):
    """Statements: '!' comments removed, '&' continuations joined, with their first line number."""
    buf, start = "", 0
    for number, raw in enumerate(text.splitlines(), 1):
        line, quoted = [], False
        for c in raw:
            if c == '"':
                quoted = not quoted
            if c == "!" and not quoted:
                break
            line.append(c)
        line = "".join(line).rstrip()
        if not buf:
            start = number
        if line.endswith("&"):
            buf += line[:-1] + " "
            continue
        buf += line
        if buf.strip():
            yield start, buf.strip()
        buf = ""
    if buf.strip():
        yield start, buf.strip()


def rpn(expression: str, variables: dict, where: str) -> float:
    """ELEGANT's RPN: numbers, variables, + - * / sqrt sin cos tan exp ln pow, pi."""
    stack = []
    unary = {"sqrt": math.sqrt, "sin": math.sin, "cos": math.cos, "tan": math.tan, "exp": math.exp,
             "ln": math.log, "chs": lambda a: -a, "abs": abs}
    for token in expression.split():
        t = token.lower()
        try:
            stack.append(float(token))
            continue
        except ValueError:
            pass
        if t in ("+", "-", "*", "/", "pow"):
            if len(stack) < 2:
                raise LteError(f"{where}: RPN '{expression}': '{token}' needs two operands")
            b, a = stack.pop(), stack.pop()
            stack.append({"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else math.inf, "pow": a ** b}[t])
        elif t in unary:
            if not stack:
                raise LteError(f"{where}: RPN '{expression}': '{token}' needs an operand")
            stack.append(unary[t](stack.pop()))
        elif t == "pi":
            stack.append(math.pi)
        elif t in variables:
            stack.append(variables[t])
        else:
            raise LteError(f"{where}: RPN '{expression}': unknown word '{token}'")
    if len(stack) != 1:
        raise LteError(f"{where}: RPN '{expression}' leaves {len(stack)} values, not one")
    return stack[0]


def split_top(text: str, sep=","):
    """Splits at `sep` outside parentheses and quotes."""
    parts, depth, quoted, cur = [], 0, False, []
    for c in text:
        if c == '"':
            quoted = not quoted
        elif not quoted and c == "(":
            depth += 1
        elif not quoted and c == ")":
            depth -= 1
        if c == sep and depth == 0 and not quoted:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def resolve_type(word: str, where: str) -> str:
    w = word.upper()
    if w in TYPES or w == "LINE":
        return w
    matches = [t for t in list(TYPES) + KNOWN_TYPES_FOR_MESSAGES if t.startswith(w)]
    if len(w) >= 3 and len(set(TYPES.get(m, m) for m in matches)) == 1:
        return matches[0]
    return w  # unknown: kept, becomes unconvertible


class Lte:
    def __init__(self, text: str, path: str):
        self.path = path
        self.elements = {}  # name -> (TYPE, {PARAM: value}, line number)
        self.lines = {}  # name -> list of items
        self.last_line = None
        self.variables = {}
        for number, statement in logical_lines(text):
            self.statement(number, statement)

    def statement(self, number, s):
        where = f"{self.path}:{number}"
        if s.startswith("%"):
            words = s[1:].split()
            if len(words) >= 3 and words[-2].lower() == "sto":
                self.variables[words[-1].lower()] = rpn(" ".join(words[:-2]), self.variables, where)
                return
            raise LteError(f"{where}: cannot read '{s}' (expected '% EXPRESSION sto NAME')")
        if s.startswith("#"):
            raise LteError(f"{where}: '{s.split()[0]}' is not supported: inline the included file")
        m = re.match(r'^"?([^":,\s]+)"?\s*:\s*(.*)$', s)
        if not m:
            if s.upper().startswith(("USE", "RETURN")):
                if s.upper().startswith("USE"):
                    self.last_line = split_top(s, ",")[-1].strip().lower()
                return
            raise LteError(f"{where}: cannot read '{s}' (expected NAME: TYPE, ...)")
        name, rest = m.group(1).lower(), m.group(2)
        parts = split_top(rest)
        head = parts[0]
        if head.upper().replace(" ", "").startswith("LINE="):
            body = head.split("=", 1)[1].strip()
            if not (body.startswith("(") and body.endswith(")")):
                raise LteError(f"{where}: line '{name}': expected LINE=(...)")
            self.lines[name] = self.parse_items(body[1:-1], where)
            self.last_line = name
            return
        kind = resolve_type(head, where)
        params = {}
        for p in parts[1:]:
            if "=" not in p:
                raise LteError(f"{where}: element '{name}': '{p}' is not PARAMETER=VALUE")
            k, v = (x.strip() for x in p.split("=", 1))
            params[k.upper()] = self.parse_value(v, f"{where}: element '{name}', {k}")
        if name in self.elements and self.elements[name][0] == kind:
            old = dict(self.elements[name][1])
            old.update(params)
            params = old
        self.elements[name] = (kind, params, number)

    def parse_value(self, v, where):
        if v.startswith('"') and v.endswith('"'):
            inner = v[1:-1].strip()
            try:
                return float(inner)
            except ValueError:
                return rpn(inner, self.variables, where)
        try:
            return float(v)
        except ValueError:
            return v  # a word (e.g. a file name or flag): kept for the messages

    def parse_items(self, body, where):
        items = []
        for item in split_top(body):
            m = re.match(r"^(\d+)\s*\*\s*(.+)$", item)
            count, item = (int(m.group(1)), m.group(2).strip()) if m else (1, item)
            reverse = item.startswith("-")
            if reverse:
                item = item[1:].strip()
            if item.startswith("("):
                sub = ("group", self.parse_items(item[1:-1], where), reverse)
            else:
                sub = ("name", item.strip('"').lower(), reverse)
            items.extend([sub] * count)
        return items

    def expand(self, name, stack=()):
        if name in stack:
            raise LteError(f"{self.path}: line '{name}' contains itself")
        if name not in self.lines:
            raise LteError(f"{self.path}: no line named '{name}'")
        return self.expand_items(self.lines[name], stack + (name,))

    def expand_items(self, items, stack):
        out = []
        for kind, what, reverse in items:
            if kind == "group":
                seq = self.expand_items(what, stack)
            elif what in self.lines:
                seq = self.expand(what, stack)
            elif what in self.elements:
                seq = [what]
            else:
                raise LteError(f"{self.path}: '{what}' is neither an element nor a line")
            out.extend(reversed(seq) if reverse else seq)
        return out


def convert(name, kind, params, lattice: Lattice):
    def p(key, default=0.0):
        v = params.get(key, default)
        return v if isinstance(v, float) else default

    length = p("L")
    role = TYPES.get(kind) if kind in source_types("elegant") else None
    if role is None:
        lattice.unconvertible(name, kind, "no gtrack element of this type", length)
        return
    bad = [k for k in UNSUPPORTED.get(role, []) if p(k)]
    if bad:
        lattice.unconvertible(name, kind, "non-zero " + ", ".join(bad) + " (gtrack has no such term)", length)
        return
    misalign = {}
    for src, dst in (("TILT", "tilt"), ("DX", "dx"), ("DY", "dy")):
        if p(src):
            misalign[dst] = p(src)

    if role == "drift":
        lattice.add(Element(name, "drift", {"length": length}))
    elif role in ("marker", "monitor"):
        # gtrack's markers and monitors are thin: one with a length (MONI, L=...) is a drift of it, so that
        # nothing downstream moves.
        if length > 0:
            print(f"import_elegant: note: {name}: a {kind} of length {length} m imported as a drift of that length",
                  file=sys.stderr)
            lattice.add(Element(name, "drift", {"length": length}))
        else:
            lattice.add(Element(name, role, {}))
    elif role == "quad" and length == 0:
        lattice.unconvertible(name, kind, "zero length (K1 L = 0): give a thin quadrupole as a MULT", 0.0)
    elif role == "quad":
        lattice.add(Element(name, "quadrupole", {"length": length, "k1": p("K1"), **misalign}))
    elif role in ("sbend", "rbend"):
        angle, e1, e2 = p("ANGLE"), p("E1"), p("E2")
        if role == "rbend":  # ELEGANT: L is the arc length; the faces are parallel (angle/2 each)
            e1, e2 = e1 + angle / 2, e2 + angle / 2
        keys = {"length": length, "angle": angle}
        if e1:
            keys["e1"] = e1
        if e2:
            keys["e2"] = e2
        fint1, fint2 = p("FINT1", p("FINT")), p("FINT2", p("FINT"))
        if fint1:
            keys["fint"] = fint1
        if fint2 != fint1:
            keys["fintx"] = fint2
        if p("HGAP"):
            keys["hgap"] = p("HGAP")
        if p("K1"):
            keys["k1"] = p("K1")
        if p("K2"):  # CSBEND's midplane field B0 rho (K1 x + K2 x^2/2), as gtrack's exact bend (its own steps:
            keys["k2"] = p("K2")  # N_KICKS is not carried over)
        # CSBEND's K3, K4: the midplane field's x^3/6 and x^4/24 terms, gtrack's body octupole k3 and the
        # decapole of knl (integrated: K4 L). gtrack adds no curvature terms to them (ELEGANT's field expansion
        # has its own: they differ at one order higher in h x; docs/lattice-import.md).
        if p("K3"):
            keys["k3"] = p("K3")
        if p("K4"):
            keys["knl"] = [0.0, 0.0, 0.0, 0.0, p("K4") * length]
        lattice.add(Element(name, "sbend", {**keys, **misalign}))
    elif role in ("sext", "octu"):
        key = "k2" if role == "sext" else "k3"
        if length == 0:
            lattice.unconvertible(name, kind, f"zero length: give it as a MULT", 0.0)
            return
        lattice.add(Element(name, "sextupole" if role == "sext" else "octupole",
                            {"length": length, key: p(key.upper()), **misalign}))
    elif role == "rotate":  # ELEGANT's rotateBeamCoordinates: x' = x cos + y sin, as srotation
        lattice.add(Element(name, "srotation", {"angle": p("TILT")}))
    elif role == "mult":
        order = int(p("ORDER", 1.0))
        knl = [0.0] * order + [p("KNL")]
        lattice.add(Element(name, "multipole", {"knl": knl, **misalign}))
    elif role == "sole":
        lattice.add(Element(name, "solenoid", {"length": length, "ks": p("KS")}))
    elif role == "rf":
        # ELEGANT: dE = q V sin(phase), 90 deg on crest; gtrack's phase is 0 on crest.
        lattice.add(Element(name, "rfcavity", {"length": length, "voltage": p("VOLT"), "frequency": p("FREQ"),
                                               "phase": p("PHASE") - 90.0}))
    elif role in ("hkick", "vkick", "kick"):
        h = p("KICK") if role == "hkick" else p("HKICK") if role == "kick" else 0.0
        v = p("KICK") if role == "vkick" else p("VKICK") if role == "kick" else 0.0
        keys = {"length": length}
        if h:
            keys["hkick"] = h
        if v:
            keys["vkick"] = v
        lattice.add(Element(name, "kicker", {**keys, **misalign}))
    elif role in ("rcol", "ecol"):
        half_x, half_y = p("X_MAX"), p("Y_MAX")
        if half_x <= 0 or half_y <= 0:
            lattice.unconvertible(name, kind, "X_MAX and Y_MAX must both be > 0 (gtrack has no open side)", length)
            return
        lattice.add(Element(name, "collimator", {"shape": "rectangle" if role == "rcol" else "ellipse",
                                                 "half_x": half_x, "half_y": half_y, "length": length}))


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
            lte = Lte(f.read(), args.lte)
        use = (args.use or lte.last_line or "").lower()
        if not use:
            raise LteError(f"{args.lte}: no beamline defined")
        names = lte.expand(use)
    except (LteError, OSError) as e:
        print(f"import_elegant: {e}", file=sys.stderr)
        return 1
    lattice = Lattice()
    for name in names:
        kind, params, _ = lte.elements[name]
        convert(name, kind, params, lattice)
    if not settle_unconverted(lattice, args.replace_with_drifts, "import_elegant"):
        return 1
    header = (f"Imported from the ELEGANT file {os.path.basename(args.lte)}, beamline {use},\n"
              f"by scripts/import_elegant.py ({len(lattice.line)} elements).")
    text = deck(header, use, beam_section({"particle": args.particle}, args.momentum_mev, None), lattice,
                args.turns)
    write_text(text, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
