# TestEm3 (issue 28): `gtrack validate` on 5 events of inputs/testem3.toml (CPU = GPU bit for bit:
# hits, tallies, counters, energy balances, with the multiple-scattering step limit and path-length
# correction of shower e+-), then the GPU throughput of 1 GeV electrons in TestEm3 with the new
# multiple scattering and with it turned back to the old model (msc_range_factor = 0,
# msc_path_correction = false), so that the cost of the change is measured on the same card.
# Sourced by scripts/gpu-check.sh ($build, $out, note, status).
t3_log="$out/testem3"
mkdir -p "$t3_log"
if ./$build/gtrack validate inputs/testem3.toml --set gun.events=5 >"$t3_log/validate.log" 2>&1; then
    note "testem3 validate" "$(grep verdict "$t3_log/validate.log")"
else
    tail -8 "$t3_log/validate.log"
    note "testem3 validate" FAILED
    status=1
fi
# shellcheck source=scripts/gpu-check.d/loop-figures.bash
source scripts/gpu-check.d/loop-figures.bash
# t3_bench NAME [--set ...]: events/s and track-steps/s of 2000 electrons of 1 GeV on the GPU
t3_bench() {
    local name=$1
    shift
    local log="$t3_log/bench-${name// /_}.log"
    if ./$build/gtrack run inputs/testem3.toml --backend gpu -o "$t3_log/bench.h5" --set gun.events=2000 \
        --set run.track_slots=262144 --set output.hits=false "$@" >"$log" 2>&1; then
        local loop_seconds loop_iterations loop_steps
        loop_figures "$log"
        local loop=$loop_seconds steps=$loop_steps
        note "testem3 1 GeV e- gpu $name" "$(awk -v s="$steps" -v l="$loop" 'BEGIN { printf "%.4g track-steps/s, %.4g events/s (%d steps, %.3f s)", s / l, 2000 / l, s, l }')"
    else
        tail -5 "$log"
        note "testem3 1 GeV e- gpu $name" FAILED
        status=1
    fi
}
t3_bench "msc limit + path correction"
t3_bench "old msc" --set physics.msc_range_factor=0 --set physics.msc_path_correction=false
