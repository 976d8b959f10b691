# shellcheck shell=bash disable=SC2154,SC2034  # sourced by scripts/gpu-check.sh: build, out, note, status
# Beamline into detector (issue 27, docs/decks.md "A detector along the beamline"): the two example decks
# run on the GPU (beam part and detector part both there) and must end with the energy balance printed;
# then `gtrack validate` on both: the beam part CPU against GPU (the family's round-off, as any beamline
# deck), then the detector part from the CPU beam's primaries, CPU against GPU, bit for bit
# ("verdict: identical (bit for bit)" in <report>.detector.md). The beam parts of two backends agree to
# round-off only, and a shower is chaotic, so two whole runs are not compared with each other: validate
# is the comparison. Passing: every command exits 0. About 30 s.
bd_dir=$(mktemp -d)
bd_ok=1
: >"$out/beamdet.log"
for bd_deck in collimator_losses beam_dump; do
    ./"$build"/gtrack run "inputs/$bd_deck.toml" --backend gpu -o "$bd_dir/$bd_deck-gpu.h5" \
        >>"$out/beamdet.log" 2>&1 || bd_ok=0
    grep -q "energy: beam" "$out/beamdet.log" || bd_ok=0
    ./"$build"/gtrack validate "inputs/$bd_deck.toml" --report "$bd_dir/$bd_deck-validate.md" \
        >>"$out/beamdet.log" 2>&1 || bd_ok=0
    cat "$bd_dir/$bd_deck-validate.md.detector.md" >>"$out/beamdet.log" 2>/dev/null || bd_ok=0
done
# validate prints the detector part's verdict and the report repeats it: each deck's report must say so.
for bd_deck in collimator_losses beam_dump; do
    grep -q "verdict: identical (bit for bit)" "$bd_dir/$bd_deck-validate.md.detector.md" || bd_ok=0
done
if [ $bd_ok -eq 1 ]; then
    note "beamline into detector (gpu)" "collimator_losses, beam_dump run on the gpu; validate: detector parts identical"
else
    note "beamline into detector (gpu)" "FAILED (see beamdet.log)"
    status=1
fi
rm -rf "$bd_dir"
