#!/usr/bin/env bash
# Builds gtrack with warnings as errors (and the CUDA backend whenever nvcc is present) and runs the
# test suite. GPU tests run where a GPU is present and are reported as skipped elsewhere.
# Usage: scripts/test.sh [build-dir [ctest options...]]
# Without ctest options it runs every test but those labelled `long` (CI's set: each long comparison has a
# reduced case in it; scripts/nightly.sh and scripts/gpu-check.sh run the long ones); `-L long` runs only
# those, `-LE none` everything.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-test}
shift || true
select=("$@")
[ ${#select[@]} -gt 0 ] || select=(-LE long)
cuda=AUTO
# A machine with nvcc must compile and link the CUDA backend: make its absence an error there.
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
    cuda=ON
    export PATH="$PATH:/usr/local/cuda/bin"
fi
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DGTRACK_CUDA=$cuda -DGTRACK_WERROR=ON
cmake --build "$build" --parallel "$(nproc)"
ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)" "${select[@]}"
