# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, $out, note and status come from gpu-check.sh
# The many-turn executor (issue 45; BeamKernels::track_turns, BeamTracker::many_turns): a ring run whose
# statistics are only at the end tracks many turns per launch ([lattice] turns_per_call; "auto" is one turn a
# launch on a GPU since this part measured that faster), each thread keeping its particle in registers.
# 1. Bits: inputs/light_source_ring.toml (quantum excitation, a 12 mm aperture so that particles are lost),
#    1e5 particles x 200 turns on the GPU, turns_per_call = 1000 with stats "end" against stats "turn" (one
#    launch per turn), and 1e4 x 200 with turns_per_call = 1000 on the GPU and the CPU: `gtrack compare` of the
#    final snapshot and /lost must say PASS (bitwise) in both pairs.
# 2. Rate: 1e6 particles x 1000 turns of the light-source ring (75 entries, radiation "mean"), many-turn against
#    one launch per turn: particle-turns/s of each (the `track` row of --profile), noted; the issue's target
#    for an imported DIAMOND-size ring (~2300 entries) is >= 6e7 particle-turns/s, i.e. 1.4e11 entry pushes/s.
#    3. the same with the compacted table ([lattice] merge_drifts = true) where it changes the table.
# About a minute of GPU time.
md="$out/many_turns"
mkdir -p "$md"
ring=inputs/light_source_ring.toml
loss=(--set 'lattice.radiation="quantum"' --set 'beam.twiss.emittance_x="2 um"' --set 'lattice.aperture.shape="ellipse"'
      --set 'lattice.aperture.half_x="12 mm"' --set 'lattice.aperture.half_y="12 mm"' --set 'output.phase_space=["end"]')
mt_run() {  # mt_run LOG OUT BACKEND N TURNS STATS [ARGS...]
    local log=$1 h5=$2 backend=$3 n=$4 turns=$5 stats=$6
    shift 6
    timeout 300 ./"$build"/gtrack run "$ring" --backend "$backend" -q --profile -o "$h5" \
        --set beam.macroparticles="$n" --set lattice.turns="$turns" --set "output.stats=\"$stats\"" "$@" >"$log" 2>&1
}
mt_compare() {  # mt_compare KEY A B
    if ./"$build"/gtrack compare "$2" "$3" --only 'data/*' --only 'lost/*' >"$md/compare-$(basename "$2" .h5).txt" 2>&1; then
        note "$1" "PASS (bitwise)"
    else
        note "$1" "FAIL: $(grep -m1 verdict "$md/compare-$(basename "$2" .h5).txt")"
        status=1
    fi
}
# Many turns a launch is asked for ([lattice] turns_per_call; "auto" takes one turn a launch on a GPU).
many=(--set lattice.turns_per_call=1000)
if mt_run "$md/gpu-many.txt" /tmp/mt-gpu-many.h5 gpu 100000 200 end "${loss[@]}" "${many[@]}" &&
   mt_run "$md/gpu-turn.txt" /tmp/mt-gpu-turn.h5 gpu 100000 200 turn "${loss[@]}" &&
   mt_run "$md/gpu-small.txt" /tmp/mt-gpu-small.h5 gpu 10000 200 end "${loss[@]}" "${many[@]}" &&
   mt_run "$md/cpu-small.txt" /tmp/mt-cpu-small.h5 cpu 10000 200 end "${loss[@]}"; then
    mt_compare "many-turn: GPU many turns/launch vs one launch/turn (1e5 x 200, quantum, losses)" /tmp/mt-gpu-many.h5 /tmp/mt-gpu-turn.h5
    mt_compare "many-turn: GPU vs CPU (1e4 x 200, quantum, losses)" /tmp/mt-gpu-small.h5 /tmp/mt-cpu-small.h5
else
    note "many-turn: bit checks" "FAILED to run ($(tail -n 1 "$md"/*.txt | cut -c1-120 | tr '\n' ' '))"
    status=1
fi
# The rate: the `track` row of --profile (calls, seconds, ...): particle-turns/s = N turns / seconds.
mt_rate() {  # mt_rate KEY STATS [ARGS...]
    local key=$1 stats=$2
    shift 2
    local log="$md/rate-$stats-$#.txt"
    if mt_run "$log" /tmp/mt-rate.h5 gpu 1000000 1000 "$stats" --set 'output.phase_space=[]' "$@"; then
        local seconds
        seconds=$(awk '$1 == "track" {print $3; exit}' "$log")
        note "$key" "$(awk -v s="$seconds" 'BEGIN {if (s > 0) printf "%.3g particle-turns/s (track %.3g s)", 1e9 / s, s; else print "no track row"}') ; $(grep -m1 '^measured' "$log")"
    else
        note "$key" "FAILED ($(tail -n 1 "$log" | cut -c1-120))"
        status=1
    fi
}
mt_rate "many-turn: light_source_ring 1e6 x 1000, many turns/launch" end "${many[@]}"
mt_rate "many-turn: light_source_ring 1e6 x 1000, one launch/turn" turn
mt_rate "many-turn: light_source_ring 1e6 x 1000, stats end, turns_per_call auto" end
mt_rate "many-turn: light_source_ring 1e6 x 1000, many turns/launch, merge_drifts" end "${many[@]}" --set lattice.merge_drifts=true
rm -f /tmp/mt-*.h5
