#!/usr/bin/env bash
# Detector checkpoints over N MPI ranks: a run stopped by SIGUSR1 (raised in every rank at the same
# step iteration by the test hook, as `srun` forwards Slurm's --signal) and one crashed after periodic
# checkpoints are resumed with `mpirun -np N` and end bit for bit as the uninterrupted run with N
# ranks, in every number of the file (the step iterations, interactions held back and the secondary
# stack's peak included); the checkpoint is refused by another rank count; a SIGUSR1 sent to one rank
# alone stops every rank at one safe point.
#
# Usage: tests/mpi/detector_checkpoint.sh GTRACK MPIEXEC OUTDIR N DECK STOP [gtrack run options...]
#   STOP: the step iteration at which the test hook raises the stop signal (or SIGKILL)
# Exit status: 0 when every case behaves; 1 otherwise.
set -uo pipefail
gtrack=$1 mpiexec=$2 out=$3 n=$4 deck=$5 stop=$6
shift 6
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1
launch=("$mpiexec" --oversubscribe --bind-to none)
status=0
fail() {
    echo "detector_checkpoint.sh: $*" >&2
    status=1
}
o=$out/det.h5  # every run writes this file, so that their command lines (provenance) are the same
run_n() {      # run_n [options...]: the deck under mpirun -np N, bounded by a timeout
    timeout 300 "${launch[@]}" -np "$n" "$gtrack" run "$deck" --backend cpu --threads 1 -q -o "$o" --resume auto "$@"
}
same() {  # same REFERENCE CASE: every number bit for bit (gtrack compare, zero tolerance)
    if ! "$gtrack" compare "$1" "$o" > "$o.compare.txt"; then
        fail "$2: differs from the uninterrupted run:
$(cat "$o.compare.txt")"
    fi
}
rm -f "$o" "$o.ckpt"
reference=$out/reference-np$n.h5
run_n "$@" > "$out/reference.stdout" 2>&1 || { echo "the uninterrupted run failed: $(cat "$out/reference.stdout")" >&2; exit 1; }
mv "$o" "$reference"

# Stopped by SIGUSR1 at iteration STOP on every rank: exit 75, one message, a checkpoint, no output.
GTRACK_TEST_STOP_AT=$stop run_n "$@" > "$out/stop.stdout" 2> "$out/stop.stderr"
rc=$?
[ $rc -eq 75 ] || fail "stop: exit status $rc, expected 75: $(cat "$out/stop.stderr")"
[ "$(grep -c "stopped by SIGUSR1 after $stop step iterations" "$out/stop.stderr")" -eq 1 ] ||
    fail "stop: the message is not there once: $(cat "$out/stop.stderr")"
[ -e "$o" ] && fail "stop: $o was written"
[ -e "$o.ckpt" ] || fail "stop: no checkpoint"
# One process is refused, said once, and leaves the checkpoint as it was.
timeout 300 "$gtrack" run "$deck" --backend cpu --threads 1 -q -o "$o" --resume "$o.ckpt" "$@" \
    > "$out/other.stdout" 2> "$out/other.stderr"
rc=$?
[ $rc -ne 0 ] || fail "resumed without mpirun"
[ "$(grep -c "written by $n MPI rank(s), this run has 1" "$out/other.stderr")" -eq 1 ] ||
    fail "resuming without mpirun is not refused once: $(cat "$out/other.stderr")"
[ -e "$o" ] && fail "the refused run wrote $o"
# Resumed with N ranks: every number of the uninterrupted run.
if run_n "$@" > "$out/resume.stdout" 2> "$out/resume.stderr"; then
    same "$reference" "stopped at $stop and resumed"
    [ -e "$o.ckpt" ] && fail "the checkpoint outlived the complete output"
else
    fail "resume failed: $(cat "$out/resume.stderr")"
fi
rm -f "$o"

# Periodic checkpoints every event, then a crash (SIGKILL in every rank): resumed from the last one.
GTRACK_TEST_KILL_AT=$stop run_n --set output.checkpoint_every=1 "$@" > "$out/crash.stdout" 2> "$out/crash.stderr"
rc=$?
[ $rc -ne 0 ] || fail "crash: exit status 0"
[ -e "$o.ckpt" ] || fail "crash: no periodic checkpoint"
if run_n --set output.checkpoint_every=1 "$@" > "$out/crash-resume.stdout" 2> "$out/crash-resume.stderr"; then
    same "$reference" "crashed at $stop and resumed"
else
    fail "resume after the crash failed: $(cat "$out/crash-resume.stderr")"
fi
echo "np $n: stopped, refused without mpirun, resumed, crashed, resumed: $([ $status -eq 0 ] && echo ok || echo FAILED)"

# SIGUSR1 to rank 1 alone, while rank 0 runs on (enough events to be running after a second): every
# rank stops at one safe point, with status 75, one message and a checkpoint of every rank's state.
rm -f "$o" "$o.ckpt"
timeout 300 "${launch[@]}" -np "$n" sh -c '
    out=$1; shift
    "$0" run "$@" --backend cpu --threads 1 -q -o "$out" --set gun.events=200000 &
    pid=$!
    if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then sleep 1; kill -USR1 $pid; fi
    wait $pid' "$gtrack" "$o" "$deck" "$@" > "$out/usr1.stdout" 2> "$out/usr1.stderr"
rc=$?
[ $rc -eq 75 ] || fail "usr1: exit status $rc, expected 75: $(cat "$out/usr1.stderr")"
[ "$(grep -c 'stopped by' "$out/usr1.stderr")" -eq 1 ] || fail "usr1: the message is not there once: $(cat "$out/usr1.stderr")"
[ -e "$o.ckpt" ] || fail "usr1: no checkpoint"
[ -e "$o" ] && fail "usr1: $o was written"
echo "usr1: exit $rc, one message, a checkpoint"
exit $status
