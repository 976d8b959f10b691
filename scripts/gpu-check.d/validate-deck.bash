# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, note and status come from gpu-check.sh
# validate_deck: `gtrack validate` of one deck, noted as a part notes it. Sourced by gpu-check.d/35-exact-bends.sh,
# 36-radiation.sh, 37-bendmp.sh and 37-quantum.sh (not a part itself: parts end in .sh).

# validate_deck SECONDS LOG PASS_KEY FAIL_KEY DECK [ARGS...]: `gtrack validate DECK ARGS...` of $build, for at
# most SECONDS, its output into LOG. Passing (exit 0: the CPU and the GPU agree): note PASS_KEY "PASS".
# Otherwise (a difference, an error, the time limit): note FAIL_KEY "FAIL: " with the log's first verdict,
# error or FAIL line, and status=1.
validate_deck() {
    local limit=$1 log=$2 pass_key=$3 fail_key=$4
    shift 4
    if timeout "$limit" ./"$build"/gtrack validate "$@" >"$log" 2>&1; then
        note "$pass_key" "PASS"
    else
        note "$fail_key" "FAIL: $(grep -m1 -E 'verdict|error|FAIL' "$log")"
        status=1
    fi
}
