# GDML geometry (issue 44): `gtrack validate` on 5 events of inputs/testem3_gdml.toml (TestEm3 read from
# inputs/testem3.gdml: CPU = GPU bit for bit), then the GPU rate of TestEm3 from GDML against the same
# calorimeter written in TOML (inputs/testem3.toml), 2000 electrons of 1 GeV each on the same card. The
# target: the GDML deck within 20% of the TOML deck's track-steps/s (the tables are the same volumes,
# shapes and materials; only the placements' rounding differs). Then (issue 44, solids) `gtrack validate`
# of showers in tests/data/gdml/forward-solids.gdml (cone, trd, eltube, para: CPU = GPU bit for bit), started
# uniformly in a box over the vessel and up to the absorber in every direction, in a 1 T field across them, so that tracks cross
# every face (cone surfaces from both sides and parallel to the axis, phi edges, slanted trd and para faces).
# Then the same for a trap and a polycone (pyg4ometry's T007_Trap.gdml, T011_Polycone.gdml).
# Sourced by scripts/gpu-check.sh ($build, $out, note, status).
gdml_log="$out/gdml"
mkdir -p "$gdml_log"
# shellcheck source=scripts/gpu-check.d/validate-deck.bash
source scripts/gpu-check.d/validate-deck.bash
validate_deck 120 "$gdml_log/validate.log" "gdml testem3 validate" "gdml testem3 validate" \
    inputs/testem3_gdml.toml --set gun.events=5
cat >"$gdml_log/forward-solids.toml" <<DECK
[run]
kind = "detector"
name = "forward_solids"
seed = 11
track_slots = 4096

[geometry]
gdml = "$PWD/tests/data/gdml/forward-solids.gdml"

[field]
type = "uniform"
B = [0.6, 0, 0.8]

[gun]
particle = "e-"
energy = "1 GeV"
events = 12
position = { type = "box", center = [0, 0, "-15 cm"], half_size = ["25 cm", "15 cm", "35 cm"] }
direction = { type = "isotropic" }

[physics]
showers = true
range_cut = "1 mm"
energy_cut = "0.1 MeV"
DECK
validate_deck 180 "$gdml_log/validate-solids.log" "gdml cone/trd/eltube/para validate" \
    "gdml cone/trd/eltube/para validate" "$gdml_log/forward-solids.toml"
# trap and polycone (issue 44, solids2): showers started in and around pyg4ometry's T007_Trap.gdml and
# T011_Polycone.gdml (iron, in a 100 mm vacuum box) in every direction, in a 1 T field: tracks cross the
# trap's slanted faces and the polycone's cones, its shared plane (the side table of sections) and phi edges
for solid in T007_Trap:0.009:0.004:0.006 T011_Polycone:0.01:0.01:0.012; do
    IFS=: read -r file hx hy hz <<<"$solid"
    cat >"$gdml_log/$file.toml" <<DECK
[run]
kind = "detector"
name = "$file"
seed = 13
track_slots = 4096

[geometry]
gdml = "$PWD/tests/data/gdml/$file.gdml"

[field]
type = "uniform"
B = [0.6, 0, 0.8]

[gun]
particle = "e-"
energy = "1 GeV"
events = 20
position = { type = "box", center = [0, 0, 0], half_size = [$hx, $hy, $hz] }
direction = { type = "isotropic" }

[physics]
showers = true
range_cut = "0.1 mm"
energy_cut = "0.1 MeV"
DECK
    validate_deck 120 "$gdml_log/validate-$file.log" "gdml $file validate" "gdml $file validate" \
        "$gdml_log/$file.toml"
done
# shellcheck source=scripts/gpu-check.d/loop-figures.bash
source scripts/gpu-check.d/loop-figures.bash
gdml_rate() {  # gdml_rate DECK: prints track-steps/s of 2000 electrons, or nothing on failure
    local log="$gdml_log/bench-$(basename "$1" .toml).log"
    if ./$build/gtrack run "$1" --backend gpu -o "$gdml_log/bench.h5" --set gun.events=2000 \
        --set run.track_slots=262144 --set output.hits=false >"$log" 2>&1; then
        local loop_seconds loop_iterations loop_steps
        loop_figures "$log"
        awk -v s="$loop_steps" -v l="$loop_seconds" 'BEGIN { printf "%.6g", s / l }'
    else
        tail -5 "$log" >&2
    fi
    rm -f "$gdml_log/bench.h5"
}
toml_rate=$(gdml_rate inputs/testem3.toml)
gdml_rate_value=$(gdml_rate inputs/testem3_gdml.toml)
if [ -n "$toml_rate" ] && [ -n "$gdml_rate_value" ]; then
    verdict=$(awk -v g="$gdml_rate_value" -v t="$toml_rate" \
        'BEGIN { r = g / t; printf "%s: gdml %.4g, toml %.4g track-steps/s, ratio %.3f", (r >= 0.8 ? "PASS" : "FAIL"), g, t, r }')
    note "gdml testem3 rate vs toml" "$verdict"
    [[ $verdict == PASS* ]] || status=1
else
    note "gdml testem3 rate vs toml" FAILED
    status=1
fi
