# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, $out, note and status come from gpu-check.sh
# Thin bends (a multipole with angle: MAD-X's MULTIPOLE with knl[0], MAKETHIN's bend slices) and beam_shift's
# shift_t, shift_energy (ELEGANT's MALIGN DT, DE) on the GPU (issue 41): `gtrack validate` of
# tests/data/thin_bends.toml (200 MeV protons; thin bends with and without lrad, rolled, misaligned) at 1e5
# particles: PASS = the CPU and the GPU keep the same particles and give the same bits (Multipole.hh's bend
# uses fma_rn, + - * / and sqrt_rn; BeamShift.hh + - * / and sqrt_rn). About 10 s.
td="$out/thin-bends"
mkdir -p "$td"
# shellcheck source=scripts/gpu-check.d/validate-deck.bash
source scripts/gpu-check.d/validate-deck.bash
validate_deck 120 "$td/validate.txt" "thin-bends: validate thin_bends.toml (CPU vs GPU)" \
    "thin-bends: validate thin_bends.toml (CPU vs GPU)" tests/data/thin_bends.toml --set beam.macroparticles=100000
