#!/usr/bin/env python3
"""Checks every #include of kernels/ and src/ against the layer order of docs/development.md ("Layers"):
a file may include its own folder and the folders below it, never one above or beside it.

    scripts/check-layers.py [SOURCE_DIR]    (exit 1 and one line per upward include)
"""
import os
import re
import sys

# Bottom to top; folders on one line are side by side and do not include each other.
LAYERS = [
    ["kernels"],
    ["io"],  # HDF5 handles and writers: needs only kernels/ (the beam and detector tables are written through it)
    ["deck"],  # with the element registry (src/deck/ElementRegistry.hh, src/deck/elements/)
    ["beam", "detector", "collective"],
    # optics: closed orbit, tunes and Twiss by tracking through the tracker's maps (the tables and below);
    # below run/, which makes the beam of [beam.twiss] periodic = true from it
    ["optics"],
    ["parallel"],
    ["perf"],
    ["compare"],  # gtrack compare and regress: file comparison, tolerances, reports, the suite runner
    ["run"],
    ["study"],  # ring studies (dynamic aperture, frequency maps): a run's backend and maps, their own grid
    ["app"],
]
TIER = {folder: i for i, row in enumerate(LAYERS) for folder in row}

# Known upward includes, listed one by one so that no new one slips in.
KNOWN = set()  # none left: [beam.twiss] periodic = true is resolved where the beam is made (run/, app/)

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def folder_of(path):
    """The layer folder of a file ("src/beam/X.cc" -> "beam", "kernels/elements/Y.hh" -> "kernels")."""
    parts = path.split("/")
    return "kernels" if parts[0] == "kernels" else parts[1]


def target_folder(include):
    """The layer folder an include names, or None for a generated or local header."""
    parts = include.split("/")
    if parts[0] == "src" and len(parts) > 2:
        return parts[1]
    if len(parts) > 1 and (parts[0] == "kernels" or parts[0] in TIER):
        return parts[0]
    return None


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    problems, seen = [], set()
    for top in ("kernels", "src"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith((".hh", ".cc", ".cu", ".cuh", ".h", ".hpp", ".cpp")):
                    continue
                path = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
                here = folder_of(path)
                if here not in TIER:
                    problems.append(f"{path}: folder '{here}' has no place in the layers (add it to LAYERS)")
                    continue
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        there = target_folder(m.group(1))
                        if there is None or there == here:
                            continue
                        if here == "kernels" and there != "kernels":
                            ok = False  # kernels/ is the bottom: it includes nothing of src/
                        else:
                            ok = there in TIER and TIER[there] < TIER[here]
                        if ok:
                            continue
                        key = (path, m.group(1))
                        if key in KNOWN:
                            seen.add(key)
                            continue
                        problems.append(f"{path}:{number}: includes {m.group(1)}: '{here}' may not include "
                                        f"'{there}' (docs/development.md, Layers)")
    for key in sorted(KNOWN - seen):
        print(f"note: known exception no longer needed, delete it from KNOWN: {key[0]} -> {key[1]}")
    for p in problems:
        print(p)
    print(f"check-layers: {len(problems)} upward include(s), {len(seen)} known exception(s) in use")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
