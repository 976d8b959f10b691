# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, $out, note and status come from gpu-check.sh
# Where the kernels behind issue 12's unmet targets lose time, read from the hardware counters with
# Nsight Compute (ncu): the fused exact ring, the fused linear FODO, the tabulated-field detector step
# and every kernel of one space-charge kick. Clocks are left alone (--clock-control none), as the
# device notes ask. A machine without working counters (ncu fails) is noted, not failed: the check
# of correctness and speed does not depend on it.
ncu_bin=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
nc="$out/ncu"
mkdir -p "$nc"
# The sections that say why a kernel runs at its rate: speed of light (compute and memory against
# peak), pipe use (FP64 among them), occupancy and launch (registers), warp stalls, instruction mix.
ncu_why=(--section SpeedOfLight --section ComputeWorkloadAnalysis --section Occupancy --section LaunchStats
         --section WarpStateStats --section SchedulerStats --section InstructionStats --section MemoryWorkloadAnalysis)
# ncu_run NAME KERNEL_REGEX SKIP COUNT SECTIONS... -- COMMAND...
ncu_run() {
    local name=$1 regex=$2 skip=$3 count=$4
    shift 4
    local sections=()
    while [ "$1" != "--" ]; do sections+=("$1"); shift; done
    shift
    if timeout 110 "$ncu_bin" --clock-control none --kernel-name-base demangled -k "regex:$regex" \
            --launch-skip "$skip" --launch-count "$count" "${sections[@]}" "$@" >"$nc/$name.txt" 2>&1; then
        note "ncu $name" "ok (ncu/$name.txt)"
        grep -E "^  [a-zA-Z_].*\(|Duration|Registers Per Thread|Achieved Occupancy|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|Issue Slots Busy|Executed Ipc Active|No Eligible|One or More Eligible|Local Memory Spilling" "$nc/$name.txt" | head -40
    else
        note "ncu $name" "ncu failed: $(grep -m1 -iE 'error|fail' "$nc/$name.txt" | cut -c1-120)"
        tail -5 "$nc/$name.txt"
    fi
}
# gtrack's own profile of the fused linear FODO at the bench's size (10^7, 20 turns): bytes and FP64
# operations counted per element against the calibrated ceilings (10-profile.sh writes the calibration).
cal="$out/profile/calibration.toml"
if [ -f "$cal" ] && ./"$build"/gtrack run inputs/fodo.toml --backend gpu -q --profile --calibration "$cal" \
        -o /tmp/linear-profile.h5 --set beam.macroparticles=10000000 --set lattice.turns=20 \
        --set output.phase_space='[]' --set 'output.stats="turn"' --set 'elements.QFH.model="linear"' \
        --set 'elements.QD.model="linear"' --set 'elements.D.model="linear"' >"$nc/linear-profile.txt" 2>&1; then
    sed -n '/^profile/,$p' "$nc/linear-profile.txt"
else
    tail -5 "$nc/linear-profile.txt" 2>/dev/null
fi
if [ -z "$ncu_bin" ]; then
    note ncu "not installed"
else
    echo "ncu: $ncu_bin"
    q=(-q -o /tmp/ncu.h5 --set output.phase_space='[]' --set 'output.stats="turn"')
    # Fused exact ring, 10^6 particles: one segment kernel per turn; the second turn's launch.
    ncu_run fused-exact TrackSegment 1 1 "${ncu_why[@]}" -- ./"$build"/gtrack run inputs/fodo_ring.toml \
        --backend gpu "${q[@]}" --set beam.macroparticles=1000000 --set lattice.turns=3
    # Fused linear FODO (the bench's linear_sets), 10^6 particles.
    ncu_run fused-linear TrackSegment 1 1 "${ncu_why[@]}" -- ./"$build"/gtrack run inputs/fodo.toml \
        --backend gpu "${q[@]}" --set beam.macroparticles=1000000 --set lattice.turns=3 \
        --set 'elements.QFH.model="linear"' --set 'elements.QD.model="linear"' --set 'elements.D.model="linear"'
    # The detector step actions with the field tabulated on 5 mm (the bench's tracker-tab): two whole
    # iterations, some iterations in.
    ncu_run tracker-tab "(LimitStep|Propagate|AlongStep|ScoreHits|CrossBoundary|EndStep)" 60 12 "${ncu_why[@]}" -- ./"$build"/gtrack run inputs/tracker.toml \
        --backend gpu -q -o /tmp/ncu.h5 --set gun.events=100000 --set propagation.max_substeps=10 \
        --set run.track_slots=262144 --set output.hits=false --set 'field.tabulate="5 mm"'
    # One space-charge kick at 10^7 on 128^3, every kernel, speed of light and launch only (each kernel
    # against its own ceiling): the bench's warm-up kick of each variant is profiled too.
    ncu_run sc-kick . 0 200 --section SpeedOfLight --section LaunchStats --section Occupancy -- \
        ./"$build"/gtrack_bench_spacecharge --particles 1e7 --grids 128 --kicks 1 --no-cpu
    tar czf "$out/ncu.tgz" -C "$nc" . 2>/dev/null
fi
