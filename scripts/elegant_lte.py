"""ELEGANT's lattice files (.lte) read as ELEGANT reads them: statements, values, beamlines.

Used by scripts/import_elegant.py. What it follows (ELEGANT's manual, "Lattice file", and its own example
lattices, which ELEGANT runs unchanged):
- '!' starts a comment outside quotes; a line ending in '&' goes on with the next line, joined with nothing
  in between (ELEGANT's examples split numbers and names across lines: SPEAR3's spear.lte has
  "E1=0.06929983794&" followed by "6834,...");
- an element or line name is a word up to ':' or anything in double quotes ("S1A:Q1": KQUAD, ...), so a
  colon inside quotes belongs to the name; a quoted name is used in lines with or without its quotes;
- a parameter value is a number, a word, or a quoted string; a quoted string is a number or an RPN
  expression where the parameter is numeric, and text where it is a string (OPEN_SIDE, FILENAME, ...):
  values are kept as written and read as the converter asks for them;
- empty items in a line ('A,,B') are skipped, as ELEGANT does (APS's own apsKick.lte has one);
- 'N*X', 'N*(...)', '-X' (reversed), 'USE,NAME', 'RETURN'.
Names are lower-cased, as MAD-X does, so both importers name the same lattice alike.
"""
from __future__ import annotations

import math
import re


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
            buf += line[:-1]
            continue
        buf += line
        if buf.strip():
            yield start, buf.strip()
        buf = ""
    if buf.strip():
        yield start, buf.strip()


# ELEGANT's RPN calculator (rpn, the SDDS toolkit's): the constants and functions lattices use. Constants:
# CODATA 2018 (c exact; e, me, mp as in gtrack's src/physics constants). `mev` (the electron's rest energy
# in MeV) and `beta.p`, `gamma.p` (beta and gamma of a momentum beta gamma) come from the definitions file
# ELEGANT's users load (defns.rpn), which ELEGANT's own examples use.
RPN_CONSTANTS = {"pi": math.pi, "c_mks": 299792458.0, "e_mks": 1.602176634e-19, "me_mks": 9.1093837015e-31,
                 "mp_mks": 1.67262192369e-27, "c_cgs": 29979245800.0, "mev": 0.51099895000}
RPN_UNARY = {"sqrt": math.sqrt, "sqr": lambda a: a * a, "sin": math.sin, "cos": math.cos, "tan": math.tan,
             "asin": math.asin, "acos": math.acos, "atan": math.atan, "exp": math.exp, "ln": math.log,
             "chs": lambda a: -a, "abs": abs, "int": lambda a: float(math.trunc(a)),
             # degrees: dsin etc. take degrees, dasin etc. give degrees
             "dsin": lambda a: math.sin(math.radians(a)), "dcos": lambda a: math.cos(math.radians(a)),
             "dtan": lambda a: math.tan(math.radians(a)), "dasin": lambda a: math.degrees(math.asin(a)),
             "dacos": lambda a: math.degrees(math.acos(a)), "datan": lambda a: math.degrees(math.atan(a)),
             "beta.p": lambda p: p / math.sqrt(1.0 + p * p), "gamma.p": lambda p: math.sqrt(1.0 + p * p)}


def rpn(expression: str, variables: dict, where: str) -> float:
    """ELEGANT's RPN: numbers, variables, + - * / pow, the functions and constants above."""
    stack = []
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
            if t == "+":
                stack.append(a + b)
            elif t == "-":
                stack.append(a - b)
            elif t == "*":
                stack.append(a * b)
            elif t == "/":
                stack.append(a / b if b else math.inf)
            else:
                stack.append(a ** b)
        elif t in RPN_UNARY:
            if not stack:
                raise LteError(f"{where}: RPN '{expression}': '{token}' needs an operand")
            stack.append(RPN_UNARY[t](stack.pop()))
        elif t in variables:
            stack.append(variables[t])
        elif t in RPN_CONSTANTS:
            stack.append(RPN_CONSTANTS[t])
        else:
            raise LteError(f"{where}: RPN '{expression}': unknown word '{token}'")
    if len(stack) != 1:
        raise LteError(f"{where}: RPN '{expression}' leaves {len(stack)} values, not one")
    return stack[0]


def split_top(text: str, sep=","):
    """Splits at `sep` outside parentheses and quotes; empty items are kept (as '')."""
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
    parts.append("".join(cur).strip())
    return parts


class Value:
    """A parameter's value as written: read as a number or as text when the converter asks."""

    def __init__(self, raw: str, variables: dict, where: str):
        self.raw, self.where = raw, where
        self.quoted = len(raw) >= 2 and raw.startswith('"') and raw.endswith('"')
        self.text = raw[1:-1] if self.quoted else raw
        self.variables = dict(variables)  # the % ... sto variables as they were where the value was written

    def number(self) -> float:
        try:
            return float(self.text)
        except ValueError:
            return rpn(self.text, self.variables, self.where)

    def __repr__(self):
        return self.raw


class Lte:
    """The file's elements ({name: (TYPE, {PARAM: Value}, line)}), lines and the line to use."""

    def __init__(self, text: str, path: str, resolve_type, known_types=frozenset()):
        self.path, self.resolve_type, self.known_types = path, resolve_type, known_types
        self.elements = {}
        self.lines = {}
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
        if s.startswith('"'):
            m = re.match(r'^"([^"]+)"\s*:(.*)$', s)
        else:
            m = re.match(r'^([^":,\s]+)\s*:(.*)$', s)
        if not m:
            if s.upper().startswith(("USE", "RETURN")):
                if s.upper().startswith("USE"):
                    self.last_line = split_top(s, ",")[-1].strip().strip('"').lower()
                return
            raise LteError(f"{where}: cannot read '{s}' (expected NAME: TYPE, ... or \"NAME\": TYPE, ...)")
        name, rest = m.group(1).lower(), m.group(2).strip()
        parts = split_top(rest)
        head = parts[0]
        if head.upper().replace(" ", "").startswith("LINE="):
            body = head.split("=", 1)[1].strip()
            if not (body.startswith("(") and body.endswith(")")):
                raise LteError(f"{where}: line '{name}': expected LINE=(...)")
            self.lines[name] = self.parse_items(body[1:-1], where)
            self.last_line = name
            return
        params = {}
        base = head.strip().strip('"').lower()
        if base in self.elements and (head.startswith('"') or self.resolve_type(head) not in self.known_types):
            # NAME: OTHER, ...: a copy of the element OTHER with the parameters given here changed (ELEGANT)
            kind, inherited, _ = self.elements[base]
            params = dict(inherited)
        else:
            kind = self.resolve_type(head)
        for p in parts[1:]:
            if not p:
                continue
            if "=" not in p:
                raise LteError(f"{where}: element '{name}': '{p}' is not PARAMETER=VALUE")
            k, v = (x.strip() for x in p.split("=", 1))
            params[k.upper()] = Value(v, self.variables, f"{where}: element '{name}', {k.upper()}")
        if name in self.elements and self.elements[name][0] == kind:
            old = dict(self.elements[name][1])
            old.update(params)
            params = old
        self.elements[name] = (kind, params, number)

    def parse_items(self, body, where):
        items = []
        for item in split_top(body):
            if not item:  # 'A,,B': ELEGANT skips the empty item
                continue
            m = re.match(r"^(\d+)\s*\*\s*(.+)$", item)
            count, item = (int(m.group(1)), m.group(2).strip()) if m else (1, item)
            reverse = item.startswith("-")
            if reverse:
                item = item[1:].strip()
            if item.startswith("("):
                if not item.endswith(")"):
                    raise LteError(f"{where}: unbalanced '(' in '{item}'")
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
