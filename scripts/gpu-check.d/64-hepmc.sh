# shellcheck shell=bash disable=SC2154,SC2034  # sourced by scripts/gpu-check.sh: build, out, note, status
# HepMC3 events as primaries (issue 44, docs/decks.md "Primaries from an event file"): inputs/hepmc_events.toml
# (20 toy e+e- events: muons, pions, photons from two vertices, a neutron and neutrinos not transported) run
# on the GPU, then `gtrack validate`: hits, tallies and counters of the CPU and the GPU bit for bit, the
# primaries being host data read once per backend. The same deck with showers (photons and electrons
# interact, per-event energy balances indexed by the file's events) is validated too, with a cut-down slot
# count so that events start in batches. Passing: the run prints the event file's summary with the
# particles not transported, and both validations say "identical". About 20 s.
# shellcheck source=validate-deck.bash
source scripts/gpu-check.d/validate-deck.bash
hm_dir=$(mktemp -d)
if ./"$build"/gtrack run inputs/hepmc_events.toml --backend gpu -o "$hm_dir/gpu.h5" >"$out/hepmc-run.log" 2>&1 &&
    grep -q "not transported" "$out/hepmc-run.log"; then
    note "hepmc3 events (gpu run)" "$(grep -m1 '^event file' "$out/hepmc-run.log" | cut -c1-90)"
else
    note "hepmc3 events (gpu run)" "FAILED (see hepmc-run.log)"
    status=1
fi
validate_deck 120 "$out/hepmc-validate.log" "hepmc3 events: validate" "hepmc3 events: validate" \
    inputs/hepmc_events.toml
validate_deck 240 "$out/hepmc-validate-showers.log" "hepmc3 events, showers: validate" \
    "hepmc3 events, showers: validate" inputs/hepmc_events.toml --set physics.showers=true \
    --set run.track_slots=256 --set gun.events=6
rm -rf "$hm_dir"
