# shellcheck shell=bash disable=SC2154,SC2034  # sourced by scripts/gpu-check.sh: build, out, note, status
# Beamline into detector under MPI on two GPUs (issue 27, docs/cluster.md "Beamline into detector"):
# inputs/collimator_losses.toml on one GPU without mpirun, then `mpirun -np 2` (one GPU per rank), compared
# with gtrack compare at zero tolerance but for the detector's figures of its schedule (iterations,
# secondary_stack_peak, held_back): the beam part, /primaries, hits, tallies and the energy balance must be
# the same bits. Twice: the deck as it is (400 particles, all on rank 0: the primaries move to rank 1's
# events) and with 6000 particles (3 reduction chunks: both ranks lose their own). Passing: both identical,
# and rank 0 alone prints the energy balance. Skips with fewer than 2 GPUs. About 30 s.
bdm_gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
if [ "$bdm_gpus" -lt 2 ] || ! command -v mpirun >/dev/null || ! ./"$build"/gtrack --version | grep -q "MPI ON"; then
    note "beam into detector, mpi 2 GPUs" "skipped ($bdm_gpus GPU(s), mpirun $(command -v mpirun >/dev/null && echo found || echo missing))"
else
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    bdm_ok=0 bdm_total=0
    : >"$out/beamdet-mpi.log"
    for bdm_n in 400 6000; do
        bdm_total=$((bdm_total + 1))
        bdm_args=(inputs/collimator_losses.toml --backend gpu --set beam.macroparticles=$bdm_n)
        if timeout 120 ./"$build"/gtrack run "${bdm_args[@]}" -o "$out/beamdet-mpi-$bdm_n-1.h5" \
                >>"$out/beamdet-mpi.log" 2>&1 &&
            timeout 120 mpirun -np 2 --bind-to none ./"$build"/gtrack run "${bdm_args[@]}" \
                -o "$out/beamdet-mpi-$bdm_n-2.h5" >"$out/beamdet-mpi-$bdm_n-2.txt" 2>&1 &&
            [ "$(grep -c "energy: beam" "$out/beamdet-mpi-$bdm_n-2.txt")" -eq 1 ] &&
            ./"$build"/gtrack compare "$out/beamdet-mpi-$bdm_n-1.h5" "$out/beamdet-mpi-$bdm_n-2.h5" \
                >>"$out/beamdet-mpi.log" 2>&1; then
            bdm_ok=$((bdm_ok + 1))
        fi
        cat "$out/beamdet-mpi-$bdm_n-2.txt" >>"$out/beamdet-mpi.log" 2>/dev/null
        rm -f "$out/beamdet-mpi-$bdm_n-1.h5" "$out/beamdet-mpi-$bdm_n-2.h5"
    done
    note "beam into detector, mpi 2 GPUs" "$bdm_ok of $bdm_total collimator_losses runs identical to 1 GPU (see beamdet-mpi.log)"
    [ "$bdm_ok" -eq "$bdm_total" ] || status=1
fi
