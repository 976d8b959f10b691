# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, $out, note and status come from gpu-check.sh
# A 60-seed dynamic-aperture scan as a job array on one GPU (issue 45's target: 60 seeds x 10^4 particles x
# 1000 turns in under 5 minutes of wall time, start-ups included). inputs/light_source_da.toml with random
# quadrupole and sextupole misalignments and gradient errors, [scan] errors.seed = 1..60; a polar grid of
# 20 angles x 500 radii (10^4 particles) at delta = 0, 1000 turns, no frequency map. Run as a user runs an
# array on one card: `gtrack scan --local --backend gpu` (each point a child `gtrack run --scan-index N`,
# one after another on the GPU), then `gtrack collect` (each angle's border: least and mean over the seeds).
# Printed: the wall time of the whole array, seconds a point, and collect's line.
sd="$out/da-seeds"
mkdir -p "$sd"
deck="$sd/da_seeds.toml"
sed -e 's/^angles = 11/angles = 20/' -e 's/^radii = 30/radii = 500/' -e 's/^deltas = .*/deltas = [0.0]/' \
    -e 's/^frequency_map = true/frequency_map = false/' -e 's/^turns = 512/turns = 1000/' \
    -e "s|^file = .*|file = \"$sd/da_seed_{index:02}.h5\"|" inputs/light_source_da.toml >"$deck"
cat >>"$deck" <<'TOML'

[errors]
seed = 1
[errors.quads]
type = "quadrupole"
dx = "50 um"
dy = "50 um"
roll = "100 urad"
gradient = 5e-4
[errors.sextupoles]
type = "sextupole"
dx = "50 um"
dy = "50 um"

[scan]
"errors.seed" = { from = 1, to = 60, count = 60 }
TOML
start=$(date +%s.%N)
if timeout 400 ./"$build"/gtrack scan "$deck" --local --backend gpu >"$sd/scan.txt" 2>&1; then
    wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f s wall for the array, %.2f s a point (target < 300 s)", b - a, (b - a) / 60 }')
    note "DA seeds: 60 x 1e4 particles x 1000 turns, gtrack scan --local (GPU)" "$wall"
    if ./"$build"/gtrack collect "$sd/da_seed_*.h5" -o "$sd/summary.h5" >"$sd/collect.txt" 2>&1; then
        note "DA seeds: collect" "$(grep -m1 'dynamic aperture at delta' "$sd/collect.txt")"
    else
        note "DA seeds: collect" "FAILED ($(tail -n 1 "$sd/collect.txt" | cut -c1-120))"
        status=1
    fi
else
    note "DA seeds: gtrack scan --local (GPU)" "FAILED ($(tail -n 1 "$sd/scan.txt" | cut -c1-120))"
    status=1
fi
rm -f "$sd"/da_seed_*.h5
