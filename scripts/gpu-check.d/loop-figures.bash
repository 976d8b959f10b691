# shellcheck shell=bash disable=SC2034  # the loop_* variables are the callers'
# loop_figures LOG: a detector run's stepping loop as its log prints it ("... N step iterations in S s",
# "  steps M ..."): sets loop_iterations, loop_seconds and loop_steps (empty where the log lacks them).
loop_figures() {
    loop_seconds=$(sed -n 's/.* step iterations in \([0-9.e+-]*\) s.*/\1/p' "$1")
    loop_iterations=$(sed -n 's/.* \([0-9]*\) step iterations in .*/\1/p' "$1")
    loop_steps=$(awk '$1 == "steps" { print $2; exit }' "$1")
}
