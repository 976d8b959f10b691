# shellcheck shell=bash
# trace_sums TRACE NAME...: the seconds of a --trace file's complete events ("ph": "X") of each NAME, summed,
# one number per NAME in that order on one line (0 for a name with no event). Sourced by the parts that
# read the host phases and set-up events of runs' traces (52-mpi-split, 53-mpi-launch).
trace_sums() {
    python3 - "$@" <<'PY'
import json, sys
events = json.load(open(sys.argv[1]))
events = events["traceEvents"] if isinstance(events, dict) else events
total = {}
for e in events:
    if e.get("ph") == "X":
        total[e["name"]] = total.get(e["name"], 0.0) + e.get("dur", 0.0) * 1e-6
print(" ".join(repr(total.get(name, 0.0)) for name in sys.argv[2:]))
PY
}
