# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, $out, note and status come from gpu-check.sh
# Explicit fused multiply-adds in the element maps (issue 29, branch fma): gt::fma_rn is __fma_rn on
# the GPU and std::fma (one vfmadd, -mfma) on the CPU, with implicit contraction off on both sides.
#  1. CPU == GPU bit for bit where the fused maps run: `gtrack validate` on the exact fodo_ring (exact
#     drifts, chromatic quadrupoles, split-step sextupoles, sector bends), the linear FODO and the
#     regression decks of multipoles, quadrupoles, sector bends and every element. Passing: every one
#     says "bit for bit" (exit 0). A difference names the first element kind that rounds differently.
#  2. The two fused rates of issue 29 (10^7 particles, 20 turns, `--timing`): fused exact fodo_ring
#     (target >= 1.6e11 pushes/s on the H100; 7.4e10 before) and fused linear FODO (target >= 6e11;
#     2.8e11 before), to compare with the last "beamline benchmark" figures in docs/performance.md.
#  3. Registers and spills of every TrackSegment switch (cuobjdump --dump-resource-usage: no counters
#     needed), and where ncu works the FP64 instruction mix of the fused exact ring (fused against
#     unfused FP64 instructions: 158 M fused and 629 M unfused before this change) and its local-memory
#     spill requests (39 M before).
# About two minutes.
fma_dir="$out/fma"
mkdir -p "$fma_dir"
fma_failed=0 fma_total=0
fma_validate() {  # NAME DECK ARGS...
    local name=$1 deck=$2
    shift 2
    fma_total=$((fma_total + 1))
    if timeout 120 ./"$build"/gtrack validate "$deck" "$@" >"$fma_dir/validate-$name.txt" 2>&1 &&
        grep -q "bit for bit" "$fma_dir/validate-$name.txt"; then
        echo "fma validate $name: bit for bit"
    else
        fma_failed=$((fma_failed + 1))
        echo "fma validate $name: NOT bit for bit: $(grep -m2 -E 'verdict|first|error' "$fma_dir/validate-$name.txt" | tr '\n' ' ')"
    fi
}
linear_sets=(--set 'elements.QFH.model="linear"' --set 'elements.QD.model="linear"' --set 'elements.D.model="linear"')
fma_validate ring-exact inputs/fodo_ring.toml --set beam.macroparticles=20000 --set lattice.turns=20
fma_validate fodo-linear inputs/fodo.toml --set beam.macroparticles=20000 "${linear_sets[@]}"
fma_validate fodo-kick inputs/fodo.toml --set beam.macroparticles=20000 --set 'elements.QFH.model="kick"' \
    --set 'elements.QD.model="kick"'
for deck in multipoles quadrupoles sbend_edges every_element ring_every_element; do
    [ -f "regression/$deck/deck.toml" ] && fma_validate "$deck" "regression/$deck/deck.toml"
done
note "fma: CPU == GPU (validate)" "$((fma_total - fma_failed)) of $fma_total bit for bit (fma/validate-*.txt)"
[ "$fma_failed" = 0 ] || status=1

# fma_rate NAME DECK TURNS ARGS...: pushes/s of the fused segment kernel at 10^7 particles.
fma_rate() {
    local name=$1 deck=$2 turns=$3
    shift 3
    if timeout 120 ./"$build"/gtrack run "$deck" "$@" --backend gpu --quiet --timing -o /tmp/fma-rate.h5 \
        --set beam.macroparticles=10000000 --set lattice.turns="$turns" --set 'output.stats="turn"' \
        --set 'output.phase_space=[]' >"$fma_dir/rate-$name.txt" 2>&1; then
        local rate
        rate=$(awk '$1 == "track" { printf "%.4g", $5 / $3 }' "$fma_dir/rate-$name.txt")
        echo "fma rate $name: $rate pushes/s"
        note "fma: $name 1e7, pushes/s" "$rate"
    else
        note "fma: $name 1e7" "FAILED (fma/rate-$name.txt)"
        status=1
    fi
}
fma_rate fused-exact-ring inputs/fodo_ring.toml 20
fma_rate fused-linear-fodo inputs/fodo.toml 20 "${linear_sets[@]}"

# Registers and spills per TrackSegment switch, from the executable's own cubin.
if command -v cuobjdump >/dev/null 2>&1; then
    cuobjdump --dump-resource-usage ./"$build"/gtrack 2>/dev/null | c++filt |
        awk '/Function/ { f = $0 } /REG:/ && f ~ /TrackSegment/ { print f; print "   " $0 }' >"$fma_dir/resources.txt"
    grep -c TrackSegment "$fma_dir/resources.txt" >/dev/null && sed 's/^/fma /' "$fma_dir/resources.txt" | head -20
    # Registers and stack frame of the two switches these rates run (issue 29, branch gpukern): linear_maps
    # (the linear FODO) and optics_maps (the exact ring). Before gpukern: REG:46 STACK:0 and REG:64
    # STACK:520; the static counts after it: REG:46 STACK:0 and REG:64 STACK:8 (docs/performance.md).
    # Each switch has a kernel per (photons, misalignments) since branch kern: every one is listed with
    # its template arguments; the rates above run the ones without photons or misalignments
    # (TrackSegment<(gt::ElementCases)N, false, false>).
    fma_resources() {  # CASES: 0 linear_maps, 1 optics_maps (demangled or mangled kernel name)
        awk -v a="ElementCases)$1" -v b="ElementCasesE$1E" \
            '(index($0, a) || index($0, b)) && /Function/ { k = $0; sub(/.*TrackSegment/, "", k); sub(/>.*/, ">", k); getline; printf "%s %s %s; ", k, $1, $2 }' "$fma_dir/resources.txt"
    }
    note "fma: linear_maps switch (cuobjdump)" "$(fma_resources 0)"
    note "fma: optics_maps switch (cuobjdump)" "$(fma_resources 1)"
fi
ncu_bin=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
if [ -n "$ncu_bin" ]; then
    if timeout 110 "$ncu_bin" --clock-control none --kernel-name-base demangled -k regex:TrackSegment \
        --launch-skip 1 --launch-count 1 --section LaunchStats --section InstructionStats \
        --section MemoryWorkloadAnalysis_Tables --metrics \
        smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,smsp__sass_thread_inst_executed_op_dadd_pred_on.sum,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_local_op_st.sum \
        ./"$build"/gtrack run inputs/fodo_ring.toml --backend gpu -q -o /tmp/fma-ncu.h5 \
        --set beam.macroparticles=1000000 --set lattice.turns=3 --set 'output.phase_space=[]' \
        --set 'output.stats="turn"' >"$fma_dir/ncu-fused-exact.txt" 2>&1; then
        grep -E "Registers Per Thread|dfma|dadd|dmul|mem_local|Local" "$fma_dir/ncu-fused-exact.txt" | head -12
        note "fma: ncu fused exact" "ok (fma/ncu-fused-exact.txt)"
    else
        note "fma: ncu fused exact" "ncu failed: $(grep -m1 -iE 'error|fail' "$fma_dir/ncu-fused-exact.txt" | cut -c1-100)"
    fi
    # The same counters for the linear FODO (branch gpukern: the finiteness check moved to integer
    # operations, 7 FP64 instructions fewer per push; expect dadd to fall to about 0 per push).
    if timeout 110 "$ncu_bin" --clock-control none --kernel-name-base demangled -k regex:TrackSegment \
        --launch-skip 1 --launch-count 1 --section LaunchStats --section InstructionStats --metrics \
        smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,smsp__sass_thread_inst_executed_op_dadd_pred_on.sum,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum \
        ./"$build"/gtrack run inputs/fodo.toml "${linear_sets[@]}" --backend gpu -q -o /tmp/fma-ncu-linear.h5 \
        --set beam.macroparticles=1000000 --set lattice.turns=3 --set 'output.phase_space=[]' \
        --set 'output.stats="turn"' >"$fma_dir/ncu-fused-linear.txt" 2>&1; then
        grep -E "Registers Per Thread|dfma|dadd|dmul|mem_local" "$fma_dir/ncu-fused-linear.txt" | head -8
        note "fma: ncu fused linear" "ok (fma/ncu-fused-linear.txt)"
    else
        note "fma: ncu fused linear" "ncu failed: $(grep -m1 -iE 'error|fail' "$fma_dir/ncu-fused-linear.txt" | cut -c1-100)"
    fi
fi
