#!/bin/bash
# Runs one gtrack simulation over MPI ranks on a Slurm cluster: one rank per GPU, on as many nodes as
# the job has (docs/cluster.md). The output is the same, bit for bit, for any number of ranks.
#
#   sbatch --nodes=2 scripts/slurm-mpi.sh inputs/fodo.toml -o fodo.h5 [more gtrack run options]
#
# Each rank takes the GPU of its node-local rank (gtrack does that itself): set --ntasks-per-node and
# --gpus-per-node below to the GPUs of one node. For CPU-only nodes, set GTRACK_BACKEND=cpu and
# CPUS_PER_RANK (OpenMP threads per rank; one rank per socket is a good start).
# Environment: GTRACK (default: gtrack on PATH), GTRACK_BACKEND, CPUS_PER_RANK, SRUN_ARGS (more options),
# GTRACK_MAX_REQUEUES (default 5).
#
# Time limits (docs/checkpoint.md): two minutes before the limit Slurm sends SIGUSR1 to this script,
# which passes it to srun and so to every rank; the ranks stop together at a safe point, write one
# checkpoint and exit with status 75; the script then requeues the job, which goes on from the
# checkpoint (--resume auto) with the same number of ranks.
#
#SBATCH --job-name=gtrack-mpi
#SBATCH --output=gtrack-mpi-%j.log
#SBATCH --time=02:00:00
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=4
#SBATCH --gpus-per-node=4
#SBATCH --cpus-per-task=8
#SBATCH --signal=B:USR1@120
#SBATCH --requeue
set -euo pipefail
GTRACK=${GTRACK:-gtrack}
if [ $# -lt 1 ]; then
    echo "usage: sbatch [--nodes=N] scripts/slurm-mpi.sh DECK [gtrack run options]" >&2
    exit 2
fi
export OMP_NUM_THREADS=${CPUS_PER_RANK:-${SLURM_CPUS_PER_TASK:-1}}
backend=()
[ -n "${GTRACK_BACKEND:-}" ] && backend=(--backend "$GTRACK_BACKEND")
# --cpu-bind=cores keeps each rank's OpenMP threads on its own cores; every rank sees all of the
# node's GPUs and picks its own (sharing one GPU per task with --gpus-per-task=1 works as well).
# shellcheck disable=SC2086
srun --cpu-bind=cores ${SRUN_ARGS:-} "$GTRACK" run "$@" "${backend[@]}" --resume auto &
child=$!
trap 'kill -USR1 "$child" 2>/dev/null || true' USR1
status=0
# wait returns early (status > 128) when a trapped signal arrives: wait again until srun has ended.
while :; do
    wait "$child" && status=0 || status=$?
    kill -0 "$child" 2>/dev/null || break
done
restarts=${SLURM_RESTART_COUNT:-0}
if [ "$status" -eq 75 ]; then
    if [ "$restarts" -lt "${GTRACK_MAX_REQUEUES:-5}" ]; then
        echo "gtrack: stopped with a checkpoint; requeueing (restart $((restarts + 1)))"
        scontrol requeue "$SLURM_JOB_ID"
    else
        echo "gtrack: stopped with a checkpoint, requeued $restarts times already: resubmit to go on" >&2
    fi
fi
exit "$status"
