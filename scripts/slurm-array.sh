#!/bin/bash
# Runs a gtrack scan deck as a Slurm job array: one task per scan point, each `gtrack run DECK
# --scan-index env`, which reads the point from SLURM_ARRAY_TASK_ID.
#
# Submit (counts the points and calls sbatch --array=0-(N-1) with this script):
#   scripts/slurm-array.sh --submit inputs/fodo_scan.toml [gtrack run options, e.g. --set KEY=VALUE]
# or by hand:
#   N=$(gtrack scan inputs/fodo_scan.toml --count)
#   sbatch --array=0-$((N - 1)) scripts/slurm-array.sh inputs/fodo_scan.toml
# Options after the deck go to every `gtrack run` (and to `gtrack scan --count`, so give the same
# --set overrides to both). Add %M to --array to limit the tasks running at once (0-99%10).
# Then, when the tasks are done:
#   gtrack collect 'fodo_scan_*.h5' -o fodo_scan_summary.h5 --csv fodo_scan_summary.csv
#   scripts/plot_scan.py fodo_scan_summary.h5 --x elements.QFH.k1 --y sigma_x -o sigma_x.png
#
# Environment: GTRACK = the gtrack executable (default: gtrack on PATH); SBATCH_ARGS = more options
# for sbatch with --submit (e.g. "--partition=gpu --gres=gpu:1"). A task that fails exits non-zero,
# so `sacct` shows which points to resubmit (sbatch --array=3,7 ...); `gtrack scan DECK --local`
# would also run just the points whose output is missing or broken.
#
# Time limits (docs/checkpoint.md): two minutes before a task's limit Slurm sends SIGUSR1, which this
# script passes to gtrack; gtrack stops at its next safe point, writes <output>.ckpt and exits with
# status 75; the script then requeues the task (scontrol requeue), at most GTRACK_MAX_REQUEUES times
# (default 5), and the requeued task goes on from the checkpoint (every task runs with --resume auto).
#
#SBATCH --job-name=gtrack-scan
#SBATCH --output=gtrack-scan-%A_%a.log
#SBATCH --time=01:00:00
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=4
#SBATCH --signal=B:USR1@120
#SBATCH --requeue
#SBATCH --open-mode=append
set -euo pipefail

GTRACK=${GTRACK:-gtrack}
MAX_REQUEUES=${GTRACK_MAX_REQUEUES:-5}
k_stopped=75  # gtrack's exit status for "stopped at a safe point with a checkpoint: run again"

if [ "${1:-}" = "--submit" ]; then
    shift
    [ $# -ge 1 ] || { echo "usage: $0 --submit DECK [gtrack run options]" >&2; exit 2; }
    deck=$1
    shift
    # Only --set matters for the number of points; pass the rest through to the tasks.
    count_args=()
    args=("$@")
    for ((i = 0; i < ${#args[@]}; i++)); do
        if [ "${args[i]}" = "--set" ] && [ $((i + 1)) -lt ${#args[@]} ]; then
            count_args+=(--set "${args[i + 1]}")
        fi
    done
    n=$("$GTRACK" scan "$deck" --count "${count_args[@]}")
    [ "$n" -ge 1 ] || { echo "$0: $deck has no scan points" >&2; exit 2; }
    echo "submitting $n tasks: sbatch --array=0-$((n - 1)) ${SBATCH_ARGS:-} $0 $deck $*"
    # shellcheck disable=SC2086  # SBATCH_ARGS is a list of options
    exec sbatch --array=0-$((n - 1)) ${SBATCH_ARGS:-} "$0" "$deck" "$@"
fi

[ $# -ge 1 ] || { echo "usage: sbatch --array=0-(N-1) $0 DECK [gtrack run options]" >&2; exit 2; }
if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
    echo "$0: not a job-array task (SLURM_ARRAY_TASK_ID is not set); submit with --submit" >&2
    exit 2
fi
deck=$1
shift
task="${SLURM_ARRAY_JOB_ID:-?}_${SLURM_ARRAY_TASK_ID}"
restarts=${SLURM_RESTART_COUNT:-0}
echo "gtrack scan task $task on $(hostname) (restart $restarts): $deck"
# One task's threads: the CPUs Slurm gave it. gtrack runs as a child, not exec'd, so that this script
# sees its status; the signals Slurm sends to this batch shell (B:) are passed on to it.
"$GTRACK" run "$deck" --scan-index env --resume auto --threads "${SLURM_CPUS_PER_TASK:-1}" "$@" &
child=$!
trap 'kill -USR1 "$child" 2>/dev/null || true' USR1
trap 'kill -TERM "$child" 2>/dev/null || true' TERM
trap 'kill -INT "$child" 2>/dev/null || true' INT
status=0
# wait returns early (status > 128) when a trapped signal arrives: wait again until gtrack has ended.
while :; do
    wait "$child" && status=0 || status=$?
    kill -0 "$child" 2>/dev/null || break
done
if [ "$status" -eq "$k_stopped" ]; then
    if [ "$restarts" -lt "$MAX_REQUEUES" ]; then
        echo "gtrack scan task $task: stopped with a checkpoint; requeueing (restart $((restarts + 1)) of at most $MAX_REQUEUES)"
        scontrol requeue "${SLURM_JOB_ID:-$task}"
    else
        echo "gtrack scan task $task: stopped with a checkpoint, requeued $restarts times already" \
            "(GTRACK_MAX_REQUEUES=$MAX_REQUEUES): resubmit it to go on from the checkpoint" >&2
    fi
fi
exit "$status"
