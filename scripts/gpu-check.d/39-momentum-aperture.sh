# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, $out, note and status come from gpu-check.sh
# Momentum aperture (issue 45, branch ma; docs/studies.md "Momentum aperture"):
# 1. inputs/light_source_ma.toml (3 GeV ring with RF and mean radiation, 3 cm x 2 cm chamber, 24 locations x
#    160 candidates, 256 turns) on the GPU and on the CPU: every column of /momentum_aperture (s, element,
#    delta+-, lost element, s and turn of each limiting candidate) must be the same bits. Passing: "same bits".
#    The candidates are made on the host (the same doubles for both); the tracking is the backends' segment
#    kernel (turn 0 and the last turn, one block per location) and the many-turn executor (all blocks).
# 2. The rate: the same deck at 0.01% resolution (24 x 800 = 19200 candidates) x 1000 turns on the GPU,
#    "particle-turns/s" of the run's summary (a small ring: 82 entries with its global aperture).
sd="$out/momentum-aperture"
mkdir -p "$sd"
ma_ok=1
for be in gpu cpu; do
    if ! timeout 300 ./"$build"/gtrack run inputs/light_source_ma.toml --backend "$be" \
            -o "$sd/ma_$be.h5" >"$sd/ma_$be.txt" 2>&1; then
        note "momentum aperture: light_source_ma on the $be" "FAILED ($(tail -n 1 "$sd/ma_$be.txt" | cut -c1-120))"
        status=1
        ma_ok=0
    fi
done
if [ "$ma_ok" = 1 ]; then
    if python3 - "$sd/ma_gpu.h5" "$sd/ma_cpu.h5" >"$sd/compare.txt" 2>&1 <<'PY'
import sys
import h5py
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
g = "momentum_aperture"
bad = [c for c in a[g] if a[g][c].shape != b[g][c].shape or a[g][c][:].tobytes() != b[g][c][:].tobytes()]
if list(a[g].attrs["names"]) != list(b[g].attrs["names"]):
    bad.append("names")
n = len(a[g]["s"])
print("same bits" if not bad else "DIFFERENT: " + " ".join(bad), f"({n} locations, {len(list(a[g]))} columns)")
sys.exit(1 if bad else 0)
PY
    then
        note "momentum aperture: CPU == GPU" "$(cat "$sd/compare.txt")"
    else
        note "momentum aperture: CPU == GPU" "FAILED: $(tail -n 1 "$sd/compare.txt" | cut -c1-150)"
        status=1
    fi
fi
if timeout 120 ./"$build"/gtrack run inputs/light_source_ma.toml --backend gpu --set momentum_aperture.resolution=1e-4 \
        --set momentum_aperture.turns=1000 -o /tmp/ma_rate.h5 >"$sd/rate.txt" 2>&1 &&
        grep -q "particle-turns/s" "$sd/rate.txt"; then
    note "momentum aperture: light_source_ma 19200 candidates x 1000 turns (GPU)" "$(grep 'particle-turns/s' "$sd/rate.txt")"
else
    note "momentum aperture: rate" "FAILED ($(tail -n 1 "$sd/rate.txt" | cut -c1-120))"
    status=1
fi
