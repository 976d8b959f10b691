# Nightly regression on the GPU (issue 42, docs/regression.md): `gtrack regress regression --backend both
# --validate -j 2` over the project's suite: every deck's CPU and GPU outputs against the CPU-made
# references (space_charge_fodo within its tolerances: FFTW against cuFFT), validate on each deck, the
# report and the history; then two GPU runs of the space-charge and tracker example decks compared with
# no options (the GPU's stage timings and the detector's schedule figures are marked measurements of
# the run, set apart). About a minute. Look for: "regress (both, validate)" PASS, "two GPU runs" PASS.
# Sourced by scripts/gpu-check.sh: uses $build, $out, note, status.
rg_out=$out/regress
rm -rf "$rg_out"
mkdir -p "$rg_out"
if timeout 300 ./"$build"/gtrack regress regression --backend both --validate -j 2 --threads 4 -q \
        --out "$rg_out" --history "$rg_out/history.tsv" --no-plots >"$out/regress.log" 2>&1; then
    note "regress (both, validate)" "PASS ($(grep -c '|' "$rg_out/results.txt") runs)"
else
    note "regress (both, validate)" "FAIL (regress.log: $(grep -E 'FAIL' "$out/regress.log" | head -3 | tr -s ' ' | tr '\n' ';'))"
    status=1
fi
rg_twice=PASS
for case in "inputs/fodo_space_charge.toml beam.macroparticles=20000" "inputs/tracker.toml gun.events=200"; do
    read -r deck size <<<"$case"
    name=$(basename "$deck" .toml)
    for k in 1 2; do
        timeout 120 ./"$build"/gtrack run "$deck" --backend gpu -q -o "$rg_out/$name-gpu$k.h5" \
            --set "$size" >>"$out/regress-twice.log" 2>&1 || rg_twice="FAIL (run)"
    done
    ./"$build"/gtrack compare "$rg_out/$name-gpu1.h5" "$rg_out/$name-gpu2.h5" >>"$out/regress-twice.log" 2>&1 ||
        rg_twice="FAIL ($name: regress-twice.log)"
done
note "two GPU runs compare (no options)" "$rg_twice"
[ "$rg_twice" = PASS ] || status=1
