# compute-sanitizer on the GPU tests: memcheck (out-of-bounds and misaligned device accesses, leaks of
# device memory, failed API calls) and racecheck (shared-memory hazards between the threads of a
# block). Sourced by scripts/gpu-check.sh (sees $build, $out, note, status).
#
# Bounded in time (the whole gpu-check must fit 10 minutes): compute-sanitizer slows kernels 10-100x,
# so each tool runs under `timeout`: memcheck every GPU test file but DeviceMemoryTest (it measures
# cudaMemGetInfo, which memcheck's padding changes), 180 s; racecheck the file whose kernels use shared
# memory (the executor's block reduction, kernels/cuda/Executor.cuh: CoreTest), 90 s.
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ ! -x "$sanitizer" ] || [ ! -x "$build/tests/gtrack_gpu_tests" ]; then
    note "compute-sanitizer" "not run (no compute-sanitizer or no GPU test binary)"
else
    for tool in memcheck racecheck; do
        args=(--tool "$tool" --error-exitcode 86)
        if [ "$tool" = memcheck ]; then
            args+=(--leak-check full)
            filter=(--source-file-exclude='*/DeviceMemoryTest.cc')
            limit=180
        else
            filter=(--source-file='*/CoreTest.cc')
            limit=90
        fi
        start=$(date +%s)
        timeout $limit "$sanitizer" "${args[@]}" "$build/tests/gtrack_gpu_tests" --no-version "${filter[@]}" \
            >"$out/compute-sanitizer-$tool.txt" 2>&1
        rc=$?
        took=$(( $(date +%s) - start ))
        summary_line=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/compute-sanitizer-$tool.txt" | tail -1)
        if [ $rc -eq 0 ]; then
            note "compute-sanitizer $tool" "ok in ${took} s (${summary_line:-no summary})"
        elif [ $rc -eq 124 ]; then
            note "compute-sanitizer $tool" "TIMED OUT after ${took} s (compute-sanitizer-$tool.txt)"
            status=1
        else
            note "compute-sanitizer $tool" "FAILED, exit $rc: ${summary_line} (compute-sanitizer-$tool.txt)"
            status=1
        fi
        grep -E "^=========" "$out/compute-sanitizer-$tool.txt" | head -20
    done
fi
