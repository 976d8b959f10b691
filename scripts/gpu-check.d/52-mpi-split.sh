# shellcheck shell=bash disable=SC2154,SC2034  # sourced by scripts/gpu-check.sh: build, out, note, status
# Where the time of a 2-GPU run goes, rank by rank (issue 25: mpirun -np 2 >= 1.8x one GPU), and
# [strips] over 2 GPUs. Measured, with every rank's --trace (host phases from main(); "generate" is the
# beam's generation kernel inside setup, "snapshot" the phase-space snapshot inside tracking):
#  1. the disk: dd of 2 GiB with direct I/O (the bound of a snapshot, one disk for both ranks);
#  2. FODO 2x10^8, statistics at the end, no snapshot: 1 and 2 ranks;
#  3. 3D space charge 10^8 on 128^3 (inputs/fodo_space_charge.toml, default keys: sorting every 4 kicks),
#     with its snapshot at MON (7.2 GB) and without (output.phase_space = []): 1 and 2 ranks; and 2 ranks
#     with output.checksums = false (rank 0 computes the Fletcher-32 of every rank's chunks);
#  4. inputs/sts.toml ([strips], 1000 events) on 2 GPUs against 1, bit for bit (run/StripRanks.hh).
# Reported: each run's command wall time, every rank's phases, and 2 ranks / 1 rank. Passing: every run
# succeeds and the strips output is identical; the ratios are measurements (target >= 1.8). About 2
# minutes. Skips with fewer than 2 GPUs.
ms_gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
if [ "$ms_gpus" -lt 2 ] || ! command -v mpirun >/dev/null || ! ./"$build"/gtrack --version | grep -q "MPI ON"; then
    note "mpi split 2 GPUs" "skipped ($ms_gpus GPU(s))"
else
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    ms_dir="$out/mpi-split"
    mkdir -p "$ms_dir"
    ms_ok=1
    # Phases of one rank's trace: MPI start-up, setup (generate), tracking (snapshot), output.
    # shellcheck source=scripts/gpu-check.d/trace-sums.bash
    source scripts/gpu-check.d/trace-sums.bash
    ms_phases() {
        local s
        read -r -a s <<<"$(trace_sums "$1" "MPI start-up" setup generate tracking "phase-space snapshot" output strips "gtrack run")"
        printf 'start-up %.3f, setup %.3f (generate %.3f), tracking %.3f (snapshot %.3f), output %.3f, strips %.3f; in main %.3f s\n' "${s[@]}"
    }
    ms_dd=$(dd if=/dev/zero of="$ms_dir/dd.bin" bs=64M count=32 oflag=direct conv=fsync 2>&1 | tail -1)
    rm -f "$ms_dir/dd.bin"
    note "mpi split: disk" "dd 2 GiB direct: ${ms_dd##*, }"
    declare -A ms_wall=()
    ms_run() {  # tag np args...: one run, its wall time and every rank's phases
        local tag=$1 np=$2
        shift 2
        local t0
        t0=$(date +%s.%N)
        if timeout 200 mpirun -np "$np" --bind-to none ./"$build"/gtrack run "$@" --backend gpu \
                --trace "$ms_dir/$tag.json" -o "$ms_dir/$tag.h5" >"$ms_dir/$tag.txt" 2>&1; then
            ms_wall[$tag]=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
            local r phases=""
            for ((r = 0; r < np; r++)); do
                local trace="$ms_dir/$tag.json"
                [ "$np" -gt 1 ] && trace="$ms_dir/$tag.rank$r.json"
                phases+="rank $r: $(ms_phases "$trace"); "
            done
            note "mpi split: $tag" "command ${ms_wall[$tag]} s; ${phases%; }"
        else
            note "mpi split: $tag" "FAILED ($(tail -n 2 "$ms_dir/$tag.txt" | tr '\n' ' '))"
            ms_ok=0
        fi
        rm -f "$ms_dir/$tag".*json
    }
    ms_ratio() {  # label tag1 tag2
        [ -n "${ms_wall[$2]:-}" ] && [ -n "${ms_wall[$3]:-}" ] &&
            note "mpi split: $1, 2 GPUs / 1" "$(awk -v a="${ms_wall[$2]}" -v b="${ms_wall[$3]}" 'BEGIN { printf "%.2fx (%.2f s -> %.2f s; target >= 1.8)", a / b, a, b }')"
    }
    for np in 1 2; do
        ms_run "fodo2e8-np$np" "$np" inputs/fodo.toml --set beam.macroparticles=200000000 \
            --set output.stats=end --set 'output.phase_space=[]'
        rm -f "$ms_dir/fodo2e8-np$np.h5"
    done
    ms_ratio "fodo 2e8" fodo2e8-np1 fodo2e8-np2
    ms_sc=(inputs/fodo_space_charge.toml --set beam.macroparticles=100000000 --set 'space_charge.grid=[128,128,128]')
    for np in 1 2; do
        ms_run "sc1e8-np$np" "$np" "${ms_sc[@]}"
        rm -f "$ms_dir/sc1e8-np$np.h5"
        ms_run "sc1e8-nosnap-np$np" "$np" "${ms_sc[@]}" --set 'output.phase_space=[]'
        rm -f "$ms_dir/sc1e8-nosnap-np$np.h5"
    done
    # rank 0 checksums every rank's chunks: the same 2-rank run without checksums says what that costs
    ms_run "sc1e8-nochecksums-np2" 2 "${ms_sc[@]}" --set output.checksums=false
    rm -f "$ms_dir/sc1e8-nochecksums-np2.h5"
    ms_ratio "space charge 1e8 with snapshot" sc1e8-np1 sc1e8-np2
    ms_ratio "space charge 1e8 without snapshot" sc1e8-nosnap-np1 sc1e8-nosnap-np2
    # [strips] over 2 GPUs: the stations split over the ranks, the tables of one GPU.
    ms_run "sts-np1" 1 inputs/sts.toml
    ms_run "sts-np2" 2 inputs/sts.toml
    if [ -f "$ms_dir/sts-np1.h5" ] && [ -f "$ms_dir/sts-np2.h5" ] &&
        ./"$build"/gtrack compare "$ms_dir/sts-np1.h5" "$ms_dir/sts-np2.h5" >"$ms_dir/sts-compare.txt" 2>&1; then
        note "mpi split: strips sts.toml 2 GPUs" "identical to 1 GPU ($(tail -2 "$ms_dir/sts-compare.txt" | head -1))"
    else
        note "mpi split: strips sts.toml 2 GPUs" "DIFFERENT or failed ($(tail -3 "$ms_dir/sts-compare.txt" 2>/dev/null | tr '\n' ' '))"
        ms_ok=0
    fi
    rm -f "$ms_dir"/sts-np*.h5
    [ $ms_ok -eq 1 ] || status=1
fi
