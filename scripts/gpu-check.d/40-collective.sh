# Collective effects (wakes, LSC, CSR): the histogram benchmark of issue 14 on the GPU against all CPU
# cores: 1e7 particles into 1000 and 4000 bins, deterministic and per-block variants, 1 and 3
# channels, achieved bandwidth and its fraction of the measured copy ceiling ($GTRACK_COPY_BW, set
# by gpu-check.sh), plus one CSR bend slice and one LSC kick end to end. The GPU tests
# (gpu_CollectiveTest: histograms and kicks bit for bit) run with the others in ctest.
if [ -x "$build/gtrack_bench_collective" ]; then
    if OMP_NUM_THREADS=$(nproc) timeout 300 "$build/gtrack_bench_collective" --particles 1e7 --bins 1000,4000 \
        --repeat 5 | tee "$out/bench-collective.txt"; then
        note "collective benchmark" "ok (bench-collective.txt: $(awk '$1 == "gpu" && $2 == "histogram" && $4 == 1000 && $5 == 1 { printf "%s %s GB/s  ", $3, $7 }' "$out/bench-collective.txt"))"
    else
        note "collective benchmark" FAILED
        status=1
    fi
else
    note "collective benchmark" "FAILED: $build/gtrack_bench_collective missing"
    status=1
fi
# Both example decks as a user runs them: the chicane on the GPU with --profile (the coll.* stage
# rows: histogram, wake, smooth, lsc, csr, kick), and `gtrack validate` on each (CPU against GPU:
# the deterministic histogram and the host convolutions give the same bits, so the verdict must be
# a pass with every stage bit-identical). The chicane uses the CSR entrance transient and drift wake.
coll_log="$out/collective"
mkdir -p "$coll_log"
if timeout 300 "$build/gtrack" run inputs/chicane_csr.toml --backend gpu --profile -o "$coll_log/chicane_csr.h5" \
    >"$coll_log/chicane_csr-run.log" 2>&1; then
    note "chicane_csr (gpu)" "$(grep -E '^collective:' "$coll_log/chicane_csr-run.log")"
else
    tail -5 "$coll_log/chicane_csr-run.log"
    note "chicane_csr (gpu)" FAILED
    status=1
fi
for coll_deck in chicane_csr linac_wake; do
    if timeout 300 "$build/gtrack" validate "inputs/$coll_deck.toml" >"$coll_log/validate-$coll_deck.log" 2>&1; then
        note "$coll_deck validate" "$(grep verdict "$coll_log/validate-$coll_deck.log")"
    else
        tail -8 "$coll_log/validate-$coll_deck.log"
        note "$coll_deck validate" FAILED
        status=1
    fi
done
