# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, $out, note and status come from gpu-check.sh
# Ring studies' checkpoints and forecast on the GPU (issue 45, branch studympi; docs/studies.md "MPI,
# checkpoints and forecast"):
# 1. inputs/light_source_da.toml without its frequency map, 200 turns: on the CPU whole; on the GPU stopped by
#    the test hook's SIGTERM at turn 50 (exit 75, a checkpoint) and resumed: `gtrack compare` against the CPU
#    file must say "0 differ" (the GPU's checkpoint holds the device's particles copied to the host). Passing:
#    "PASS (bitwise)".
# 2. The study's forecast on the GPU against its measured kernel time (run --profile) for the two example
#    study decks, when part 10 left a calibration ($out/profile/calibration.toml): the measured / forecast
#    line of each. Expect the DA within the best-worst range (the CPU measured 1.3-1.45x its forecast for this
#    ring) and the momentum aperture's forecast above the measured time (most of its candidates beyond +-0.5%
#    are lost in the first turns; the forecast counts them alive).
sd="$out/study-checkpoint"
mkdir -p "$sd"
da=(inputs/light_source_da.toml --set dynamic_aperture.frequency_map=false --set lattice.turns=200)
rm -f "$sd/da_gpu.h5" "$sd/da_gpu.h5.ckpt"
if timeout 120 ./"$build"/gtrack run "${da[@]}" --backend cpu -q -o "$sd/da_cpu.h5" >"$sd/cpu.txt" 2>&1; then
    GTRACK_TEST_STOP_AT=50 timeout 120 ./"$build"/gtrack run "${da[@]}" --backend gpu -q -o "$sd/da_gpu.h5" \
        >"$sd/stop.txt" 2>&1
    rc=$?
    if [ "$rc" = 75 ] && [ -e "$sd/da_gpu.h5.ckpt" ] && [ ! -e "$sd/da_gpu.h5" ] &&
        timeout 120 ./"$build"/gtrack run "${da[@]}" --backend gpu -q -o "$sd/da_gpu.h5" --resume auto \
            >"$sd/resume.txt" 2>&1 &&
        ./"$build"/gtrack compare "$sd/da_cpu.h5" "$sd/da_gpu.h5" >"$sd/compare.txt" 2>&1 &&
        grep -q " 0 differ" "$sd/compare.txt"; then
        note "study checkpoint: DA stopped at turn 50 on the GPU, resumed == CPU" "PASS (bitwise)"
    else
        note "study checkpoint: DA stopped at turn 50 on the GPU, resumed == CPU" \
            "FAILED (stop exit $rc; $(tail -n 1 "$sd/resume.txt" "$sd/compare.txt" 2>/dev/null | tr '\n' ' ' | cut -c1-150))"
        status=1
    fi
else
    note "study checkpoint: DA on the CPU" "FAILED ($(tail -n 1 "$sd/cpu.txt" | cut -c1-120))"
    status=1
fi
cal="$out/profile/calibration.toml"
if [ -e "$cal" ]; then
    for deck in light_source_da light_source_ma; do
        if timeout 120 ./"$build"/gtrack run inputs/$deck.toml --backend gpu -q --profile --calibration "$cal" \
                -o "/tmp/$deck-profile.h5" >"$sd/$deck-profile.txt" 2>&1; then
            note "study forecast $deck (gpu)" "$(grep '^measured' "$sd/$deck-profile.txt")"
        else
            note "study forecast $deck (gpu)" "FAILED ($(tail -n 1 "$sd/$deck-profile.txt" | cut -c1-120))"
            status=1
        fi
    done
else
    note "study forecast (gpu)" "not run: no calibration from part 10"
fi
