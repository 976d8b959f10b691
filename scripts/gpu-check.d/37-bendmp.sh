# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, $out, note and status come from gpu-check.sh
# Bends with multipole components in the body (k1s, k2s, k3, k3s, knl, ksl: kicks in the exact bend's split
# steps) and exact thick solenoids on the GPU (issue 31):
# 1. `gtrack validate` of tests/data/bend_multipoles.toml (800 MeV protons) at 1e5 particles: passing = PASS,
#    the CPU and GPU give the same bits (the kicks use fma_rn and + - * / only, the solenoid pmath::sincos).
# 2. The same deck with 5 GeV electrons and [lattice] radiation = "mean" (the body's kicks radiate their
#    field): PASS = the same bits.
# About 20 s in all.
bd="$out/bendmp"
mkdir -p "$bd"
# shellcheck source=scripts/gpu-check.d/validate-deck.bash
source scripts/gpu-check.d/validate-deck.bash
validate_deck 120 "$bd/validate-protons.txt" "bendmp: validate bend_multipoles (CPU vs GPU)" \
    "bendmp: validate bend_multipoles (CPU vs GPU)" tests/data/bend_multipoles.toml --set beam.macroparticles=100000
validate_deck 120 "$bd/validate-radiation.txt" \
    "bendmp: validate bend_multipoles, 5 GeV e-, radiation mean (CPU vs GPU)" \
    "bendmp: validate bend_multipoles with radiation (CPU vs GPU)" tests/data/bend_multipoles.toml \
    --set beam.macroparticles=100000 --set 'beam.particle="electron"' --set 'beam.kinetic_energy="5 GeV"' \
    --set 'lattice.radiation="mean"'
