# MPI over two GPUs of one host (docs/cluster.md): 2 ranks against the run without MPI, bit for bit,
# for a beamline deck, the space-charge deck and a detector deck; then a small strong-scaling figure
# (1 -> 2 GPUs) for 3D space charge with the time of the grid reduction. Skips with fewer than 2 GPUs.
mpi_gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
if [ "$mpi_gpus" -lt 2 ] || ! command -v mpirun >/dev/null || ! ./$build/gtrack --version | grep -q "MPI ON"; then
    note "mpi 2 GPUs" "skipped ($mpi_gpus GPU(s), mpirun $(command -v mpirun >/dev/null && echo found || echo missing))"
else
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    mpi_ok=0 mpi_total=0
    declare -A mpi_wall=()
    for mpi_case in "regression/fodo_channel/deck.toml" \
                    "regression/space_charge_fodo/deck.toml" \
                    "regression/detector_tracker/deck.toml"; do
        read -r -a mpi_args <<<"$mpi_case"
        mpi_name=$(basename "$(dirname "${mpi_args[0]}")")
        mpi_total=$((mpi_total + 1))
        timeout 120 ./$build/gtrack run "${mpi_args[@]}" --backend gpu -q -o "$out/mpi-$mpi_name-1.h5" \
            >"$out/mpi-$mpi_name.log" 2>&1 &&
        timeout 120 mpirun -np 2 --bind-to none ./$build/gtrack run "${mpi_args[@]}" --backend gpu -q \
            -o "$out/mpi-$mpi_name-2.h5" >>"$out/mpi-$mpi_name.log" 2>&1 &&
        ./$build/gtrack compare "$out/mpi-$mpi_name-1.h5" "$out/mpi-$mpi_name-2.h5" >>"$out/mpi-$mpi_name.log" 2>&1 &&
        mpi_ok=$((mpi_ok + 1))
    done
    note "mpi 2 GPUs bitwise" "$mpi_ok of $mpi_total decks identical to 1 GPU"
    [ "$mpi_ok" -eq "$mpi_total" ] || status=1
    # Whole-run throughput on two GPUs (issue 25: >= 1.8x one GPU): the FODO channel of 2x10^8 particles,
    # statistics at the end only, no snapshot, 1 and 2 ranks, wall time of the whole command.
    for np in 1 2; do
        mpi_t0=$(date +%s.%N)
        if timeout 200 mpirun -np "$np" --bind-to none ./$build/gtrack run inputs/fodo.toml --backend gpu -q \
                --set beam.macroparticles=200000000 --set output.stats=end --set 'output.phase_space=[]' \
                -o "$out/mpi-fodo2e8-$np.h5" >"$out/mpi-fodo2e8-$np.txt" 2>&1; then
            mpi_wall[$np]=$(awk -v a="$mpi_t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
            note "mpi fodo 2e8, $np GPU(s)" "whole run ${mpi_wall[$np]} s"
        else
            note "mpi fodo 2e8, $np GPU(s)" "FAILED ($(tail -n 2 "$out/mpi-fodo2e8-$np.txt" | tr '\n' ' '))"
            status=1
        fi
        rm -f "$out/mpi-fodo2e8-$np.h5"
    done
    [ -n "${mpi_wall[1]:-}" ] && [ -n "${mpi_wall[2]:-}" ] &&
        note "mpi fodo 2e8, 2 GPUs / 1" "$(awk -v a="${mpi_wall[1]}" -v b="${mpi_wall[2]}" 'BEGIN { printf "%.2f", a / b }')x whole-run throughput (target >= 1.8)"
    # Scaling (docs/performance.md, #15): 3D space charge on 128^3, strong (10^8 on 1 and 2 GPUs) and
    # weak (5x10^7 per GPU), each split into tracking+space charge, grid reduction and the rest of the
    # run (generation, output); then a large detector run on 1 and 2 GPUs.
    mpi_sc=(inputs/fodo_space_charge.toml --set space_charge.sort_every=0
            --set 'space_charge.grid=[128,128,128]' --backend gpu --timing)
    for mpi_run in "1 100000000" "2 100000000" "1 50000000"; do
        read -r np nparticles <<<"$mpi_run"
        tag="$np-$nparticles"
        if timeout 280 mpirun -np "$np" --bind-to none ./$build/gtrack run "${mpi_sc[@]}" \
                --set beam.macroparticles="$nparticles" -o "$out/mpi-scaling-$tag.h5" >"$out/mpi-scaling-$tag.txt" 2>&1; then
            note "mpi sc $nparticles on 128^3, $np GPU(s)" "$(awk '
                $1 == "tracked" { track = $3; whole = $(NF - 1) }
                $1 == "sc.reduce" { r = $3 }
                $1 ~ /^sc\./ { sc += $3 }
                END { printf "whole run %.2f s: tracking %.3f s, space charge %.3f s (grid reduction %.3f s), rest (generation, output) %.2f s", whole, track, sc, r, whole - track - sc }' "$out/mpi-scaling-$tag.txt")"
        else
            note "mpi sc $nparticles on 128^3, $np GPU(s)" "FAILED ($(tail -n 2 "$out/mpi-scaling-$tag.txt" | tr '\n' ' '))"
            status=1
        fi
        rm -f "$out/mpi-scaling-$tag.h5"
    done
    for np in 1 2; do
        if timeout 280 mpirun -np "$np" --bind-to none ./$build/gtrack run inputs/tracker.toml --backend gpu \
                --set gun.events=20000 -o "$out/mpi-tracker-$np.h5" >"$out/mpi-tracker-$np.txt" 2>&1; then
            note "mpi tracker 2x10^5 muons, $np GPU(s)" "$(grep -E 'step iterations in|track-steps' "$out/mpi-tracker-$np.txt" | tr -s ' ' | tr '\n' ' ')"
        else
            note "mpi tracker 2x10^5 muons, $np GPU(s)" "FAILED ($(tail -n 2 "$out/mpi-tracker-$np.txt" | tr '\n' ' '))"
            status=1
        fi
        rm -f "$out/mpi-tracker-$np.h5"
    done
fi
