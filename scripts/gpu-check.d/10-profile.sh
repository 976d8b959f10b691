# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034,SC2086  # $build, $out, note and status come from gpu-check.sh
# Profile, trace, calibrate and forecast on the GPU (sourced by scripts/gpu-check.sh): measure the
# machine's CPU and GPU ceilings, then for each example beamline deck forecast it, run it on the GPU
# with --profile and --trace, then once more, and note forecast against measured (the profile's kernel
# time) for both runs, PASS within +-30% (issue 29), with the host set-up that the trace shows moved out of
# the kernels' time (kernel loading, cuFFT plans, the gathers' page-locked staging); then each example
# detector deck forecast from its pilot run against its GPU run, and the detector part of the beamline
# decks that feed one. About five minutes. GPU_CHECK_PROFILE (comma list of beamline, detector; default
# both) picks the decks after calibrate.
profile_wants() { [[ ",${GPU_CHECK_PROFILE:-beamline,detector}," == *",$1,"* ]]; }
IFS=, read -ra profile_sets <<<"${GPU_CHECK_PROFILE:-beamline,detector}"
for wanted in "${profile_sets[@]}"; do
    if [ "$wanted" != beamline ] && [ "$wanted" != detector ]; then
        note "GPU_CHECK_PROFILE" "FAILED: '$wanted' is neither beamline nor detector"
        status=1
    fi
done
prof="$out/profile"
mkdir -p "$prof"
cal="$prof/calibration.toml"
if ./$build/gtrack calibrate --out "$cal" >"$prof/calibrate.log" 2>&1; then
    cat "$prof/calibrate.log"
    note "calibrate gpu" "$(grep '^gpu:' "$prof/calibrate.log" | cut -c1-160)"
    note "calibrate cpu" "$(grep '^cpu:' "$prof/calibrate.log" | cut -c1-160)"
    note "calibrate gpu switches" "$(grep '^gpu one-entry' "$prof/calibrate.log" | cut -c1-160)"
    note "calibrate gpu map families" "$(grep '^gpu maps by family' "$prof/calibrate.log" | cut -c1-160)"
    note "calibrate gpu sc" "$(grep '^gpu space charge' "$prof/calibrate.log" | cut -c1-160)"
    note "calibrate gpu warm-up" "$(sed -n '/^\[gpu\]/,$p' "$cal" |
        grep -E '^(warmup_seconds|sc_warmup_seconds|staging_in_kernels)' | cut -d'#' -f1 | paste -sd';')"
else
    tail -n 20 "$prof/calibrate.log"
    note calibrate FAILED
    status=1
fi
# The set-up taken out of the timed stages (each kind of call loaded once untimed, the staging and cuFFT's
# plans as host events): a second.
if ./$build/tests/gtrack_gpu_tests --source-file='*/KernelLoadingTest.cc' --no-version \
        >"$prof/kernel-loading.txt" 2>&1; then
    note "gpu_KernelLoadingTest" PASS
else
    tail -n 20 "$prof/kernel-loading.txt"
    note "gpu_KernelLoadingTest" FAILED
    status=1
fi
# Sizes that keep each run to seconds: the GPU wants ~10^6 particles to be busy.
declare -A profile_args=(
    [fodo]="--set beam.macroparticles=1000000"
    [fodo_ring]="--set beam.macroparticles=1000000 --set lattice.turns=20"
    [chicane]="--set beam.macroparticles=1000000"
    [solenoid_linac]="--set beam.macroparticles=1000000"
    [fodo_space_charge]="--set beam.macroparticles=1000000"
    # Every other example beamline deck (ForecastTest's list on the CPU), so that each is forecast on the GPU
    # too: the profile elements (field-map family rate), 3D maps, t-code, radiation, scans, collective decks.
    # Sizes from their CPU times at ForecastTest's sizes and the GPU's ~200-300x one core: a few seconds each.
    [ion_linac]="--set beam.macroparticles=1000000"
    [photoinjector]="--set beam.macroparticles=1000000"
    # Emission into the gun in t-code; its kicks in time are collective (not forecast), as on the CPU.
    [photoinjector_cathode]="--set beam.macroparticles=200000 --set space_charge.enabled=false"
    [fieldmap3d_linac]="--set beam.macroparticles=200000"
    [fodo_scan]="--scan-index 3 --set beam.macroparticles=1000000"
    [light_source_ring]="--set beam.macroparticles=1000000 --set lattice.turns=10"
    # Their collective kicks (CSR, wakes) are timed apart and not forecast (ForecastTest: the same).
    [chicane_csr]="--set beam.macroparticles=1000000"
    [linac_wake]="--set beam.macroparticles=1000000"
)
# forecast / measured within (0.7, 1.3), issue 29's +-30% (ForecastTest's test on the CPU), from a run's line
# "measured X s in timed kernels; forecast Y s ...: measured / forecast = R".
verdict() {
    awk '/measured \/ forecast =/ { r = $NF; f = 1 / r;
        printf "%s %.2f", (f > 0.7 && f < 1.3) ? "PASS" : "FAIL", r; found = 1 }
        END { if (!found) printf "no ratio" }' "$1"
}
# [s] the trace's host events of one name, summed (kernel loading, cuFFT plans, host staging: set-up that
# the kernels' events no longer hold, CudaBeamKernels.cu and CudaSpaceCharge.cu).
moved() {
    python3 - "$1" <<'PY'
import json, sys
events = json.load(open(sys.argv[1]))
events = events["traceEvents"] if isinstance(events, dict) else events
total = {}
for e in events:
    if e.get("ph") == "X" and e.get("name") in ("kernel loading", "cufft plans", "host staging"):
        total[e["name"]] = total.get(e["name"], 0.0) + e.get("dur", 0.0) * 1e-6
print(", ".join(f"{k} {v:.4g} s" for k, v in sorted(total.items())) or "none")
PY
}
# Each deck twice: the first run after calibrate (a fresh machine's kernels load from a cold disk) and a
# repeat; the forecast within +-30% of both is issue 29's target (noted, not a failure of the check).
# Not here: the detector decks and the beamline decks with a detector part (beam_dump, collimator_losses),
# after this loop.
for deck in fodo fodo_ring chicane solenoid_linac fodo_space_charge ion_linac photoinjector \
    photoinjector_cathode fieldmap3d_linac fodo_scan light_source_ring chicane_csr linac_wake; do
    profile_wants beamline || break
    args=${profile_args[$deck]}
    # shellcheck disable=SC2086
    ./$build/gtrack forecast inputs/$deck.toml --calibration "$cal" $args >"$prof/$deck-forecast.txt" 2>&1
    # shellcheck disable=SC2086
    if ./$build/gtrack run inputs/$deck.toml --backend gpu -q --profile --calibration "$cal" $args \
            --trace "$prof/$deck-trace.json" -o "/tmp/$deck-profile.h5" >"$prof/$deck-profile.txt" 2>&1 &&
        python3 -c "import json; json.load(open('$prof/$deck-trace.json'))"; then
        sed -n '/^profile/,$p' "$prof/$deck-profile.txt"
        sed -n '/^gpu/,$p' "$prof/$deck-forecast.txt"
        note "profile $deck (gpu)" "$(grep '^measured' "$prof/$deck-profile.txt")"
        note "forecast $deck first run" "$(verdict "$prof/$deck-profile.txt"); moved out of kernels: $(moved "$prof/$deck-trace.json")"
    else
        tail -n 20 "$prof/$deck-profile.txt"
        note "profile $deck (gpu)" FAILED
        status=1
    fi
    # shellcheck disable=SC2086
    if ./$build/gtrack run inputs/$deck.toml --backend gpu -q --profile --calibration "$cal" $args \
            -o "/tmp/$deck-profile.h5" >"$prof/$deck-repeat.txt" 2>&1; then
        sed -n '/^profile/,$p' "$prof/$deck-repeat.txt"
        note "forecast $deck repeat" "$(verdict "$prof/$deck-repeat.txt")"
    else
        tail -n 20 "$prof/$deck-repeat.txt"
        note "profile $deck repeat (gpu)" FAILED
        status=1
    fi
done
# The example detector decks: forecast from a pilot run of their first events on the host's CPU (5% of
# them, at least 8), priced with the GPU's detector costs that calibrate measured above, against the GPU run's
# timed kernels (the profile's "measured"; sts's strip stage is neither priced nor in it). Noted as
# "forecast DECK detector: PASS|FAIL measured/forecast"; the profile's own forecast (the run's own counts
# priced: the costs alone, without the pilot's extrapolation) beside it. Sizes that keep each GPU run to a
# second or less and each pilot under ~1.5 s of one core (measured on the 2-core CPU machine: the six
# forecasts' pilots take ~15 s, the EM decks' cross-section tables ~2-4 s a command more).
declare -A detector_args=(
    [calorimeter]="--set gun.events=10000"
    [em_calorimeter]="--set gun.events=100"
    [sts]=""
    [testem2]=""
    [testem3]="--set gun.events=400"
    [tracker]="--set gun.events=20000"
)
# pilot_verdict MEASURED FORECAST: measured / pilot forecast within (1/1.3, 1/0.7), issue 29's +-30%.
pilot_verdict() {
    awk -v m="$1" -v f="$2" 'BEGIN { if (m == "" || f == "" || m <= 0) { printf "no ratio"; exit }
        r = m / f; printf "%s %.2f (measured %.4g s, pilot forecast %.4g s)", (f / m > 0.7 && f / m < 1.3) ? "PASS" : "FAIL", r, m, f }'
}
# The first "gpu (N SMs, slot walk): Y s (best ..." line of a forecast read from standard input: Y.
gpu_forecast_seconds() { grep -oP '^gpu \(.*\): \K[0-9.e+-]+' | head -n 1; }
# The run's "measured X s in timed kernels" against the forecast's gpu line.
detector_verdict() {
    pilot_verdict "$(grep -oP '^measured \K[0-9.e+-]+' "$1" | head -n 1)" "$(gpu_forecast_seconds <"$2")"
}
for deck in calorimeter em_calorimeter sts testem2 testem3 tracker; do
    profile_wants detector || break
    args=${detector_args[$deck]}
    # shellcheck disable=SC2086
    ./$build/gtrack forecast inputs/$deck.toml --calibration "$cal" $args >"$prof/$deck-forecast.txt" 2>&1
    # shellcheck disable=SC2086
    if ./$build/gtrack run inputs/$deck.toml --backend gpu -q --profile --calibration "$cal" $args \
            -o "/tmp/$deck-profile.h5" >"$prof/$deck-profile.txt" 2>&1; then
        grep '^pilot run' "$prof/$deck-forecast.txt"
        sed -n '/^gpu/,$p' "$prof/$deck-forecast.txt"
        sed -n '/^profile/,$p' "$prof/$deck-profile.txt"
        note "forecast $deck detector" "$(detector_verdict "$prof/$deck-profile.txt" "$prof/$deck-forecast.txt"); own counts: $(verdict "$prof/$deck-profile.txt")"
    else
        tail -n 20 "$prof/$deck-profile.txt"
        note "profile $deck (gpu)" FAILED
        status=1
    fi
done
note "calibrate gpu detector" "$(grep '^gpu detector loop' "$prof/calibrate.log" | cut -c1-320)"
# The beamline decks with a detector beside the line (as they are: small beams): the detector part's forecast,
# from a pilot of the beam's first macroparticles on the host and their losses' showers, priced with the
# GPU's detector costs, against the GPU run's stepping loop ("N step iterations in S s"), as ForecastTest
# checks it on the CPU.
# shellcheck source=scripts/gpu-check.d/loop-figures.bash
source scripts/gpu-check.d/loop-figures.bash
for deck in beam_dump collimator_losses; do
    profile_wants detector || break
    ./$build/gtrack forecast inputs/$deck.toml --calibration "$cal" >"$prof/$deck-forecast.txt" 2>&1
    if ./$build/gtrack run inputs/$deck.toml --backend gpu --calibration "$cal" \
            -o "/tmp/$deck-profile.h5" >"$prof/$deck-profile.txt" 2>&1; then
        sed -n '/the detector part/,$p' "$prof/$deck-forecast.txt"
        grep ' step iterations in ' "$prof/$deck-profile.txt"
        loop_figures "$prof/$deck-profile.txt"
        part_forecast=$(sed -n '/the detector part/,$p' "$prof/$deck-forecast.txt" | gpu_forecast_seconds)
        note "forecast $deck detector part" "$(pilot_verdict "$loop_seconds" "$part_forecast"); loop of $loop_iterations iterations"
    else
        tail -n 20 "$prof/$deck-profile.txt"
        note "profile $deck (gpu)" FAILED
        status=1
    fi
done
# The trace of the tracker deck (detector kernels) for Perfetto, and its profile table.
if ! profile_wants detector; then
    :
elif ./$build/gtrack run inputs/tracker.toml --backend gpu --profile --calibration "$cal" \
        --set gun.events=20000 --trace "$prof/tracker-trace.json" -o /tmp/tracker-profile.h5 \
        >"$prof/tracker-profile.txt" 2>&1; then
    sed -n '/^profile/,$p' "$prof/tracker-profile.txt"
    note "profile tracker (gpu)" "$(grep '^measured' "$prof/tracker-profile.txt")"
else
    tail -n 20 "$prof/tracker-profile.txt"
    note "profile tracker (gpu)" FAILED
    status=1
fi
