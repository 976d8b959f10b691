# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, $out, note and status come from gpu-check.sh
# Issue 29's EM target, measured in one call: 10 GeV e- into the Pb/LAr calorimeter
# (inputs/em_calorimeter.toml), track-steps/s on the GPU and on every core of the host, with the
# detector loop of branch emgpu (the loop's counts on the device, batches of 16 iterations with one
# read of the counts, photon and e+- interaction kernels, 64-register bound on the heavy actions).
#
# 1. validate, bit for bit: 200 events at 262 144 slots (the benchmark's run; hits, tallies,
#    counters, energy balances, and now the step iterations and the stack peak, which the GPU's
#    batches must not change), 8 events with a 4096-entry secondary buffer and track_order "charge"
#    (batches paused for stack room, interactions held back), and testem2 (3 events); the 200 events,
#    the held-back case and testem2 again with track_order "compact" (the live tracks moved to slots
#    [0, alive) every iteration: its own schedule, which CPU and GPU must share to the bit).
# 2. rates: the GPU (200 events, 262 144 slots) with track_order slots, charge and compact, each with the
#    64-register bound (default) and without it (GTRACK_TEST_DETECTOR_UNBOUNDED=1), and with one
#    iteration a batch (GTRACK_TEST_DETECTOR_BATCH=1: a read of the counts per iteration); the CPU on all
#    cores (200 events, 16 384 slots, its best slot count in 60-em.sh). The GPU/CPU ratio is taken
#    with the best GPU figure. Target: >= 3e8 track-steps/s and >= 30x the CPU.
# 3. ncu (bounded to 150 s each): registers, theoretical and achieved occupancy, duration and active
#    threads per warp of each step action's kernels for a dozen launches mid-run, with track_order
#    slots and compact (the compaction's own kernels, CompactTracks and ScatterOrder, included).
# Passing: every validate verdict "identical (bit for bit)"; the rates are measurements.
er="$out/em-rate"
mkdir -p "$er"
em10=(inputs/em_calorimeter.toml --set gun.energy="10 GeV")
# er_validate NAME ARGS...: gtrack validate; notes the verdict and returns the log's name
er_validate() {
    local name=$1
    shift
    local log="$er/validate-${name// /_}.log"
    if ./"$build"/gtrack validate "$@" >"$log" 2>&1; then
        note "em-rate validate $name" "$(grep verdict "$log") ($(grep -m1 'step iterations' "$log"))"
    else
        tail -12 "$log"
        note "em-rate validate $name" "FAILED: $(grep verdict "$log")"
        status=1
    fi
}
er_validate "10 GeV 200 events" "${em10[@]}" --set gun.events=200 --set run.track_slots=262144
grep -E "stepping loop|steps" "$er/validate-10_GeV_200_events.log"
er_validate "10 GeV buffer 4096 charge" "${em10[@]}" --set gun.events=8 --set physics.secondary_buffer=4096 \
    --set run.track_order=charge --set run.track_slots=65536
er_validate "testem2 3 events" inputs/testem2.toml --set gun.events=3
er_validate "10 GeV 200 events compact" "${em10[@]}" --set gun.events=200 --set run.track_slots=262144 \
    --set run.track_order=compact
er_validate "10 GeV buffer 4096 compact" "${em10[@]}" --set gun.events=8 --set physics.secondary_buffer=4096 \
    --set run.track_order=compact --set run.track_slots=65536
grep -E "verdict|held back|step iterations" "$er/validate-10_GeV_buffer_4096_compact.log"
er_validate "testem2 3 events compact" inputs/testem2.toml --set gun.events=3 --set run.track_order=compact

# shellcheck source=scripts/gpu-check.d/loop-figures.bash
source scripts/gpu-check.d/loop-figures.bash
# er_bench NAME BACKEND EVENTS SLOTS ORDER [ENV...]: sets er_rate to the run's track-steps/s
er_bench() {
    local name=$1 backend=$2 events=$3 slots=$4 order=$5
    shift 5
    local log="$er/bench-${name// /_}.log"
    er_rate=0
    if env "$@" ./"$build"/gtrack run "${em10[@]}" --backend "$backend" -o "$er/bench.h5" \
        --set gun.events="$events" --set run.track_slots="$slots" --set run.track_order="$order" \
        --set output.hits=false --timing >"$log" 2>&1; then
        loop_figures "$log"
        er_rate=$(awk -v s="$loop_steps" -v l="$loop_seconds" 'BEGIN { printf "%.4g", s / l }')
        note "em-rate $name" "$er_rate track-steps/s ($loop_steps steps, $loop_iterations iterations, $loop_seconds s)"
    else
        tail -5 "$log"
        note "em-rate $name" FAILED
        status=1
    fi
}
cores=$(nproc)
er_bench "cpu $cores cores" cpu 200 16384 slots
cpu_rate=$er_rate
best=0
for order in slots charge compact; do
    er_bench "gpu $order" gpu 200 262144 "$order"
    best=$(awk -v a="$best" -v b="$er_rate" 'BEGIN { print (b > a ? b : a) }')
    er_bench "gpu $order unbounded registers" gpu 200 262144 "$order" GTRACK_TEST_DETECTOR_UNBOUNDED=1
    best=$(awk -v a="$best" -v b="$er_rate" 'BEGIN { print (b > a ? b : a) }')
done
# what the batches buy: one read of the counts per iteration instead of per 16
er_bench "gpu slots batch 1" gpu 200 262144 slots GTRACK_TEST_DETECTOR_BATCH=1
note "em-rate best gpu / cpu" "$(awk -v g="$best" -v c="$cpu_rate" 'BEGIN { printf "%.4g / %.4g track-steps/s = %.3gx (targets 3e8, 30x)", g, c, (c > 0 ? g / c : 0) }')"
# the per-stage tables of the default GPU run and of compact (stages are timed by events, no wait per stage)
grep -vE '^ *$' "$er/bench-gpu_slots.log" | tail -30
grep -vE '^ *$' "$er/bench-gpu_compact.log" | tail -30

ncu_bin=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
if [ -n "$ncu_bin" ]; then
    for order in slots compact; do
        if timeout 150 "$ncu_bin" --clock-control none --kernel-name-base demangled \
                -k "regex:(InitializeTracks|LimitStep|Propagate|AlongStep|ScoreHits|CrossBoundary|EndStep|EmInteract|EmCommit|PlanIteration|CloseCommit|CompactTracks|ScatterOrder)" \
                --launch-skip 400 --launch-count 16 --section SpeedOfLight --section Occupancy --section LaunchStats \
                --section WarpStateStats \
                ./"$build"/gtrack run "${em10[@]}" --backend gpu -o "$er/ncu.h5" --set gun.events=50 \
                --set run.track_slots=262144 --set output.hits=false --set run.track_order="$order" \
                >"$er/ncu-$order.txt" 2>&1; then
            echo "--- ncu, track_order $order"
            grep -E "^  [a-zA-Z_].*\(|Duration|Registers Per Thread|Achieved Occupancy|Theoretical Occupancy|Local Memory Spilling|Stack Size|Active Threads Per Warp" \
                "$er/ncu-$order.txt" | head -200
            note "em-rate ncu $order" "ok (em-rate/ncu-$order.txt)"
        else
            note "em-rate ncu $order" "ncu failed: $(grep -m1 -iE 'error|fail' "$er/ncu-$order.txt" | cut -c1-120)"
            tail -5 "$er/ncu-$order.txt"
        fi
    done
fi
rm -f "$er/bench.h5" "$er/ncu.h5"
