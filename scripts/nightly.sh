#!/usr/bin/env bash
# Nightly check: build, run the unit tests, run the regression suite on the CPU (and on the GPU, plus
# `gtrack validate` on every deck, where a GPU is present), plot each deck's beam sizes against its
# reference, and write a markdown report. Exit status 0 only when every step passed.
#
# Usage: scripts/nightly.sh [--report DIR] [--build DIR] [--no-unit-tests] [--no-bench-compare]
#   --report DIR      where the report goes (default: nightly/<UTC date and time>, under the repository)
#   --build DIR       build directory (default: build-nightly)
#   --no-unit-tests   the caller has just run the unit tests on this build (CI: scripts/test.sh);
#                     the report says they were skipped here
#   --no-bench-compare  skip the CPU benchmarks against the previous commit (scripts/bench-compare.sh:
#                     two more builds and a few minutes of runs; CI skips it for time)
# The report: DIR/summary.md (open it in any markdown viewer), DIR/plots/<deck>.png, DIR/cpu/ and
# DIR/gpu/ (outputs, compare tables, validate reports), DIR/*.log.
#
# For cron (every night at 02:00, a log per night):
#   0 2 * * * /path/to/gtrack/scripts/nightly.sh --report /path/to/reports/$(date +\%F) >/path/to/reports/nightly-$(date +\%F).log 2>&1
# Needs the build dependencies (scripts/install-deps.sh) and h5py, numpy, matplotlib for the plots
# (scripts/install-deps.sh --python).
set -uo pipefail
origin=$PWD
root=$(cd "$(dirname "$0")/.." && pwd)
report=""
build=build-nightly
unit_tests=yes
bench_compare=yes
while [ $# -gt 0 ]; do
    case "$1" in
        --report) report=$(cd "$origin" && realpath -m "$2"); shift 2 ;;
        --build) build=$(cd "$origin" && realpath -m "$2"); shift 2 ;;
        --no-unit-tests) unit_tests=no; shift ;;
        --no-bench-compare) bench_compare=no; shift ;;
        -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "nightly.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
cd "$root"
[ -n "$report" ] || report=$root/nightly/$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$report"
status=0
steps=()
step() { steps+=("$1|$2"); echo "nightly: $1: $2"; }

# ---- build ---------------------------------------------------------------------------------------
cuda=AUTO
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
    cuda=ON
    export PATH="$PATH:/usr/local/cuda/bin"
fi
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
start=$(date +%s)
if cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DGTRACK_CUDA=$cuda -DGTRACK_WERROR=ON \
        >"$report/build.log" 2>&1 && cmake --build "$build" --parallel "$(nproc)" >>"$report/build.log" 2>&1; then
    step build "ok ($(( $(date +%s) - start )) s)"
else
    step build "FAILED (build.log)"
    tail -40 "$report/build.log"
    status=1
fi
gtrack=$build/gtrack
gpu=no
if [ $status -eq 0 ]; then
    "$gtrack" --version >"$report/version.txt" 2>&1
    grep -qE '^gpu: +no GPU' "$report/version.txt" || gpu=yes

    # ---- unit tests (the regression decks run below, with their outputs kept) -------------------
    if [ $unit_tests = no ]; then
        step "unit tests" "skipped (--no-unit-tests: run by the caller on this build)"
    elif ctest --test-dir "$build" --label-exclude regression --output-on-failure --parallel "$(nproc)" \
            >"$report/unit-tests.log" 2>&1; then
        step "unit tests" "ok: $(grep -E 'tests passed' "$report/unit-tests.log" | tail -1)"
    else
        step "unit tests" "FAILED: $(grep -E 'tests passed|tests failed' "$report/unit-tests.log" | tail -1) (unit-tests.log)"
        # The failed tests' names on stderr, so that a CI log without the report still says which.
        sed -n '/The following tests FAILED/,$p' "$report/unit-tests.log" >&2
        status=1
    fi

    # ---- regression suite ------------------------------------------------------------------------
    if scripts/regression.sh --gtrack "$gtrack" --backend cpu --out "$report/cpu" >"$report/regression-cpu.log" 2>&1; then
        step "regression (cpu)" "ok"
    else
        step "regression (cpu)" "FAILED (regression-cpu.log)"
        status=1
    fi
    if [ $gpu = yes ]; then
        if scripts/regression.sh --gtrack "$gtrack" --backend gpu --validate --out "$report/gpu" \
                >"$report/regression-gpu.log" 2>&1; then
            step "regression + validate (gpu)" "ok"
        else
            step "regression + validate (gpu)" "FAILED (regression-gpu.log)"
            status=1
        fi
    else
        step "regression + validate (gpu)" "not run: no GPU on $(hostname)"
    fi

    # ---- plots -----------------------------------------------------------------------------------
    if python3 scripts/plot_regression.py --runs "$report/cpu" --out "$report/plots" >"$report/plots.log" 2>&1; then
        step plots "ok ($(ls "$report/plots" | wc -l) PNG files)"
    else
        step plots "FAILED (plots.log; python deps: scripts/install-deps.sh --python)"
        status=1
    fi
fi

# ---- CPU performance against the previous landed commit ---------------------------------------
# Two release builds of the gtrack target and alternating benchmark runs (scripts/bench-compare.sh):
# a slowdown beyond 10% and beyond the runs' spread is reported as a warning, not a failure.
if [ $bench_compare = yes ] && git rev-parse -q --verify HEAD^ >/dev/null; then
    if scripts/bench-compare.sh --base HEAD^ --head HEAD --work "$root/build-bench-compare" \
            >"$report/bench-compare.log" 2>&1; then
        warnings=$(grep -c '^WARNING:' "$report/bench-compare.log")
        if [ "$warnings" -eq 0 ]; then
            step "cpu performance vs HEAD^" "ok, no slowdown above 10% (bench-compare.log)"
        else
            step "cpu performance vs HEAD^" "WARNING: $warnings figure(s) slower (bench-compare.log)"
        fi
    else
        step "cpu performance vs HEAD^" "not measured: a build failed (bench-compare.log)"
    fi
else
    step "cpu performance vs HEAD^" "skipped (--no-bench-compare, or no previous commit)"
fi

# ---- the report ----------------------------------------------------------------------------------
verdict() {  # verdict of deck $1 in results file $2
    [ -f "$2" ] || { echo "-"; return; }
    local line
    line=$(grep -E "^$1\|" "$2" | head -1)
    [ -n "$line" ] && echo "$line" | cut -d'|' -f2 || echo "-"
}
seconds() { [ -f "$2" ] && grep -E "^$1\|" "$2" | head -1 | cut -d'|' -f3; }
{
    echo "# gtrack nightly: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    if [ $status -eq 0 ]; then echo "**PASS**: every step passed."; else echo "**FAIL**: see the steps below."; fi
    echo
    echo "Host \`$(hostname)\`, commit \`$(git rev-parse --short=12 HEAD 2>/dev/null)$(git diff --quiet HEAD 2>/dev/null || echo -dirty)\`."
    echo
    echo '```'
    cat "$report/version.txt" 2>/dev/null
    echo '```'
    echo
    echo "| step | result |"
    echo "|---|---|"
    for s in "${steps[@]}"; do echo "| ${s%%|*} | ${s#*|} |"; done
    echo
    if [ -f "$report/cpu/results.txt" ]; then
        echo "## Regression decks"
        echo
        echo "| deck | cpu | cpu time [s] | gpu, validate | plot |"
        echo "|---|---|---|---|---|"
        for d in regression/*/deck.toml; do
            n=$(basename "$(dirname "$d")")
            plot="-"
            [ -f "$report/plots/$n.png" ] && plot="[$n.png](plots/$n.png)"
            echo "| $n | $(verdict "$n" "$report/cpu/results.txt") | $(seconds "$n" "$report/cpu/results.txt") | $(verdict "$n" "$report/gpu/results.txt") | $plot |"
        done
        echo
        for f in "$report"/cpu/*.compare.txt "$report"/gpu/*.compare.txt; do
            [ -f "$f" ] || continue
            grep -q "verdict: PASS" "$f" && continue
            echo "### $(basename "$(dirname "$f")")/$(basename "$f" .compare.txt): differences from the reference"
            echo
            echo '```'
            cat "$f"
            echo '```'
            echo
        done
        echo "## Beam sizes against the references"
        echo
        for p in "$report"/plots/*.png; do
            [ -f "$p" ] || continue
            echo "![$(basename "$p" .png)](plots/$(basename "$p"))"
            echo
        done
    fi
} >"$report/summary.md"
echo "nightly: report $report/summary.md"
exit $status
