# Electromagnetic showers (issue 16): the example deck as a user runs it, `gtrack validate` on it,
# and 10 GeV electrons into the Pb/LAr calorimeter: events/s and track-steps/s on the GPU and on all
# CPU cores, with the secondary-buffer size varied on the GPU. Sourced by scripts/gpu-check.sh
# ($build, $out, note, status).
em_log="$out/em"
mkdir -p "$em_log"
if ./$build/gtrack run inputs/em_calorimeter.toml --backend gpu -o "$em_log/em_calorimeter.h5" >"$em_log/run.log" 2>&1; then
    note "em_calorimeter (gpu)" "$(grep -E 'energy:' "$em_log/run.log" | sed 's/^ *//')"
else
    tail -5 "$em_log/run.log"
    note "em_calorimeter (gpu)" FAILED
    status=1
fi
if ./$build/gtrack validate inputs/em_calorimeter.toml --set gun.events=4 >"$em_log/validate.log" 2>&1; then
    note "em validate" "$(grep verdict "$em_log/validate.log")"
else
    tail -8 "$em_log/validate.log"
    note "em validate" FAILED
    status=1
fi
# em_bench NAME BACKEND EVENTS SLOTS [BUFFER]: events/s and track-steps/s of 10 GeV electrons
em_bench() {
    local name=$1 backend=$2 events=$3 slots=$4 buffer=${5:-0}
    local log="$em_log/bench-$name.log"
    local extra=()
    [ "$buffer" != 0 ] && extra=(--set physics.secondary_buffer="$buffer")
    local t0=$(date +%s.%N)
    if ./$build/gtrack run inputs/em_calorimeter.toml --backend "$backend" --quiet --timing -o "$em_log/bench.h5" \
        --set gun.energy="10 GeV" --set gun.events="$events" --set run.track_slots="$slots" \
        --set output.hits=false "${extra[@]}" >"$log" 2>&1; then
        local rate=$(awk '$1 == "steps_per_second" { print $2 }' "$log")
        local loop=$(awk '$1 != "#" && NF == 5 { s += $3 } END { print s }' "$log")
        note "em 10 GeV e- $name" "$(awk -v r="$rate" -v e="$events" -v l="$loop" 'BEGIN { printf "%.4g track-steps/s, %.4g events/s", r, e / l }')"
    else
        tail -5 "$log"
        note "em 10 GeV e- $name" FAILED
        status=1
    fi
}
em_bench gpu gpu 200 262144
em_bench "cpu ($(nproc) cores)" cpu 20 16384
em_bench "gpu buffer 65536" gpu 200 262144 65536
em_bench "gpu buffer 4096" gpu 200 262144 4096
