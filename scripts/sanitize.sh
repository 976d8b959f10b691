#!/usr/bin/env bash
# The unit tests under AddressSanitizer and UndefinedBehaviorSanitizer: a clang build of the CPU code
# (CUDA off) apart from the g++ build, in which any sanitizer report fails the test that caused it.
# The build also holds the fuzz targets (GTRACK_FUZZ=ON), so that scripts/fuzz.sh --build DIR reuses it.
# MPI is off: Open MPI's own allocations would flood LeakSanitizer; the MPI tests run in the g++ build.
#
# Usage: scripts/sanitize.sh [build-dir] [ctest arguments...]     (default build-san)
# GTRACK_SANITIZER_TESTS=all builds and runs every test file (default ci: tests/CMakeLists.txt says which).
# The test set and why: docs/development.md, "Sanitizers".
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-san}
shift || true
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
CC=clang CXX=clang++ cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DGTRACK_CUDA=OFF -DGTRACK_MPI=OFF -DGTRACK_FUZZ=ON -DGTRACK_WERROR=ON \
    -DGTRACK_SANITIZER_TESTS="${GTRACK_SANITIZER_TESTS:-ci}" >/dev/null
# What the tests run (the benchmarks are not tests; scripts/fuzz.sh builds its own targets).
cmake --build "$build" --parallel "$(nproc)" --target gtrack gtrack_tests
# Leaks are reported too (LeakSanitizer); abort_on_error keeps the report's exit status non-zero.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)" "$@"
