# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034,SC2086  # $build, $out, note and status come from gpu-check.sh
# The forecast of the output's gathers to the host (loss records, snapshots) against the profile, after
# 10-profile.sh (its calibration file): the gather's calls and bytes must be the profile's; the run's
# generate and gather times over three alternating runs of fodo and chicane tell a deck's cost from a
# run's noise; chicane once more with every module loaded at start (CUDA_MODULE_LOADING=EAGER): since each
# kernel is loaded before its first timed call (CudaBeamKernels.cu), generate's time with the default
# (lazy) loading should be eager's (7.5e-5 s at 10^6 on the H100, where it was 3-21 ms), and the gather's
# the device's work alone (its page-locked staging is host time now: ~1-2 ms, where it was 22-119 ms).
# About a minute.
prof="$out/profile"
cal="$prof/calibration.toml"
log="$out/forecast-gather"
mkdir -p "$log"
if [ ! -f "$cal" ]; then
    note "forecast gather" "SKIPPED (no calibration from 10-profile.sh)"
else
    note "calibrate gpu gathers" "$(grep '^gpu output gathers' "$prof/calibrate.log" | cut -c1-160)"
    row() { awk -v k="$1" '$1 == k { print $2, $3, $4 }' "$2"; }  # calls, time or GB, ...
    for rep in 1 2 3; do
        for deck in fodo chicane; do
            f="$log/$deck-$rep.txt"
            ./$build/gtrack run inputs/$deck.toml --backend gpu -q --profile --calibration "$cal" \
                --set beam.macroparticles=1000000 -o "/tmp/$deck-gather.h5" >"$f" 2>&1 || status=1
            echo "$deck run $rep: generate [calls s GB] $(row generate "$f"); gather $(row gather "$f");" \
                "$(grep '^measured' "$f")"
        done
    done
    ./$build/gtrack forecast inputs/fodo.toml --calibration "$cal" --set beam.macroparticles=1000000 \
        >"$log/fodo-forecast.txt" 2>&1
    # Forecast table: kernel calls GB GFLOP ...; profile table: kernel calls time GB ...
    fc=$(sed -n '/^gpu/,$p' "$log/fodo-forecast.txt" | awk '$1 == "gather" { print $2, $3 }')
    pc=$(awk '$1 == "gather" { print $2, $4 }' "$log/fodo-1.txt")
    echo "fodo gather forecast [calls GB] $fc, profile $pc"
    if [ -n "$fc" ] && [ "$fc" = "$pc" ]; then
        note "forecast gather fodo" "calls and GB as measured ($fc)"
    else
        note "forecast gather fodo" "FAILED: forecast [calls GB] '$fc', profile '$pc'"
        status=1
    fi
    CUDA_MODULE_LOADING=EAGER ./$build/gtrack run inputs/chicane.toml --backend gpu -q --profile \
        --calibration "$cal" --set beam.macroparticles=1000000 -o /tmp/chicane-gather.h5 \
        >"$log/chicane-eager.txt" 2>&1 || status=1
    note "chicane generate (eager modules)" "$(row generate "$log/chicane-eager.txt")"
    for deck in fodo chicane; do
        note "$deck generate x3 [calls s GB]" "$(for r in 1 2 3; do row generate "$log/$deck-$r.txt"; done | paste -sd';')"
        note "$deck gather x3 [calls s GB]" "$(for r in 1 2 3; do row gather "$log/$deck-$r.txt"; done | paste -sd';')"
        note "$deck measured/forecast x3" "$(for r in 1 2 3; do grep -o 'measured / forecast = [0-9.]*' "$log/$deck-$r.txt" | awk '{print $NF}'; done | paste -sd' ')"
    done
fi
