#!/usr/bin/env bash
# Builds gtrack with warnings as errors (and the CUDA backend whenever nvcc is present) and runs the
# whole test suite. GPU tests run where a GPU is present and are reported as skipped elsewhere.
# Usage: scripts/test.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-test}
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
ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)"
