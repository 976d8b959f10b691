#!/usr/bin/env bash
# The one script run on the GPU machine: build for sm_90, run every test (GPU ones included), run the
# benchmarks, and print a summary table last. Logs go to $OUT when set (the device tool returns it).
#
# The GPU machine lacks toml++ and Random123: carry their .debs in .device-deps/ (made on the
# development machine by ../shared/device/fetch-debs.sh) and they are unpacked under /opt/deps here.
set -uo pipefail
cd "$(dirname "$0")/.."
# Logs gather here; with $OUT set (the device tool) they come back as one archive, since only a
# few files are returned.
out=/tmp/gtrack-gpu-check
rm -rf "$out"
mkdir -p "$out"
summary=()
status=0
note() { summary+=("$1|$2"); }
# GPU_CHECK_STAGES (comma list; default all) picks what runs, so the whole check can be split over
# several device calls of under 10 minutes: tests, decks (run, validate, regression), bench, parts
# (scripts/gpu-check.d/, or only those matching GPU_CHECK_PARTS, e.g. "30-*"), nightly.
# GPU_CHECK_REUSE=1 keeps an existing build-gpu (a warm machine) instead of building afresh.
want() { [[ ",${GPU_CHECK_STAGES:-tests,decks,bench,parts,nightly}," == *",$1,"* ]]; }

if [ -d .device-deps ]; then
    mkdir -p /opt/deps
    for f in .device-deps/*.deb; do dpkg -x "$f" /opt/deps; done
    export CMAKE_PREFIX_PATH=/opt/deps/usr
    export LD_LIBRARY_PATH=/opt/deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"

build=build-gpu
[ "${GPU_CHECK_REUSE:-0}" = 1 ] && [ -f "$build/build.ninja" ] || rm -rf "$build"  # a fresh configure: cached compiler include paths from another environment break the build
start=$(date +%s)
if cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGTRACK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DGTRACK_NATIVE=ON -DGTRACK_WERROR=ON -DTOMLPP_INCLUDE_DIR=/opt/deps/usr/include \
        -DRANDOM123_INCLUDE_DIR=/opt/deps/usr/include >"$out/configure.log" 2>&1 &&
    cmake --build $build --parallel "$(nproc)" >"$out/build.log" 2>&1; then
    note build "ok ($(( $(date +%s) - start )) s)"
else
    tail -n 50 "$out/configure.log" "$out/build.log"
    note build FAILED
    printf '%s\n' "${summary[@]}"
    exit 1
fi
./$build/gtrack --version | tee "$out/version.txt"

if want tests; then
OMP_NUM_THREADS=2 ctest --test-dir $build --output-on-failure --parallel 8 >"$out/ctest.log" 2>&1
status=$?
rm -f "$out/configure.log"
grep -E "tests passed|tests failed|Skipped|Failed|\*\*\*" "$out/ctest.log" | tail -20
note "tests (cpu + gpu)" "$(grep -E 'tests passed' "$out/ctest.log" | tail -1)"
note "gpu tests" "$(grep -cE 'gpu_.*Passed' "$out/ctest.log") passed, $(grep -cE 'gpu_.*(Failed|Skipped|Not Run)' "$out/ctest.log") failed or skipped"
# The GPU tests' own figures (how many values differ, by how much), which ctest hides when they pass.
./$build/tests/gtrack_gpu_tests >"$out/gpu-tests.txt" 2>&1
grep -E -A3 "MESSAGE" "$out/gpu-tests.txt" | grep -vE "^--$" | tail -40
fi

# The measured memory-bandwidth ceiling that the benchmarks compare with (same run, same GPU).
if ./$build/gtrack_memory_ceiling | tee "$out/ceiling.txt"; then
    export GTRACK_COPY_BW=$(awk '$1 == "copy_bandwidth" { print $2 }' "$out/ceiling.txt")
    note "memory ceiling" "$(awk '{ printf "%s %.3g TB/s  ", $1, $2 / 1e12 }' "$out/ceiling.txt")"
else
    note "memory ceiling" FAILED
    status=1
fi

if want decks; then
# Every example deck as a user runs it, on the GPU.
for deck in inputs/*.toml; do
    name=$(basename "$deck" .toml)
    scan=()
    grep -q '^\[scan\]' "$deck" && scan=(--scan-index 0)
    if ./$build/gtrack run "$deck" "${scan[@]}" --backend gpu -o "$out/run-$name.h5" --quiet >"$out/run-$name.log" 2>&1; then
        note "run $name (gpu)" ok
    else
        note "run $name (gpu)" "FAILED: $(tail -1 "$out/run-$name.log")"
        status=1
    fi
    rm -f "$out/run-$name.h5"
done
fi

if want bench; then
if [ -x scripts/bench-beamline.sh ]; then
    if scripts/bench-beamline.sh $build | tee "$out/bench-beamline.txt"; then
        note "beamline benchmark" "ok (bench-beamline.txt)"
    else
        note "beamline benchmark" FAILED
        status=1
    fi
fi

if [ -x scripts/bench-detector.sh ]; then
    if scripts/bench-detector.sh $build | tee "$out/bench-detector.txt"; then
        note "detector benchmark" "ok (bench-detector.txt)"
    else
        note "detector benchmark" FAILED
        status=1
    fi
fi
fi

if want decks; then
# CPU against GPU, stage by stage, on every example deck (modest sizes; rings cut to 20 turns;
# detector decks: 200 events, compared hit by hit, bit for bit).
mkdir -p "$out/validate"
validate_failed=0
validate_count=0
for deck in inputs/*.toml; do
    name=$(basename "$deck" .toml)
    size=(--set beam.macroparticles=20000)
    grep -qE '^kind *= *"detector"' "$deck" && size=(--set gun.events=200)
    extra=()
    grep -qE '^turns *= *[0-9]' "$deck" && extra=(--set lattice.turns=20)
    # Space charge: validate's default tolerance after the kicks covers cuFFT against FFTW rounding
    # (src/compare/RoundOffTolerance.hh, docs/validation.md): no options, as a user runs it.
    ./$build/gtrack validate "$deck" "${size[@]}" "${extra[@]}" \
        --report "$out/validate/$name-validate.md" >"$out/validate/$name.txt" 2>&1
    rc=$?
    validate_count=$((validate_count + 1))
    [ $rc -eq 0 ] || validate_failed=$((validate_failed + 1))
    echo "validate $name (exit $rc): $(grep -E '^verdict:|no GPU' "$out/validate/$name.txt" | tail -1)"
    grep -E '^totals:' "$out/validate/$name.txt"
done
if [ $validate_failed -eq 0 ]; then
    note "validate inputs/" "$validate_count decks agree (validate/*.md)"
else
    note "validate inputs/" "$validate_failed of $validate_count FAILED (validate/*.txt)"
    status=1
fi

# The regression suite on the GPU against the CPU-made references, and validate on each of its decks.
if scripts/regression.sh --gtrack ./$build/gtrack --backend gpu --validate --out "$out/regression" \
        >"$out/regression-gpu.txt" 2>&1; then
    note "regression (gpu)" "ok, validate ok (regression-gpu.txt)"
else
    note "regression (gpu)" "FAILED (regression-gpu.txt)"
    status=1
fi
tail -16 "$out/regression-gpu.txt"
rm -f "$out"/regression/*.h5  # outputs are large; the compare tables and validate reports stay
fi

if want bench; then
# Space charge: time per kick by stage, each deposition variant, 1e6 and 1e7 particles, 64^3 and
# 128^3, GPU and CPU in one run (bench/SpaceChargeBench.cc).
if ./$build/gtrack_bench_spacecharge --particles 1e6,1e7 --grids 64,128 --kicks 3 | tee "$out/bench-spacecharge.txt"; then
    note "space-charge benchmark" "ok (bench-spacecharge.txt)"
    while read -r dev np grid dep sort deposit green solve field gather kick total rest; do
        [ "$dev" = gpu ] && [ "$dep" = "determ.+sort" ] && note "sc kick gpu $np $grid" "$total ms/kick $rest"
    done < <(grep -E '^gpu ' "$out/bench-spacecharge.txt")
else
    note "space-charge benchmark" FAILED
    status=1
fi
fi

# Each feature's own GPU checks and benchmarks: scripts/gpu-check.d/*.sh, sourced in name order. They
# see $build, $out and note(), and set status=1 on failure.
want parts || GPU_CHECK_PARTS="none"
for part in scripts/gpu-check.d/${GPU_CHECK_PARTS:-*}.sh; do
    [ -e "$part" ] || continue
    echo "== $part =="
    # shellcheck source=/dev/null
    source "$part"
done

if want nightly; then
# The nightly script end to end on this machine (CPU and GPU regression, validate, plots), on this build.
if scripts/nightly.sh --build "$build" --report "$out/nightly" >"$out/nightly.log" 2>&1; then
    note "nightly.sh" "ok ($(grep -c . "$out/nightly/summary.md" 2>/dev/null) report lines, $(ls "$out/nightly/plots" 2>/dev/null | wc -l) plots)"
else
    note "nightly.sh" "FAILED (nightly.log)"
    status=1
fi
tail -n 25 "$out/nightly.log"
fi

{
    echo
    echo "== gpu-check summary =="
    printf '%-22s %s\n' "device" "$(head -1 "$out/gpu.txt")"
    for row in "${summary[@]}"; do printf '%-22s %s\n' "${row%%|*}" "${row#*|}"; done
} | tee "$out/summary.txt"
if [ -n "${OUT:-}" ]; then
    cp "$out/summary.txt" "$OUT/summary.txt"
    tar czf "$OUT/gpu-check-logs.tar.gz" -C "$out" .
fi
exit $status
