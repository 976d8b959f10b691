"""A lattice in gtrack's terms (elements, one flat line) and the deck text it becomes.

Shared by scripts/import_madx.py and scripts/import_elegant.py: both fill a Lattice with Element
entries in gtrack's units (SI; RF phase in degrees, 0 on crest) and list what they could not convert.
"""
from __future__ import annotations

import dataclasses
import json
import math
import os
import sys

# gtrack's element registry (`gtrack elements --json`, kept current by DeckKeysDocumentedTest): the
# element types and keys a converter may write, and the MAD-X and ELEGANT types each is converted from.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "gtrack_elements.json")) as _f:
    REGISTRY = json.load(_f)


def source_types(tool: str) -> set[str]:
    """The MAD-X ("madx") or ELEGANT ("elegant") element types gtrack has an element for."""
    return {name for entry in REGISTRY["types"].values() for name in entry[tool]}


@dataclasses.dataclass
class Element:
    name: str
    type: str  # a gtrack element type
    keys: dict  # gtrack key -> number, string or list of numbers (SI)


@dataclasses.dataclass
class Unconverted:
    name: str
    source_type: str
    reason: str
    length: float  # [m], for the replacement drift


class Lattice:
    def __init__(self):
        self.elements: dict[str, Element] = {}
        self.line: list[str] = []
        self.unconverted: dict[str, Unconverted] = {}

    def define(self, element: Element):
        """Defines an element once; a second definition under one name must be the same."""
        old = self.elements.get(element.name)
        if old is not None and old != element:
            raise ValueError(f"element '{element.name}' appears with two definitions: {old} and {element}")
        self.elements[element.name] = element

    def add(self, element: Element):
        """Defines the element (if new) and appends it to the line."""
        entry = REGISTRY["types"].get(element.type)
        if entry is None:
            raise ValueError(f"{element.name}: '{element.type}' is not a gtrack element type")
        unknown = set(element.keys) - set(entry["keys"]) - set(REGISTRY["common_keys"])
        if unknown:
            raise ValueError(f"{element.name}: a {element.type} has no key {', '.join(sorted(unknown))}")
        self.define(element)
        self.line.append(element.name)

    def unconvertible(self, name: str, source_type: str, reason: str, length: float):
        self.unconverted.setdefault(name, Unconverted(name, source_type, reason, length))
        self.line.append(name)

    def replace_unconverted_by_drifts(self):
        for u in self.unconverted.values():
            self.define(Element(u.name, "drift", {"length": u.length}))

    def report(self) -> str:
        rows = [f"  {u.name} ({u.source_type}): {u.reason}" for u in self.unconverted.values()]
        return f"{len(rows)} element(s) could not be converted:\n" + "\n".join(rows)


def settle_unconverted(lattice: Lattice, replace_with_drifts: bool, program: str) -> bool:
    """Lists the unconverted elements on stderr; replaces them by drifts when asked. False: the import fails."""
    if not lattice.unconverted:
        return True
    print(lattice.report(), file=sys.stderr)
    if not replace_with_drifts:
        print(f"{program}: failed; --replace-with-drifts turns them into drifts of their length", file=sys.stderr)
        return False
    lattice.replace_unconverted_by_drifts()
    return True


def write_text(text: str, path: str | None):
    """The deck to `path`, or to standard output without one."""
    if path:
        with open(path, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


def number(x: float) -> str:
    """A float as TOML, exactly: repr round-trips every double; integers keep a decimal point."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    if not math.isfinite(x):
        raise ValueError(f"not a finite number: {x}")
    text = repr(float(x))
    return text if any(c in text for c in ".en") else text + ".0"


def value(v) -> str:
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(number(x) for x in v) + "]"
    return number(v)


def key(name: str) -> str:
    """An element name as a TOML key: bare when it can be, quoted otherwise (MAD-X names hold '.', '$')."""
    bare = name and all(c.isalnum() or c in "_-" for c in name)
    return name if bare else value(name)


def elements_and_line(lattice: Lattice, turns: int = 1, radiation: bool = False) -> str:
    """The [elements] and [lattice] sections: every element once, then the flat line."""
    used = set(lattice.line)
    missing = used - set(lattice.elements)
    if missing:
        raise ValueError("elements in the line without a definition: " + ", ".join(sorted(missing)))
    out = ["[elements]"]
    for name in lattice.elements:
        if name not in used:
            continue
        e = lattice.elements[name]
        fields = [f'type = "{e.type}"'] + [f"{k} = {value(v)}" for k, v in e.keys.items()]
        out.append(f"{key(name)} = {{ {', '.join(fields)} }}")
    out.append("")
    out.append("[lattice]")
    names = [value(n) for n in lattice.line]
    rows = [", ".join(names[i:i + 8]) for i in range(0, len(names), 8)]
    out.append("line = [\n    " + ",\n    ".join(rows) + ",\n]")
    if turns != 1:
        out.append(f"turns = {turns}")
    if radiation:
        out.append('radiation = "mean"')
    return "\n".join(out) + "\n"


def deck(header: str, name: str, beam: str, lattice: Lattice, turns: int = 1, radiation: bool = False) -> str:
    """A whole deck: a comment header, [run], the given [beam] text, elements, line and [output]."""
    comment = "\n".join("# " + line if line else "#" for line in header.splitlines())
    return (f"{comment}\n[run]\nkind = \"beamline\"\nname = {value(name)}\n\n{beam.rstrip()}\n\n"
            f"{elements_and_line(lattice, turns, radiation)}\n[output]\nstats = \"every_element\"\nphase_space = [\"end\"]\n")


def beam_section(particle_keys: dict, momentum_mev: float, twiss: dict | None, macroparticles: int = 1000) -> str:
    """[beam] with the reference momentum; [beam.twiss] when given (else a placeholder the user fills)."""
    lines = ["[beam]"] + [f"{k} = {value(v)}" for k, v in particle_keys.items()]
    lines += [f'momentum = "{number(momentum_mev)} MeV"', f"macroparticles = {macroparticles}", "",
              "[beam.twiss]"]
    if twiss is None:
        twiss = {"beta_x": 1.0, "alpha_x": 0.0, "beta_y": 1.0, "alpha_y": 0.0,
                 "emittance_x": 1e-9, "emittance_y": 1e-9}
        lines.append("# Placeholder optics: set the beam's Twiss parameters and emittances.")
    lines += [f"{k} = {number(v)}" for k, v in twiss.items()]
    return "\n".join(lines) + "\n"
