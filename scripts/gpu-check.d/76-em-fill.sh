# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, $out, note and status come from gpu-check.sh
# How much of the EM rate's distance (issue 29: 10 GeV e- into inputs/em_calorimeter.toml, >= 3e8
# track-steps/s) is the shower's ramp and tail rather than the step actions: the same deck with more
# events in flight, so that vacated slots are refilled with new primaries for most of the run. One
# gtrack run per row, its loop's steps over its loop's seconds (--timing), slot count and
# run.track_order as named; about a minute. Measurements only: nothing here passes or fails but a run.
ef="$out/em-fill"
mkdir -p "$ef"
# shellcheck source=scripts/gpu-check.d/loop-figures.bash
source scripts/gpu-check.d/loop-figures.bash
# ef_bench NAME EVENTS SLOTS ORDER: notes the run's track-steps/s and its mean live tracks an iteration
ef_bench() {
    local name=$1 events=$2 slots=$3 order=$4
    local log="$ef/${name// /_}.log"
    if ./"$build"/gtrack run inputs/em_calorimeter.toml --set gun.energy="10 GeV" --backend gpu \
        -o "$ef/bench.h5" --set gun.events="$events" --set run.track_slots="$slots" \
        --set run.track_order="$order" --set output.hits=false --timing >"$log" 2>&1; then
        loop_figures "$log"
        note "em-fill $name" "$(awk -v s="$loop_steps" -v l="$loop_seconds" -v i="$loop_iterations" -v n="$slots" 'BEGIN {
            printf "%.4g track-steps/s (%d steps, %d iterations, %.4g s; %.1f%% of slots stepped an iteration)",
                s / l, s, i, l, 100 * s / (i * n) }')"
    else
        tail -5 "$log"
        note "em-fill $name" FAILED
        status=1
    fi
}
ef_bench "200 events 262144 slots" 200 262144 slots
ef_bench "1000 events 262144 slots" 1000 262144 slots
ef_bench "4000 events 262144 slots" 4000 262144 slots
ef_bench "4000 events 1048576 slots" 4000 1048576 slots
ef_bench "4000 events 262144 slots alive" 4000 262144 alive
ef_bench "4000 events 262144 slots charge" 4000 262144 charge
ef_bench "4000 events 262144 slots compact" 4000 262144 compact
ef_bench "4000 events 1048576 slots charge" 4000 1048576 charge
ef_bench "4000 events 1048576 slots compact" 4000 1048576 compact
ef_bench "200 events 262144 slots charge" 200 262144 charge
ef_bench "200 events 262144 slots compact" 200 262144 compact
ef_bench "4000 events 65536 slots" 4000 65536 slots
rm -f "$ef/bench.h5"
