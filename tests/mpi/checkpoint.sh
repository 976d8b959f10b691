#!/usr/bin/env bash
# Checkpoints over several MPI ranks: for each rank count N, a run stopped by SIGUSR1 (raised in every
# rank at the same turn by the test hook, as `srun` forwards Slurm's --signal) and one crashed after periodic checkpoints are
# resumed with `mpirun -np N` and end bit for bit as the run without MPI; a checkpoint is refused by
# another rank count; a SIGUSR1 sent to one rank alone (a real signal reaches each rank at another
# moment) stops every rank at one safe point.
#
# Usage: tests/mpi/checkpoint.sh GTRACK MPIEXEC OUTDIR "2 3" DECK STOP [gtrack run options...]
#   STOP: the turn (rings) or entry (single passes) at which the test hook raises the stop signal
# Exit status: 0 when every case behaves; 1 otherwise.
set -uo pipefail
gtrack=$1 mpiexec=$2 out=$3 counts=$4 deck=$5 stop=$6
shift 6
mkdir -p "$out"
name=$(basename "$(dirname "$deck")")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1
launch=("$mpiexec" --oversubscribe --bind-to none)
status=0
fail() {
    echo "checkpoint.sh: $*" >&2
    status=1
}
same() {  # same REFERENCE OUTPUT CASE: bit for bit but for the measurements the files mark
    if ! "$gtrack" compare "$1" "$2" > "$2.compare.txt"; then
        fail "$3: differs from the run without MPI:
$(cat "$2.compare.txt")"
    fi
}
run_n() {  # run_n N OUTPUT [options...]: the deck under mpirun -np N, bounded by a timeout
    local n=$1 output=$2
    shift 2
    timeout 300 "${launch[@]}" -np "$n" "$gtrack" run "$deck" --backend cpu --threads 1 -q -o "$output" "$@"
}

reference=$out/$name-serial.h5
rm -f "$reference"
"$gtrack" run "$deck" --backend cpu --threads 1 -q -o "$reference" "$@" || { echo "the run without MPI failed" >&2; exit 1; }

for n in $counts; do
    # Stopped by SIGUSR1 at turn STOP on every rank: exit 75, one message, a checkpoint, no output.
    o=$out/$name-stop-np$n.h5
    rm -f "$o" "$o.ckpt"
    GTRACK_TEST_STOP_AT=$stop run_n "$n" "$o" "$@" > "$o.stdout" 2> "$o.stderr"
    rc=$?
    [ $rc -eq 75 ] || fail "np $n stop: exit status $rc, expected 75: $(cat "$o.stderr")"
    [ "$(grep -c 'stopped by SIGUSR1' "$o.stderr")" -eq 1 ] || fail "np $n stop: the message is not there once"
    [ -e "$o" ] && fail "np $n stop: $o was written"
    [ -e "$o.ckpt" ] || fail "np $n stop: no checkpoint"
    # Another rank count is refused, said once, and leaves the checkpoint as it was.
    other=$((n == 2 ? 3 : 2))
    run_n "$other" "$o" "$@" --resume "$o.ckpt" > "$o.other.stdout" 2> "$o.other.stderr"
    rc=$?
    [ $rc -ne 0 ] || fail "np $n: resumed with $other ranks"
    [ "$(grep -c "written by $n MPI rank(s), this run has $other" "$o.other.stderr")" -eq 1 ] ||
        fail "np $n: resuming with $other ranks is not refused once: $(cat "$o.other.stderr")"
    # Resumed with N ranks: the bits of the run without MPI.
    if run_n "$n" "$o" "$@" --resume "$o.ckpt" > "$o.resume.stdout" 2> "$o.resume.stderr"; then
        same "$reference" "$o" "np $n stopped at $stop and resumed"
        [ -e "$o.ckpt" ] && fail "np $n: the checkpoint outlived the complete output"
    else
        fail "np $n resume failed: $(cat "$o.resume.stderr")"
    fi

    # Periodic checkpoints every turn, then a crash (SIGKILL in every rank): resumed from the last one.
    o=$out/$name-crash-np$n.h5
    rm -f "$o" "$o.ckpt"
    GTRACK_TEST_KILL_AT=$stop run_n "$n" "$o" "$@" --set output.checkpoint_every=1 > "$o.stdout" 2> "$o.stderr"
    rc=$?
    [ $rc -ne 0 ] || fail "np $n crash: exit status 0"
    [ -e "$o.ckpt" ] || fail "np $n crash: no periodic checkpoint"
    if run_n "$n" "$o" "$@" --set output.checkpoint_every=1 --resume auto > "$o.resume.stdout" 2> "$o.resume.stderr"; then
        same "$reference" "$o" "np $n crashed at $stop and resumed"
    else
        fail "np $n resume after the crash failed: $(cat "$o.resume.stderr")"
    fi
    echo "np $n: stopped, refused for $other ranks, resumed, crashed, resumed: $([ $status -eq 0 ] && echo ok || echo FAILED)"
done

# SIGUSR1 to rank 1 alone, while rank 0 runs on (a ring long enough to be running after a second):
# both stop at one safe point, with status 75, one message and a checkpoint of both shares.
o=$out/$name-usr1.h5
rm -f "$o" "$o.ckpt"
timeout 300 "${launch[@]}" -np 2 sh -c '
    out=$1; shift
    "$0" run "$@" --backend cpu --threads 1 -q -o "$out" --set lattice.turns=100000 &
    pid=$!
    if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then sleep 1; kill -USR1 $pid; fi
    wait $pid' "$gtrack" "$o" "$deck" "$@" > "$o.stdout" 2> "$o.stderr"
rc=$?
[ $rc -eq 75 ] || fail "usr1: exit status $rc, expected 75: $(cat "$o.stderr")"
[ "$(grep -c 'stopped by' "$o.stderr")" -eq 1 ] || fail "usr1: the message is not there once: $(cat "$o.stderr")"
[ -e "$o.ckpt" ] || fail "usr1: no checkpoint"
[ -e "$o" ] && fail "usr1: $o was written"
echo "usr1: exit $rc, one message, a checkpoint"
exit $status
