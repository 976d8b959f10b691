#!/usr/bin/env bash
# A beamline deck with a detector (issue 27) under MPI: for each rank count N, `mpirun -np N` writes the
# file of the run without MPI, bit for bit (gtrack compare with no options: the figures of the detector's
# schedule, iterations, secondary_stack_peak and held_back, are marked as measurements in the files),
# rank 0 alone prints the summary, and the energy balance it prints closes (beam energy lost and
# extracted = deposited + below cuts + escaped + step limit) to the tally's rounding: half a unit
# (1e-9 MeV) per addition, at most 4 per step, one per secondary and per primary
# (tests/BeamDetectorRunTest.cc). Then, for each STOP of STOPS (the test hook's progress: an entry of
# the beam part, or a step iteration of the detector part past the entries), a run over 2 ranks stopped
# there: exit status 75, one message, one checkpoint and no output; resumed by 2 ranks to the bits of the
# run without MPI; given to 3 ranks (--resume auto), said once and started over, to the same bits.
#
# Usage: tests/mpi/beam_detector.sh GTRACK MPIEXEC OUTDIR "1 2 3" "STOPS" DECK [gtrack run options...]
# Exit status: 0 when every case behaves; 1 otherwise.
set -uo pipefail
gtrack=$1 mpiexec=$2 out=$3 counts=$4 stops=$5 deck=$6
shift 6
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1
launch=("$mpiexec" --oversubscribe --bind-to none)
status=0
fail() {
    echo "beam_detector.sh: $*" >&2
    status=1
}
same() { # same OUTPUT CASE: every number of the run without MPI (the schedule's figures are measurements)
    if ! "$gtrack" compare "$reference" "$1" >"$1.compare.txt"; then
        fail "$2: differs from the run without MPI:
$(cat "$1.compare.txt")"
        return
    fi
    echo "$2: $(tail -2 "$1.compare.txt" | head -1)"
}
balance() { # balance STDOUT CASE: one summary, its energy balance within the rounding bound
    local lines
    lines=$(grep -c "energy: beam" "$1")
    [ "$lines" -eq 1 ] || { fail "$2: $lines energy balances printed, expected 1 (rank 0's)"; return; }
    awk -v name="$2" '
        $1 == "steps" { steps = $2 }
        $1 == "secondaries" { secondaries = $2 }
        /^beam into detector:/ { primaries = $4 + $9 }
        /energy: beam/ { diff = $0; sub(/.*\(difference /, "", diff); sub(/ MeV.*/, "", diff)
                         worst = $0; sub(/.*worst event /, "", worst); sub(/ MeV.*/, "", worst) }
        END {
            bound = 0.5e-9 * 4 * (steps + secondaries + primaries)
            if (diff == "" || steps == "") { print name ": no energy balance line"; exit 1 }
            diff += 0; worst += 0
            d = diff < 0 ? -diff : diff
            printf "%s: %d primaries, energy difference %s MeV, worst event %s MeV (bound %.3g MeV)\n", name, primaries, diff, worst, bound
            exit !(d <= bound && worst <= bound && primaries > 0)
        }' "$1" || fail "$2: the energy balance does not close"
}

reference=$out/reference.h5
rm -f "$reference"
"$gtrack" run "$deck" --backend cpu --threads 1 -o "$reference" "$@" >"$out/reference.stdout" 2>&1 ||
    { echo "beam_detector.sh: the run without MPI failed: $(cat "$out/reference.stdout")" >&2; exit 1; }
balance "$out/reference.stdout" "no mpirun"
for n in $counts; do
    o=$out/np$n.h5
    rm -f "$o"
    if timeout 300 "${launch[@]}" -np "$n" "$gtrack" run "$deck" --backend cpu --threads 1 -o "$o" "$@" \
        >"$o.stdout" 2>&1; then
        same "$o" "np $n"
        balance "$o.stdout" "np $n"
    else
        fail "mpirun -np $n failed: $(tail -5 "$o.stdout")"
    fi
done

o=$out/stopped.h5  # every run writes this file, so that their command lines (provenance) are the same
run_n() { timeout 300 "${launch[@]}" -np "$1" "$gtrack" run "$deck" --backend cpu --threads 1 -o "$o" --resume auto "${@:2}"; }
for at in $stops; do
    rm -f "$o" "$o".ckpt "$o".detector.ckpt
    GTRACK_TEST_STOP_AT=$at run_n 2 "$@" >"$out/stop.stdout" 2>"$out/stop.stderr"
    rc=$?
    [ $rc -eq 75 ] || fail "stop at $at: exit status $rc, expected 75: $(cat "$out/stop.stderr")"
    [ "$(grep -c "stopped by SIGUSR1" "$out/stop.stderr")" -eq 1 ] ||
        fail "stop at $at: the message is not there once: $(cat "$out/stop.stderr")"
    [ -e "$o" ] && fail "stop at $at: $o was written"
    ckpt=$(ls "$o".ckpt "$o".detector.ckpt 2>/dev/null | tail -1)
    [ -n "$ckpt" ] || { fail "stop at $at: no checkpoint"; continue; }
    part=$([ "$ckpt" = "$o.ckpt" ] && echo "beam part" || echo "detector part")
    cp "$ckpt" "$out/saved.ckpt"
    if run_n 2 "$@" >"$out/resume.stdout" 2>"$out/resume.stderr"; then
        grep -q "resuming from" "$out/resume.stdout" || fail "resume: it did not say it resumed"
        same "$o" "np 2 stopped at $at (in the $part) and resumed"
        [ -e "$ckpt" ] && fail "stop at $at: the checkpoint outlived the complete output"
    else
        fail "resume from the stop at $at failed: $(cat "$out/resume.stderr")"
    fi
    # Another rank count (--resume auto): said once, and the run starts over, to the same bits.
    rm -f "$o"
    cp "$out/saved.ckpt" "$ckpt"
    if run_n 3 "$@" >"$out/other.stdout" 2>"$out/other.stderr"; then
        [ "$(cat "$out/other.stdout" "$out/other.stderr" | grep -c "written by 2 MPI rank(s), this run has 3")" -eq 1 ] ||
            fail "3 ranks: the other rank count is not said once: $(cat "$out/other.stdout" "$out/other.stderr")"
        same "$o" "np 3 given the $part's checkpoint of 2 ranks, started over"
    else
        fail "3 ranks given the checkpoint of 2 failed: $(cat "$out/other.stderr")"
    fi
done
exit $status
