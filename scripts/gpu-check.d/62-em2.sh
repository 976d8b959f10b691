# TestEm3 with Urban's fluctuations and the msc polar angle of <cos theta> = exp(-theta0^2) (issue 28,
# branch em2): `gtrack validate` (CPU = GPU bit for bit: tallies, counters, energy balances) on the
# 10 GeV regression deck and on 5 events of inputs/testem3.toml with each new model turned off in turn;
# then the GPU throughput of 10 GeV electrons in TestEm3 (200 events) with the new models and with the
# old ones (fluctuation_model = "gaussian", msc_exact_mean = false), on the same card. Passing: every
# validate verdict is PASS (identical); the two rates are measurements (the cost of the models).
# Sourced by scripts/gpu-check.sh ($build, $out, note, status).
e2_log="$out/em2"
mkdir -p "$e2_log"
# e2_validate NAME DECK [--set ...]
e2_validate() {
    local name=$1 deck=$2
    shift 2
    local log="$e2_log/validate-${name// /_}.log"
    if ./$build/gtrack validate "$deck" "$@" >"$log" 2>&1; then
        note "em2 validate $name" "$(grep verdict "$log")"
    else
        tail -8 "$log"
        note "em2 validate $name" FAILED
        status=1
    fi
}
e2_validate "testem3 10 GeV" regression/detector_testem3_10gev/deck.toml
e2_validate "testem3 gaussian fluct" inputs/testem3.toml --set gun.events=5 --set physics.fluctuation_model=gaussian
e2_validate "testem3 projected msc" inputs/testem3.toml --set gun.events=5 --set physics.msc_exact_mean=false
# shellcheck source=scripts/gpu-check.d/loop-figures.bash
source scripts/gpu-check.d/loop-figures.bash
# e2_bench NAME [--set ...]: events/s and track-steps/s of 200 electrons of 10 GeV on the GPU
e2_bench() {
    local name=$1
    shift
    local log="$e2_log/bench-${name// /_}.log"
    if ./$build/gtrack run inputs/testem3.toml --backend gpu -o "$e2_log/bench.h5" --set gun.events=200 \
        --set "gun.energy=10 GeV" --set run.track_slots=262144 --set output.hits=false "$@" >"$log" 2>&1; then
        local loop_seconds loop_iterations loop_steps
        loop_figures "$log"
        local loop=$loop_seconds steps=$loop_steps
        note "testem3 10 GeV e- gpu $name" "$(awk -v s="$steps" -v l="$loop" 'BEGIN { printf "%.4g track-steps/s, %.4g events/s (%d steps, %.3f s)", s / l, 200 / l, s, l }')"
    else
        tail -5 "$log"
        note "testem3 10 GeV e- gpu $name" FAILED
        status=1
    fi
}
e2_bench "urban + exp msc angle"
e2_bench "gaussian + projected msc" --set physics.fluctuation_model=gaussian --set physics.msc_exact_mean=false
