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
