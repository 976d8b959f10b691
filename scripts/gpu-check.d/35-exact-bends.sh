# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, $out, note and status come from gpu-check.sh
# The exact sector bend, second-order edges, dipedge and thin solenoid on the GPU (issue 31):
# 1. `gtrack validate` of tests/data/every_element.toml (pure-dipole, combined-function k1+k2 and linear
#    bends, dipedge, thinsolenoid among every other element) at 2e5 particles: passing = PASS, the CPU and
#    GPU give the same bits (the maps use + - * / sqrt only: the arctangent is ExactBend.hh's own).
# 2. The cost of the exact bend on the GPU: inputs/fodo_ring.toml (16 bends of 22.5 deg), 1e6 particles,
#    20 turns, with its bends exact (the default) and linear; noted, not bounded (expected within ~1.5x:
#    the ring's quadrupoles and drifts are exact maps too). About 30 s.
eb="$out/exact-bends"
mkdir -p "$eb"
# shellcheck source=scripts/gpu-check.d/validate-deck.bash
source scripts/gpu-check.d/validate-deck.bash
validate_deck 180 "$eb/validate-every-element.txt" "exact bends: validate every_element (CPU vs GPU)" \
    "exact bends: validate every_element (CPU vs GPU)" tests/data/every_element.toml --set beam.macroparticles=200000
for model in exact linear; do
    if timeout 120 ./"$build"/gtrack run inputs/fodo_ring.toml --backend gpu -q --profile \
            --set beam.macroparticles=1000000 --set lattice.turns=20 --set elements.B.model=$model \
            -o "/tmp/fodo_ring_$model.h5" >"$eb/fodo_ring_$model.txt" 2>&1; then
        sed -n '/^profile/,$p' "$eb/fodo_ring_$model.txt"
        note "exact bends: fodo_ring 1e6 x 20 turns, bends $model" "$(grep '^measured' "$eb/fodo_ring_$model.txt")"
    else
        note "exact bends: fodo_ring bends $model" "FAILED ($(tail -n 1 "$eb/fodo_ring_$model.txt" | cut -c1-120))"
        status=1
    fi
done
