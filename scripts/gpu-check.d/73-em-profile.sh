# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, $out, note and status come from gpu-check.sh
# Where the 10 GeV Pb/LAr shower loses time on the GPU (issue 29's EM target): the stepping loop's
# per-action times (--timing), and the hardware counters of each step action for a dozen launches
# in the middle of the run (ncu: speed of light, occupancy and registers, warp stalls, branch
# divergence). Clocks are left alone (--clock-control none). No ncu: the timing table alone.
ep="$out/em-profile"
mkdir -p "$ep"
em_args=(--backend gpu -o /tmp/em-profile.h5 --set gun.energy="10 GeV" --set gun.events=200
         --set run.track_slots=262144 --set output.hits=false)
if ./$build/gtrack run inputs/em_calorimeter.toml "${em_args[@]}" --timing >"$ep/timing.txt" 2>&1; then
    grep -vE '^ *$' "$ep/timing.txt" | tail -40
    note "em profile timing" "ok (em-profile/timing.txt)"
else
    tail -5 "$ep/timing.txt"
    note "em profile timing" FAILED
fi
ncu_bin=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
if [ -n "$ncu_bin" ]; then
    if timeout 150 "$ncu_bin" --clock-control none --kernel-name-base demangled \
            -k "regex:(InitializeTracks|LimitStep|Propagate|AlongStep|ScoreHits|CrossBoundary|EndStep|Interact|EmCommit|PlanIteration)" \
            --launch-skip 300 --launch-count 14 --section SpeedOfLight --section Occupancy --section LaunchStats \
            --section WarpStateStats --section InstructionStats --section SourceCounters \
            ./$build/gtrack run inputs/em_calorimeter.toml "${em_args[@]}" --set gun.events=50 \
            >"$ep/ncu.txt" 2>&1; then
        grep -E "^  [a-zA-Z_].*\(|Duration|Registers Per Thread|Achieved Occupancy|Theoretical Occupancy|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|Issue Slots Busy|Branch Efficiency|Avg. Divergent|Local Memory Spilling|Stack Size" "$ep/ncu.txt" | head -120
        note "em profile ncu" "ok (em-profile/ncu.txt)"
    else
        note "em profile ncu" "ncu failed: $(grep -m1 -iE 'error|fail' "$ep/ncu.txt" | cut -c1-120)"
        tail -5 "$ep/ncu.txt"
    fi
fi
rm -f /tmp/em-profile.h5
