# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, $out, note and status come from gpu-check.sh
# Issue 43, multiple scattering of Molière's model (physics.msc_model = "moliere", the default):
# 1. validate, bit for bit: Hanson's 15.7 MeV e- through 18.66 mg/cm^2 of gold (the deck of
#    tests/HansonFoilSupport.hh) without and with showers, the foil in ten steps, 2000 events each;
#    a 1 GeV muon through 10 cm of iron (Molière's core width); testem3 (5 events) with the new model;
#    the foil with showers and testem3 with msc_model = "moliere_all" (shower e+- on Molière's model).
# 2. rates in one run on one card, each deck with msc_model "moliere" and "highland": the muon tracker
#    (inputs/tracker.toml, 20000 events) and CBM's STS with protons (inputs/sts.toml), where the model
#    acts, and the 10 GeV e- calorimeter (200 events, as part 74) and TestEm3 (2000 events, as part 61),
#    whose shower e+- keep Highland's model (their ratio should be 1: the check that nothing else moved).
#    Target: the new model within 15% of the old rate (note "msc rate ratio"); em10 and t3 also with
#    "moliere_all" (note "msc rate ratio all"), where shower e+- take Molière's angles.
# Passing: every validate verdict "identical (bit for bit)"; the rates are measurements.
ms="$out/msc"
mkdir -p "$ms"
# shellcheck source=scripts/gpu-check.d/validate-deck.bash
source scripts/gpu-check.d/validate-deck.bash
cat >"$ms/hanson.toml" <<'EOF'
[run]
kind = "detector"
seed = 1951
track_slots = 65536
[materials.gold]
density = "19.32 g/cm3"
elements = { Au = 1.0 }
[geometry.world]
shape = "box"
half_size = [0.5, 0.5, 0.5]
material = "vacuum"
[[geometry.volume]]
name = "foil"
shape = "box"
half_size = [0.4, 0.4, 4.829e-6]
material = "gold"
[[geometry.volume]]
name = "plane"
shape = "box"
half_size = [0.4, 0.4, 0.5e-6]
position = [0, 0, 1.0e-3]
material = "silicon"
sensitive = true
[gun]
particle = "e-"
energy = "15.7 MeV"
events = 2000
position = [0, 0, -1.0e-3]
direction = [0, 0, 1]
[physics]
max_step = 0.9658e-6
EOF
validate_deck 120 "$ms/validate-hanson.log" "msc validate hanson plain" "msc validate hanson plain" \
    "$ms/hanson.toml"
validate_deck 120 "$ms/validate-hanson-showers.log" "msc validate hanson showers" \
    "msc validate hanson showers" "$ms/hanson.toml" --set physics.showers=true --set physics.range_cut="10 um"
sed -e 's/"gold"/"iron"/; s/4.829e-6/0.05/; s/"e-"/"mu-"/; s/15.7 MeV/1 GeV/; s/-1.0e-3]/-0.06]/; s/1.0e-3]/0.06]/' \
    -e 's/max_step = .*/max_step = 0.01/' "$ms/hanson.toml" >"$ms/muon.toml"
validate_deck 120 "$ms/validate-muon.log" "msc validate muon iron" "msc validate muon iron" "$ms/muon.toml"
validate_deck 200 "$ms/validate-testem3.log" "msc validate testem3" "msc validate testem3" \
    inputs/testem3.toml --set gun.events=5
# issue 43, third round: shower e+- on Molière's model (msc_model = "moliere_all"), the foil with
# showers and testem3
validate_deck 120 "$ms/validate-hanson-all.log" "msc validate hanson moliere_all" \
    "msc validate hanson moliere_all" "$ms/hanson.toml" --set physics.showers=true \
    --set physics.range_cut="10 um" --set physics.msc_model=moliere_all
validate_deck 200 "$ms/validate-testem3-all.log" "msc validate testem3 moliere_all" \
    "msc validate testem3 moliere_all" inputs/testem3.toml --set gun.events=5 --set physics.msc_model=moliere_all

# shellcheck source=scripts/gpu-check.d/loop-figures.bash
source scripts/gpu-check.d/loop-figures.bash
# ms_bench NAME ARGS...: sets ms_rate to the GPU run's track-steps/s
ms_bench() {
    local name=$1
    shift
    local log="$ms/bench-${name// /_}.log"
    ms_rate=0
    if ./"$build"/gtrack run "$@" --backend gpu -o "$ms/bench.h5" --set output.hits=false --timing >"$log" 2>&1; then
        loop_figures "$log"
        ms_rate=$(awk -v s="$loop_steps" -v l="$loop_seconds" 'BEGIN { printf "%.4g", s / l }')
        note "msc rate $name" "$ms_rate track-steps/s ($loop_steps steps, $loop_seconds s)"
    else
        tail -5 "$log"
        note "msc rate $name" FAILED
        status=1
    fi
}
em10=(inputs/em_calorimeter.toml --set gun.energy="10 GeV" --set gun.events=200 --set run.track_slots=262144)
t3=(inputs/testem3.toml --set gun.events=2000 --set run.track_slots=262144)
trk=(inputs/tracker.toml --set gun.events=20000)
sts=(inputs/sts.toml)
for deck in trk sts em10 t3; do
    declare -n args=$deck
    ms_bench "$deck highland" "${args[@]}" --set physics.msc_model=highland
    old=$ms_rate
    ms_bench "$deck moliere" "${args[@]}" --set physics.msc_model=moliere
    note "msc rate ratio $deck" "$(awk -v n="$ms_rate" -v o="$old" 'BEGIN { printf "moliere / highland = %.3f (target >= 0.85)", (o > 0 ? n / o : 0) }')"
    if [ "$deck" = em10 ] || [ "$deck" = t3 ]; then
        ms_bench "$deck moliere_all" "${args[@]}" --set physics.msc_model=moliere_all
        note "msc rate ratio all $deck" "$(awk -v n="$ms_rate" -v o="$old" 'BEGIN { printf "moliere_all / highland = %.3f (target >= 0.85)", (o > 0 ? n / o : 0) }')"
    fi
    unset -n args
done
rm -f "$ms/bench.h5"
