# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, $out, note and status come from gpu-check.sh
# Ring studies (issue 45, branch ringstudy; docs/studies.md):
# 1. inputs/light_source_da.toml (3 GeV ring, sextupoles, 11 angles x 30 radii x 3 deltas, 512 turns, DA and
#    frequency map) on the GPU and on the CPU: every column of /dynamic_aperture/particles, /border, /summary
#    and /frequency_map must be the same bits (survival turns, loss elements, borders, NAFF tunes). Passing:
#    "same bits". The tracking is the segment kernel's (already bit for bit); the grid is made by each
#    backend's generate (StudyGrid, PortableMath's sincos); NAFF runs on the host for both.
# 2. The DA rate without the frequency map: the same ring, 10^6 particles (100 angles x 10000 radii x 1 delta)
#    x 1000 turns on the GPU, "particle-turns/s" of the run's summary (issue 45's target on a DIAMOND-size ring
#    is >= 6e7; this ring has 73 entries, not ~2300). Falls back to 200 turns if 1000 would take over a minute.
sd="$out/ring-study"
mkdir -p "$sd"
study_ok=1
for be in gpu cpu; do
    if ! timeout 300 ./"$build"/gtrack run inputs/light_source_da.toml --backend "$be" \
            -o "$sd/da_$be.h5" >"$sd/da_$be.txt" 2>&1; then
        note "ring study: light_source_da on the $be" "FAILED ($(tail -n 1 "$sd/da_$be.txt" | cut -c1-120))"
        status=1
        study_ok=0
    fi
done
if [ "$study_ok" = 1 ]; then
    if python3 - "$sd/da_gpu.h5" "$sd/da_cpu.h5" >"$sd/compare.txt" 2>&1 <<'PY'
import sys
import h5py
import numpy as np
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
bad = []
for g in ("dynamic_aperture/particles", "dynamic_aperture/border", "dynamic_aperture/summary", "frequency_map"):
    for c in a[g]:
        x, y = a[g][c][:], b[g][c][:]
        if x.shape != y.shape or x.tobytes() != y.tobytes():
            bad.append(f"{g}/{c}")
n = len(a["dynamic_aperture/particles/survived_turns"])
print("same bits" if not bad else "DIFFERENT: " + " ".join(bad), f"({n} particles)")
sys.exit(1 if bad else 0)
PY
    then
        note "ring study: DA + FMA CPU == GPU" "$(cat "$sd/compare.txt")"
    else
        note "ring study: DA + FMA CPU == GPU" "FAILED: $(tail -n 1 "$sd/compare.txt" | cut -c1-150)"
        status=1
    fi
fi
rate_args=(--set dynamic_aperture.angles=100 --set dynamic_aperture.radii=10000 --set 'dynamic_aperture.deltas=[0.0]'
           --set dynamic_aperture.frequency_map=false)
turns=1000
timeout 60 ./"$build"/gtrack run inputs/light_source_da.toml --backend gpu "${rate_args[@]}" \
    --set lattice.turns=$turns -o /tmp/da_rate.h5 >"$sd/rate.txt" 2>&1 || {
    turns=200
    timeout 120 ./"$build"/gtrack run inputs/light_source_da.toml --backend gpu "${rate_args[@]}" \
        --set lattice.turns=$turns -o /tmp/da_rate.h5 >"$sd/rate.txt" 2>&1
}
if grep -q "particle-turns/s" "$sd/rate.txt"; then
    note "ring study: light_source_da 1e6 particles x $turns turns (GPU)" "$(grep 'particle-turns/s' "$sd/rate.txt")"
else
    note "ring study: DA rate" "FAILED ($(tail -n 1 "$sd/rate.txt" | cut -c1-120))"
    status=1
fi
