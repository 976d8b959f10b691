#!/usr/bin/env bash
# Beamline throughput: particle-element pushes per second through the FODO ring (exact maps) and the
# linear FODO of issue 12, on the GPU and on all CPU cores of the same machine in one run, fused (one
# kernel per segment) and one kernel per element (bandwidth-bound: the achieved fraction of the
# measured memory bandwidth is reported).
# Usage: scripts/bench-beamline.sh BUILD_DIR   (per-run logs go to $TMPDIR/gtrack-bench)
set -euo pipefail
build=${1:?build directory}
out=${TMPDIR:-/tmp}/gtrack-bench
mkdir -p "$out"
gtrack=$build/gtrack
deck=inputs/fodo_ring.toml
copy_bw=${GTRACK_COPY_BW:-3.03e12}  # device-to-device copy measured on the H100 here [B/s]
cores=$(nproc)

# The linear lattice of issue 12: the FODO line of inputs/fodo.toml with linear drift and quadrupole
# maps, tracked as a ring (lattice.turns) so that one fused kernel runs long enough to time.
linear_deck=inputs/fodo.toml
linear_sets=(--set 'elements.QFH.model="linear"' --set 'elements.QD.model="linear"'
             --set 'elements.D.model="linear"')

# run NAME BACKEND N TURNS STATS [DECK SETS...]: prints "NAME backend n turns pushes/s GB/s"
run() {
    local name=$1 backend=$2 n=$3 turns=$4 stats=$5
    local run_deck=${6:-$deck}
    local log="$out/bench-$name-$backend-$n.log"
    "$gtrack" run "$run_deck" "${@:7}" --backend "$backend" --quiet -o "$out/bench.h5" --set beam.macroparticles="$n" \
        --set lattice.turns="$turns" --set output.stats="\"$stats\"" --set output.phase_space='[]' \
        --timing >"$log" 2>&1 || { echo "$name $backend $n FAILED"; tail -5 "$log"; return 1; }
    grep -q '^track ' "$log" || { echo "$name $backend $n: no timing in the output"; return 1; }
    awk -v name="$name" -v be="$backend" -v n="$n" -v t="$turns" -v bw="$copy_bw" -v cores="$cores" '
        $1 == "track" { secs = $3; bytes = $4; items = $5 }
        END {
            rate = items / secs; gbs = bytes / secs / 1e9
            extra = (be == "gpu") ? sprintf("%5.1f%% of copy bandwidth", 100 * bytes / secs / bw) \
                                   : sprintf("%.3g pushes/s per core", rate / cores)
            printf "%-10s %-4s %9d %5d %12.4g %9.1f   %s\n", name, be, n, t, rate, gbs, extra
        }' "$log"
}

echo "== beamline benchmark: $deck, $(date -u +%FT%TZ), $cores host cores =="
"$gtrack" --version | sed -n '1,4p'
printf "%-10s %-4s %9s %5s %12s %9s\n" mode dev particles turns pushes/s GB/s
for n in 1000000 10000000; do
    gpu_turns=100; cpu_turns=2
    [ "$n" -ge 10000000 ] && { gpu_turns=20; cpu_turns=1; }
    run fused gpu $n $gpu_turns turn
    run fused cpu $n $cpu_turns turn
    run per-elem gpu $n 2 every_slice
    run per-elem cpu $n 1 every_slice
    run linear gpu $n "$gpu_turns" turn "$linear_deck" "${linear_sets[@]}"
    run linear cpu $n 1 turn "$linear_deck" "${linear_sets[@]}"
done
