# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, $out, note and status come from gpu-check.sh
# Classical synchrotron radiation on the GPU ([lattice] radiation = "mean", issue 31):
# 1. `gtrack validate` of tests/data/every_element.toml with 5 GeV electrons and radiation on (radiating exact,
#    linear and combined-function bends and their edges, the three quadrupole models, thick multipoles,
#    fixed-reference cavities) at 1e5 particles: passing = PASS, the CPU and GPU give the same bits
#    (radiate() uses + - * / and pmath::sqrt only).
# 2. The same for inputs/light_source_ring.toml (RF phased to replace the loss), 2e4 particles, 50 turns.
# 3. The cost of radiation: the light-source ring, 1e6 particles x 20 turns on the GPU with radiation "mean"
#    and "off" (with "off" the cavity at 51 deg would raise the reference, which a ring refuses: its
#    voltage is 0 there); noted, not bounded. About a minute in all.
rd="$out/radiation"
mkdir -p "$rd"
# shellcheck source=scripts/gpu-check.d/validate-deck.bash
source scripts/gpu-check.d/validate-deck.bash
validate_deck 180 "$rd/validate-every-element.txt" \
    "radiation: validate every_element, 5 GeV e-, radiation mean (CPU vs GPU)" \
    "radiation: validate every_element (CPU vs GPU)" tests/data/every_element.toml --set beam.macroparticles=100000 \
    --set 'beam.particle="electron"' --set 'beam.kinetic_energy="5 GeV"' --set 'lattice.radiation="mean"'
validate_deck 180 "$rd/validate-light-source.txt" "radiation: validate light_source_ring 50 turns (CPU vs GPU)" \
    "radiation: validate light_source_ring (CPU vs GPU)" inputs/light_source_ring.toml \
    --set beam.macroparticles=20000 --set lattice.turns=50
for mode in mean off; do
    turns=20
    rf=()
    [ "$mode" = off ] && rf=(--set 'elements.RF.voltage="0 MV"')
    if timeout 120 ./"$build"/gtrack run inputs/light_source_ring.toml --backend gpu -q --profile \
            --set beam.macroparticles=1000000 --set lattice.turns=$turns --set "lattice.radiation=\"$mode\"" "${rf[@]}" \
            -o "/tmp/light_source_$mode.h5" >"$rd/light_source_$mode.txt" 2>&1; then
        note "radiation: light_source_ring 1e6 x $turns turns, radiation $mode" "$(grep '^measured' "$rd/light_source_$mode.txt")"
    else
        note "radiation: light_source_ring radiation $mode" "FAILED ($(tail -n 1 "$rd/light_source_$mode.txt" | cut -c1-120))"
        status=1
    fi
done
