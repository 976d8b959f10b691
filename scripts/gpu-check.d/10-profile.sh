# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034,SC2086  # $build, $out, note and status come from gpu-check.sh
# Profile, trace, calibrate and forecast on the GPU (sourced by scripts/gpu-check.sh): measure the
# machine's CPU and GPU ceilings, then for each example beamline deck forecast it, run it on the GPU
# with --profile and --trace, and note forecast against measured (the profile's kernel time).
prof="$out/profile"
mkdir -p "$prof"
cal="$prof/calibration.toml"
if ./$build/gtrack calibrate --out "$cal" >"$prof/calibrate.log" 2>&1; then
    cat "$prof/calibrate.log"
    note "calibrate gpu" "$(grep '^gpu:' "$prof/calibrate.log" | cut -c1-160)"
    note "calibrate cpu" "$(grep '^cpu:' "$prof/calibrate.log" | cut -c1-160)"
else
    tail -n 20 "$prof/calibrate.log"
    note calibrate FAILED
    status=1
fi
# Sizes that keep each run to seconds: the GPU wants ~10^6 particles to be busy.
declare -A profile_args=(
    [fodo]="--set beam.macroparticles=1000000"
    [fodo_ring]="--set beam.macroparticles=1000000 --set lattice.turns=20"
    [chicane]="--set beam.macroparticles=1000000"
    [solenoid_linac]="--set beam.macroparticles=1000000"
    [fodo_space_charge]="--set beam.macroparticles=1000000"
)
for deck in fodo fodo_ring chicane solenoid_linac fodo_space_charge; do
    args=${profile_args[$deck]}
    # shellcheck disable=SC2086
    ./$build/gtrack forecast inputs/$deck.toml --calibration "$cal" $args >"$prof/$deck-forecast.txt" 2>&1
    # shellcheck disable=SC2086
    if ./$build/gtrack run inputs/$deck.toml --backend gpu -q --profile --calibration "$cal" $args \
            --trace "$prof/$deck-trace.json" -o "/tmp/$deck-profile.h5" >"$prof/$deck-profile.txt" 2>&1 &&
        python3 -c "import json; json.load(open('$prof/$deck-trace.json'))"; then
        sed -n '/^profile/,$p' "$prof/$deck-profile.txt"
        grep -E '^(cpu|gpu) ' "$prof/$deck-forecast.txt"
        note "profile $deck (gpu)" "$(grep '^measured' "$prof/$deck-profile.txt")"
    else
        tail -n 20 "$prof/$deck-profile.txt"
        note "profile $deck (gpu)" FAILED
        status=1
    fi
done
# The trace of the tracker deck (detector kernels) for Perfetto, and its profile table.
if ./$build/gtrack run inputs/tracker.toml --backend gpu --profile --calibration "$cal" \
        --set gun.events=20000 --trace "$prof/tracker-trace.json" -o /tmp/tracker-profile.h5 \
        >"$prof/tracker-profile.txt" 2>&1; then
    sed -n '/^profile/,$p' "$prof/tracker-profile.txt"
    note "profile tracker (gpu)" "$(grep '^measured' "$prof/tracker-profile.txt")"
else
    tail -n 20 "$prof/tracker-profile.txt"
    note "profile tracker (gpu)" FAILED
    status=1
fi
