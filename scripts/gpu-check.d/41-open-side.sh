# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, $out, note and status come from gpu-check.sh
# Apertures with an open side (ELEGANT's MAXAMP OPEN_SIDE, a lone one-sided SCRAPER) and beam_shift (ELEGANT's
# MALIGN) on the GPU (issue 41): `gtrack validate` of tests/data/open_side.toml (3 GeV electrons, every open side
# of both shapes, a misaligned one, two shifts with every term) at 1e5 particles: PASS = the CPU and the GPU
# keep the same particles and give the same bits (Aperture.hh compares only; BeamShift.hh uses + - * / and
# sqrt_rn). About 10 s.
od="$out/open-side"
mkdir -p "$od"
# shellcheck source=scripts/gpu-check.d/validate-deck.bash
source scripts/gpu-check.d/validate-deck.bash
validate_deck 120 "$od/validate.txt" "open-side: validate open_side.toml (CPU vs GPU)" \
    "open-side: validate open_side.toml (CPU vs GPU)" tests/data/open_side.toml --set beam.macroparticles=100000
