# Electromagnetic showers (issue 16): the example deck as a user runs it, `gtrack validate` on it
# (CPU = GPU bit for bit: hits, tallies, counters, energy balances; also with interactions held back
# and with charge partitioning), and 10 GeV electrons into the Pb/LAr calorimeter: events/s and
# track-steps/s on the GPU and on all CPU cores, for each run.track_order and 3 secondary-buffer
# sizes. Rates are from the stepping loop's wall time. Sourced by scripts/gpu-check.sh ($build, $out,
# note, status).
em_log="$out/em"
mkdir -p "$em_log"
if ./$build/gtrack run inputs/em_calorimeter.toml --backend gpu -o "$em_log/em_calorimeter.h5" >"$em_log/run.log" 2>&1; then
    note "em_calorimeter (gpu)" "$(grep -E 'energy:' "$em_log/run.log" | sed 's/^ *//')"
else
    tail -5 "$em_log/run.log"
    note "em_calorimeter (gpu)" FAILED
    status=1
fi
# em_validate NAME [--set ...]: gtrack validate on 4 events of the example deck
em_validate() {
    local name=$1
    shift
    local log="$em_log/validate-$name.log"
    if ./$build/gtrack validate inputs/em_calorimeter.toml --set gun.events=4 "$@" >"$log" 2>&1; then
        note "em validate $name" "$(grep verdict "$log")"
    else
        tail -8 "$log"
        note "em validate $name" FAILED
        status=1
    fi
}
em_validate default
em_validate "buffer 64" --set physics.secondary_buffer=64
em_validate "track_order charge" --set run.track_order=charge
# shellcheck source=scripts/gpu-check.d/loop-figures.bash
source scripts/gpu-check.d/loop-figures.bash
# em_bench NAME BACKEND EVENTS SLOTS ORDER [BUFFER]: events/s and track-steps/s of 10 GeV electrons
em_bench() {
    local name=$1 backend=$2 events=$3 slots=$4 order=$5 buffer=${6:-0}
    local log="$em_log/bench-${name// /_}.log"
    local extra=()
    [ "$buffer" != 0 ] && extra=(--set physics.secondary_buffer="$buffer")
    if ./$build/gtrack run inputs/em_calorimeter.toml --backend "$backend" -o "$em_log/bench.h5" \
        --set gun.energy="10 GeV" --set gun.events="$events" --set run.track_slots="$slots" \
        --set run.track_order="$order" --set output.hits=false "${extra[@]}" >"$log" 2>&1; then
        local loop_seconds loop_iterations loop_steps
        loop_figures "$log"
        local loop=$loop_seconds steps=$loop_steps
        local held=$(sed -n 's/.*held back \([0-9]*\) times.*/\1/p' "$log")
        note "em 10 GeV e- $name" "$(awk -v s="$steps" -v e="$events" -v l="$loop" -v h="$held" 'BEGIN { printf "%.4g track-steps/s, %.4g events/s (%d steps, %.3f s, held back %s)", s / l, e / l, s, l, h }')"
    else
        tail -5 "$log"
        note "em 10 GeV e- $name" FAILED
        status=1
    fi
}
cores=$(nproc)
em_bench "cpu ($cores cores)" cpu 40 16384 slots
em_bench "cpu ($cores cores) charge" cpu 40 16384 charge
for order in slots alive charge; do
    em_bench "gpu $order" gpu 200 262144 "$order"
    em_bench "gpu $order buffer 65536" gpu 200 262144 "$order" 65536
    em_bench "gpu $order buffer 4096" gpu 200 262144 "$order" 4096
done
