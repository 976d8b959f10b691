#!/usr/bin/env bash
# Detector throughput: track-steps per second for the tracker and calorimeter decks on the GPU and on
# all CPU cores of the same machine, and the field-propagation time with max_substeps 10 vs 1000.
# Usage: scripts/bench-detector.sh BUILD_DIR   (per-run logs go to $TMPDIR/gtrack-bench)
set -euo pipefail
build=${1:?build directory}
out=${TMPDIR:-/tmp}/gtrack-bench
mkdir -p "$out"
gtrack=$build/gtrack
cores=$(nproc)

# run NAME DECK BACKEND EVENTS SUBSTEPS [SLOTS [SETTING]]: prints "NAME backend events substeps slots
# steps/s propagate-s iterations ms/iteration" (hits are collected and sorted on the device as in any
# run, but not written: output.hits=false). On the GPU every action visits every slot each iteration,
# so it gets a slot count its events fill: 262144. The CPU follows one track at a time per thread
# (run.cpu_loop = "tracks"; no propagate time of its own, "-"); its 16384 slots only set the schedule
# it reproduces. SETTING: one more --set (e.g. run.cpu_loop=slots: the CPU walking slots as the GPU).
run() {
    local name=$1 deck=$2 backend=$3 events=$4 substeps=$5
    local slots=${6:-$([ "$backend" = gpu ] && echo 262144 || echo 16384)} extra=${7:-}
    local log="$out/bench-$name-$backend-$events-$substeps-$slots.log"
    "$gtrack" run "$deck" --backend "$backend" --quiet -o "$out/bench-detector.h5" --set gun.events="$events" \
        --set propagation.max_substeps="$substeps" --set run.track_slots="$slots" --set output.hits=false ${extra:+--set "$extra"} --timing >"$log" 2>&1 ||
        { echo "$name $backend FAILED"; tail -5 "$log"; return 1; }
    grep -q '^steps_per_second ' "$log" || { echo "$name $backend: no timing in the output"; return 1; }
    awk -v name="$name" -v be="$backend" -v ev="$events" -v ss="$substeps" -v slots="$slots" '
        $1 == "steps_per_second" { rate = $2 }
        $1 == "propagate" { prop = $3; calls = $2 }
        $1 == "step_tracks" { prop = "-"; calls = $2 }
        NF == 5 && $1 != "#" { loop += $3 }
        END { printf "%-12s %-4s %8d %9d %7d %14.4g %12s %10d %12.4g\n", name, be, ev, ss, slots, rate, prop, calls,
                     1e3 * loop / calls }' "$log"
}

echo "== detector benchmark: $(date -u +%FT%TZ), $cores host cores =="
"$gtrack" --version | sed -n '1,4p'
printf "%-12s %-4s %8s %9s %7s %14s %12s %10s %12s\n" deck dev events substeps slots track-steps/s propagate-s \
    iterations ms/iteration
run tracker inputs/tracker.toml gpu 100000 10
run tracker inputs/tracker.toml cpu 10000 10
run tracker-walk inputs/tracker.toml cpu 10000 10 16384 run.cpu_loop=slots
# the solenoid tabulated once on a 5 mm (r, z) grid (field.tabulate; docs/decks.md states its accuracy)
run tracker-tab inputs/tracker.toml gpu 100000 10 262144 'field.tabulate="5 mm"'
run tracker-tab inputs/tracker.toml cpu 10000 10 16384 'field.tabulate="5 mm"'
run calorimeter inputs/calorimeter.toml gpu 20000 10
run calorimeter inputs/calorimeter.toml cpu 2000 10
# the substep cap: along-step (propagation) time and iterations with 10 and 1000 substeps per iteration
run tracker-cap inputs/tracker.toml gpu 100000 1000
run tracker-cap inputs/tracker.toml cpu 10000 1000
# time per step iteration against the tracks in flight (the slots stay full while primaries wait)
for slots in 4096 16384 65536; do run tracker-slots inputs/tracker.toml gpu 100000 10 $slots; done
