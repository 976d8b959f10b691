# shellcheck shell=bash disable=SC2154,SC2034  # sourced by scripts/gpu-check.sh: build, out, note, status
# Checkpoint and restart on the GPU (docs/checkpoint.md): inputs/fodo_space_charge.toml as a ring of
# 4 turns with 20 000 particles, stopped by a real SIGTERM after turn 2 (the test hook), resumed on the
# GPU; the output must equal the uninterrupted GPU run bit for bit (only the measured stage times
# space_charge/t_* may differ). Also: a GPU checkpoint is refused on the CPU backend. Then detector
# runs on the GPU, whose checkpoints hold the stepping loop's whole state (tracks in flight): the
# tracker (inputs/tracker.toml, 1000 events of 10 muons in 4096 slots) stopped at iteration 20 and
# resumed, and run with a checkpoint every 150 events; electron showers in lead (24 events of 50 MeV
# in 64 slots, 16 secondaries of room per iteration: secondaries wait, interactions are held back)
# stopped at iteration 100 and resumed. Each output must equal the uninterrupted GPU run's in every
# number, detector@iterations, held_back and secondary_stack_peak included (zero tolerance, --strict: they are marked as measurements).
ckpt_dir=$(mktemp -d)
ckpt_deck=inputs/fodo_space_charge.toml
ckpt_set=(--set lattice.turns=4 --set beam.macroparticles=20000 --backend gpu -q)
printf '[[tolerance]]\nmatch = "space_charge/t_*"\nrtol = 1e300\natol = 1e300\n' >"$ckpt_dir/times.toml"
ckpt_ok=1
./"$build"/gtrack run "$ckpt_deck" "${ckpt_set[@]}" -o "$ckpt_dir/whole.h5" >"$out/ckpt.log" 2>&1 || ckpt_ok=0
GTRACK_TEST_STOP_AT=2 ./"$build"/gtrack run "$ckpt_deck" "${ckpt_set[@]}" -o "$ckpt_dir/cut.h5" >>"$out/ckpt.log" 2>&1
[ $? -eq 75 ] || ckpt_ok=0
./"$build"/gtrack run "$ckpt_deck" "${ckpt_set[@]}" -o "$ckpt_dir/cut.h5" --resume "$ckpt_dir/cut.h5.ckpt" \
    >>"$out/ckpt.log" 2>&1 || ckpt_ok=0
./"$build"/gtrack compare "$ckpt_dir/whole.h5" "$ckpt_dir/cut.h5" --tolerances "$ckpt_dir/times.toml" \
    >>"$out/ckpt.log" 2>&1 || ckpt_ok=0
GTRACK_TEST_STOP_AT=1 ./"$build"/gtrack run "$ckpt_deck" "${ckpt_set[@]}" -o "$ckpt_dir/cpu.h5" >>"$out/ckpt.log" 2>&1
./"$build"/gtrack run "$ckpt_deck" --set lattice.turns=4 --set beam.macroparticles=20000 --backend cpu -q \
    -o "$ckpt_dir/cpu.h5" --resume "$ckpt_dir/cpu.h5.ckpt" >>"$out/ckpt.log" 2>&1 && ckpt_ok=0
grep -q "was written on the gpu backend, this run is on the cpu" "$out/ckpt.log" || ckpt_ok=0
if [ $ckpt_ok -eq 1 ]; then
    note "checkpoint resume (gpu)" "bit-identical after a stop at turn 2 of 4; cpu refuses a gpu checkpoint"
else
    note "checkpoint resume (gpu)" "FAILED (see ckpt.log)"
    status=1
fi

det_ok=1
det_set=(--set run.track_slots=4096 --backend gpu -q)
./"$build"/gtrack run inputs/tracker.toml "${det_set[@]}" -o "$ckpt_dir/det_whole.h5" >"$out/ckpt_detector.log" 2>&1 ||
    det_ok=0
GTRACK_TEST_STOP_AT=20 ./"$build"/gtrack run inputs/tracker.toml "${det_set[@]}" -o "$ckpt_dir/det_cut.h5" \
    >>"$out/ckpt_detector.log" 2>&1
[ $? -eq 75 ] || det_ok=0
./"$build"/gtrack run inputs/tracker.toml "${det_set[@]}" -o "$ckpt_dir/det_cut.h5" --resume auto \
    >>"$out/ckpt_detector.log" 2>&1 || det_ok=0
./"$build"/gtrack compare --strict "$ckpt_dir/det_whole.h5" "$ckpt_dir/det_cut.h5" >>"$out/ckpt_detector.log" 2>&1 || det_ok=0
./"$build"/gtrack run inputs/tracker.toml "${det_set[@]}" --set output.checkpoint_every=150 \
    -o "$ckpt_dir/det_often.h5" >>"$out/ckpt_detector.log" 2>&1 || det_ok=0
./"$build"/gtrack compare --strict "$ckpt_dir/det_whole.h5" "$ckpt_dir/det_often.h5" >>"$out/ckpt_detector.log" 2>&1 || det_ok=0
shower_set=(--set gun.events=24 --set run.track_slots=64 --set physics.secondary_buffer=16
    --set 'gun.energy="50 MeV"' --backend gpu -q)
./"$build"/gtrack run tests/data/shower_lead.toml "${shower_set[@]}" -o "$ckpt_dir/em_whole.h5" \
    >>"$out/ckpt_detector.log" 2>&1 || det_ok=0
GTRACK_TEST_STOP_AT=100 ./"$build"/gtrack run tests/data/shower_lead.toml "${shower_set[@]}" \
    -o "$ckpt_dir/em_cut.h5" >>"$out/ckpt_detector.log" 2>&1
[ $? -eq 75 ] || det_ok=0
./"$build"/gtrack run tests/data/shower_lead.toml "${shower_set[@]}" -o "$ckpt_dir/em_cut.h5" --resume auto \
    >>"$out/ckpt_detector.log" 2>&1 || det_ok=0
./"$build"/gtrack compare --strict "$ckpt_dir/em_whole.h5" "$ckpt_dir/em_cut.h5" >>"$out/ckpt_detector.log" 2>&1 || det_ok=0
if [ $det_ok -eq 1 ]; then
    note "detector checkpoint (gpu)" "every number identical after stops at iterations 20 (tracker) and 100 (showers), and with checkpoints every 150 events"
else
    note "detector checkpoint (gpu)" "FAILED (see ckpt_detector.log)"
    status=1
fi
rm -rf "$ckpt_dir"
