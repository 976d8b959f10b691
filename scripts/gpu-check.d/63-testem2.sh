# TestEm2 (inputs/testem2.toml: PbWO4, 5 GeV e-, e+- tracked to 1 keV; issue 28, branch em): `gtrack
# validate` of 3 events (CPU = GPU bit for bit: hits, tallies, counters, energy balances); the per-event
# track-length tally (on request only) is compared CPU against GPU by gpu_ShowerTest's "TestEm2" case;
# then the GPU throughput of 100 events (the tally off, as in every deck run: AlongStep's only change is
# one test of a null pointer, so this rate should equal main's before the change within its noise).
# Passing: the validate verdict is PASS (identical); the rate is a measurement.
# Sourced by scripts/gpu-check.sh ($build, $out, note, status).
e2t_log="$out/testem2"
mkdir -p "$e2t_log"
if ./$build/gtrack validate inputs/testem2.toml --set gun.events=3 >"$e2t_log/validate.log" 2>&1; then
    note "testem2 validate 3 events" "$(grep verdict "$e2t_log/validate.log")"
else
    tail -8 "$e2t_log/validate.log"
    note "testem2 validate 3 events" FAILED
    status=1
fi
# shellcheck source=scripts/gpu-check.d/loop-figures.bash
source scripts/gpu-check.d/loop-figures.bash
if ./$build/gtrack run inputs/testem2.toml --backend gpu -o "$e2t_log/bench.h5" --set gun.events=100 \
    --set run.track_slots=262144 --set output.hits=false >"$e2t_log/bench.log" 2>&1; then
    loop_figures "$e2t_log/bench.log"
    e2t_loop=$loop_seconds e2t_steps=$loop_steps
    note "testem2 5 GeV e- gpu" "$(awk -v s="$e2t_steps" -v l="$e2t_loop" 'BEGIN { printf "%.4g track-steps/s, %.4g events/s (%d steps, %.3f s)", s / l, 100 / l, s, l }')"
else
    tail -5 "$e2t_log/bench.log"
    note "testem2 5 GeV e- gpu" FAILED
    status=1
fi
