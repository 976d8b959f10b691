# shellcheck shell=bash disable=SC2154,SC2034  # sourced by scripts/gpu-check.sh: build, out, note, status
# Whole-run time on 1 and 2 GPUs and where the start-up goes (issue 25: mpirun -np 2 >= 1.8x one GPU):
# the FODO channel of 2x10^8 particles, statistics at the end, no snapshot (as 50-mpi.sh), under
# mpirun with 1 and 2 ranks, alternated twice, each with the GPU context created beside MPI's start-up
# (the default, app/StartUp.hh) and once each with GTRACK_TEST_NO_WARM_UP=1 (the context where the run
# first needs it, as before). Reported per run: the command's wall time and rank 0's host phases
# (--trace counts from main(): MPI start-up, read deck, wait for the GPU context, setup, tracking,
# output) with the background context creation; then 2 ranks / 1 rank. Passing: every run succeeds;
# the ratio is a measurement (target >= 1.8). Skips with fewer than 2 GPUs. About 1-2 minutes.
su_gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
if [ "$su_gpus" -lt 2 ] || ! command -v mpirun >/dev/null || ! ./"$build"/gtrack --version | grep -q "MPI ON"; then
    note "mpi start-up 2 GPUs" "skipped ($su_gpus GPU(s))"
else
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    declare -A su_sum=() su_runs=()
    su_ok=1
    for su_case in "1 default" "2 default" "1 default" "2 default" "1 no-warm-up" "2 no-warm-up"; do
        read -r np mode <<<"$su_case"
        su_env=()
        [ "$mode" = no-warm-up ] && su_env=(-x GTRACK_TEST_NO_WARM_UP=1)
        tag="$np-$mode"
        t0=$(date +%s.%N)
        if timeout 200 mpirun -np "$np" --bind-to none "${su_env[@]}" ./"$build"/gtrack run inputs/fodo.toml \
                --backend gpu --set beam.macroparticles=200000000 --set output.stats=end \
                --set 'output.phase_space=[]' --trace "$out/su-$tag.json" -o "$out/su-$tag.h5" >"$out/su-$tag.txt" 2>&1; then
            wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
            trace="$out/su-$tag.json"
            [ "$np" -gt 1 ] && trace="$out/su-$tag.rank0.json"
            ctx=$(grep -o '"name": *"GPU context (background)"[^}]*"dur": *[0-9.]*' "$trace" |
                awk -F'"dur": *' '{ printf "%.3f", $2 / 1e6 }')
            note "mpi start-up: $np rank(s), $mode" "command $wall s; $(grep -E '^host phases' "$out/su-$tag.txt" | head -1 | sed 's/^host phases: //'); GPU context (background) ${ctx:-none} s"
            if [ "$mode" = default ]; then
                su_sum[$np]=$(awk -v s="${su_sum[$np]:-0}" -v w="$wall" 'BEGIN { print s + w }')
                su_runs[$np]=$(( ${su_runs[$np]:-0} + 1 ))
            fi
        else
            note "mpi start-up: $np rank(s), $mode" "FAILED ($(tail -n 2 "$out/su-$tag.txt" | tr '\n' ' '))"
            su_ok=0
        fi
        rm -f "$out/su-$tag.h5"
    done
    [ -n "${su_sum[1]:-}" ] && [ -n "${su_sum[2]:-}" ] &&
        note "mpi start-up: 2 GPUs / 1 (default, mean of 2)" "$(awk -v a="${su_sum[1]}" -v na="${su_runs[1]}" -v b="${su_sum[2]}" -v nb="${su_runs[2]}" 'BEGIN { printf "%.2fx whole-run throughput (%.2f s -> %.2f s; target >= 1.8)", (a / na) / (b / nb), a / na, b / nb }')"
    rm -f "$out"/su-*.json
    [ $su_ok -eq 1 ] || status=1
fi
