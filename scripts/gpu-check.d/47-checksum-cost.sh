# shellcheck shell=bash disable=SC2154,SC2034  # sourced by scripts/gpu-check.sh: build, out, note, status
# What checksums cost a 10^8-particle checkpoint on the GPU machine (issue 32; docs/checkpoint.md,
# "Checksums"): inputs/fodo.toml as a ring of 2 turns with 10^8 macroparticles on the GPU, stopped by the
# test hook after turn 1 (GTRACK_TEST_STOP_AT=1: a 7.2 GB checkpoint of nine columns, exit 75), then
# resumed from it (the checkpoint read back, a turn, a small output). Each twice, once with checksums
# (the default: Fletcher-32 on every dataset) and once with GTRACK_TEST_NO_CHECKSUMS=1, in the order
# with, without, with, without. Reported: the wall seconds of the stop run (set-up, a turn, the
# checkpoint written) and of the resume, each mode's mean, and the difference. Passing: every run
# exits as it should (75, then 0) and the two modes' outputs agree (gtrack compare). The difference is
# a measurement, not a pass/fail bound. About 1-2 minutes, 7.2 GB of disk at a time.
cost_dir=$(mktemp -d)
cost_n=${CHECKSUM_COST_PARTICLES:-100000000}
cost_backend=${CHECKSUM_COST_BACKEND:-gpu}
cost_set=(--set lattice.turns=2 --set "beam.macroparticles=$cost_n" --set 'output.phase_space=[]'
    --set 'output.stats="end"' --backend "$cost_backend" -q)
cost_ok=1
declare -A cost_stop cost_resume
for cost_round in 1 2; do
    for cost_mode in with without; do
        cost_env=()
        [ "$cost_mode" = without ] && cost_env=(GTRACK_TEST_NO_CHECKSUMS=1)
        rm -f "$cost_dir"/*
        t0=$(date +%s.%N)
        env "${cost_env[@]}" GTRACK_TEST_STOP_AT=1 ./"$build"/gtrack run inputs/fodo.toml "${cost_set[@]}" \
            -o "$cost_dir/$cost_mode.h5" >>"$out/checksum-cost.log" 2>&1
        rc=$?
        t1=$(date +%s.%N)
        [ $rc -eq 75 ] || cost_ok=0
        ls -l "$cost_dir" >>"$out/checksum-cost.log"
        env "${cost_env[@]}" ./"$build"/gtrack run inputs/fodo.toml "${cost_set[@]}" -o "$cost_dir/$cost_mode.h5" \
            --resume "$cost_dir/$cost_mode.h5.ckpt" >>"$out/checksum-cost.log" 2>&1 || cost_ok=0
        t2=$(date +%s.%N)
        cost_stop[$cost_mode]="${cost_stop[$cost_mode]:-} $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
        cost_resume[$cost_mode]="${cost_resume[$cost_mode]:-} $(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.2f", b - a }')"
        [ "$cost_mode" = with ] && mv "$cost_dir/with.h5" "$out/checksum-cost-with.h5"
        [ "$cost_mode" = without ] && { ./"$build"/gtrack compare "$out/checksum-cost-with.h5" \
            "$cost_dir/without.h5" >>"$out/checksum-cost.log" 2>&1 || cost_ok=0; }
    done
done
rm -rf "$cost_dir" "$out/checksum-cost-with.h5"
cost_mean() { echo "$1" | awk '{ s = 0; for (i = 1; i <= NF; i++) s += $i; printf "%.2f", s / NF }'; }
for cost_mode in with without; do
    echo "checksum cost ($cost_n particles, $cost_backend): $cost_mode checksums: stop run [s]${cost_stop[$cost_mode]}; resume [s]${cost_resume[$cost_mode]}" |
        tee -a "$out/checksum-cost.log"
done
cost_line="stop+checkpoint $(cost_mean "${cost_stop[with]}") s with, $(cost_mean "${cost_stop[without]}") s without; resume $(cost_mean "${cost_resume[with]}") s with, $(cost_mean "${cost_resume[without]}") s without"
if [ $cost_ok -eq 1 ]; then
    note "checkpoint checksum cost ($cost_n particles)" "$cost_line"
else
    note "checkpoint checksum cost ($cost_n particles)" "FAILED (see checksum-cost.log); $cost_line"
    status=1
fi
