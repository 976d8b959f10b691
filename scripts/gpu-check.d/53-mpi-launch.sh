# shellcheck shell=bash disable=SC2154,SC2034  # sourced by scripts/gpu-check.sh: build, out, note, status
# What the launcher and MPI's start-up cost a short 2-GPU run, and what is left when they are cut
# (issue 25: mpirun -np 2 >= 1.8x one GPU for the FODO channel of 2x10^8, statistics at the end):
#  1. `mpirun -np 1|2 /bin/true`, three times each: the launcher alone, no MPI_Init;
#  2. the same with hwloc's I/O plugins off (HWLOC_COMPONENTS: hwloc's cuda and nvml plugins start the
#     CUDA driver and NVML while the launcher reads the node's topology);
#  3. the FODO run with 1 and 2 ranks under the default settings and under "tuned" ones (the hwloc
#     setting above, and OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader: one node's shared memory, without
#     UCX's probing of network and GPU transports at MPI_Init), and one GPU without mpirun;
#  4. the same channel with 3x the beam (6x10^8), to show what the program itself scales by.
# Reported: command wall times, rank 0's "MPI start-up" phase, and the ratios. Passing: every run
# succeeds; the ratios are measurements. About 2 minutes. Skips with fewer than 2 GPUs.
ml_gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
if [ "$ml_gpus" -lt 2 ] || ! command -v mpirun >/dev/null || ! ./"$build"/gtrack --version | grep -q "MPI ON"; then
    note "mpi launch 2 GPUs" "skipped ($ml_gpus GPU(s))"
else
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    ml_dir="$out/mpi-launch"
    mkdir -p "$ml_dir"
    ml_ok=1
    # shellcheck disable=SC2054  # commas inside the values
    ml_tuned=(HWLOC_COMPONENTS=-cuda,-nvml,-opencl,-gl,-rsmi,-levelzero OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader)
    note "mpi launch: hwloc plugins" "$(find /usr/lib/x86_64-linux-gnu/hwloc/ -name "*.so" -printf "%f\n" 2>/dev/null | tr '\n' ' ')"
    ml_time() {  # wall seconds of "$@"
        local t0
        t0=$(date +%s.%N)
        "$@" >/dev/null 2>&1 || return 1
        awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }'
    }
    for np in 1 2; do
        ml_default="" ml_hw=""
        for _ in 1 2 3; do
            ml_default+="$(ml_time mpirun -np $np --bind-to none /bin/true) "
            ml_hw+="$(export HWLOC_COMPONENTS=-cuda,-nvml,-opencl,-gl,-rsmi,-levelzero
                ml_time mpirun -np $np --bind-to none /bin/true || echo x) "
        done
        note "mpi launch: mpirun -np $np /bin/true" "default ${ml_default}s; hwloc I/O plugins off ${ml_hw}s"
    done
    # shellcheck source=scripts/gpu-check.d/trace-sums.bash
    source scripts/gpu-check.d/trace-sums.bash
    ml_start() {  # a rank's start-up and tracking from its trace
        local s
        read -r -a s <<<"$(trace_sums "$1" "MPI start-up" "wait for the GPU context" tracking track moments gather "gtrack run")"
        printf 'MPI start-up %.3f, GPU context wait %.3f, tracking %.3f (kernels: track %.3f, moments %.3f, gather %.3f), in main %.3f\n' "${s[@]}"
    }
    declare -A ml_wall=()
    ml_run() {  # tag np(0: no mpirun) particles env...: one FODO run
        local tag=$1 np=$2 particles=$3
        shift 3
        local args=(./"$build"/gtrack run inputs/fodo.toml --backend gpu --set beam.macroparticles="$particles"
            --set output.stats=end --set 'output.phase_space=[]' --trace "$ml_dir/$tag.json" -o "$ml_dir/$tag.h5")
        local t0 trace="$ml_dir/$tag.json"
        t0=$(date +%s.%N)
        local rc=0
        if [ "$np" = 0 ]; then
            env "$@" timeout 200 "${args[@]}" >"$ml_dir/$tag.txt" 2>&1 || rc=$?
        else
            env "$@" timeout 200 mpirun -np "$np" --bind-to none "${args[@]}" >"$ml_dir/$tag.txt" 2>&1 || rc=$?
        fi
        [ "$np" -gt 1 ] && trace="$ml_dir/$tag.rank0.json"
        if [ $rc = 0 ]; then
            ml_wall[$tag]=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
            local r1=""
            [ "$np" -gt 1 ] && r1="; rank 1: $(ml_start "$ml_dir/$tag.rank1.json")"
            note "mpi launch: $tag" "command ${ml_wall[$tag]} s; rank 0: $(ml_start "$trace")$r1"
        else
            note "mpi launch: $tag" "FAILED ($(tail -n 2 "$ml_dir/$tag.txt" | tr '\n' ' '))"
            ml_ok=0
        fi
        rm -f "$ml_dir/$tag".*h5 "$ml_dir/$tag.h5" "$ml_dir/$tag".*json "$ml_dir/$tag.json"
    }
    ml_ratio() {  # name a b
        [ -n "${ml_wall[$2]:-}" ] && [ -n "${ml_wall[$3]:-}" ] &&
            note "mpi launch: $1" "$(awk -v a="${ml_wall[$2]}" -v b="${ml_wall[$3]}" 'BEGIN { printf "%.2fx (%.2f s -> %.2f s)", a / b, a, b }')"
    }
    for rep in 1 2; do
        ml_run "2e8-plain-$rep" 0 200000000
        ml_run "2e8-np1-$rep" 1 200000000
        ml_run "2e8-np2-$rep" 2 200000000
        ml_run "2e8-np1-tuned-$rep" 1 200000000 "${ml_tuned[@]}"
        ml_run "2e8-np2-tuned-$rep" 2 200000000 "${ml_tuned[@]}"
    done
    ml_run "6e8-plain" 0 600000000
    ml_run "6e8-np1" 1 600000000
    ml_run "6e8-np2" 2 600000000
    ml_run "6e8-np1-tuned" 1 600000000 "${ml_tuned[@]}"
    ml_run "6e8-np2-tuned" 2 600000000 "${ml_tuned[@]}"
    for rep in 1 2; do
        ml_ratio "2e8 2 ranks / 1 rank, default ($rep)" "2e8-np1-$rep" "2e8-np2-$rep"
        ml_ratio "2e8 2 ranks / 1 rank, tuned ($rep)" "2e8-np1-tuned-$rep" "2e8-np2-tuned-$rep"
        ml_ratio "2e8 2 ranks tuned / 1 GPU without mpirun ($rep)" "2e8-plain-$rep" "2e8-np2-tuned-$rep"
    done
    ml_ratio "6e8 2 ranks / 1 rank, default" 6e8-np1 6e8-np2
    ml_ratio "6e8 2 ranks / 1 rank, tuned" 6e8-np1-tuned 6e8-np2-tuned
    ml_ratio "6e8 2 ranks tuned / 1 GPU without mpirun" 6e8-plain 6e8-np2-tuned
    [ $ml_ok -eq 1 ] || status=1
fi
