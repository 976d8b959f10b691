# shellcheck shell=bash disable=SC2154,SC2034  # sourced by scripts/gpu-check.sh: build, out, note, status
# validate fails a real defect on the GPU (issue 32). For three members of validate's generated family
# (the issue's cold waterbag at 32^3 with 5x10^4 particles; a warm Gaussian FODO with the 2.5D solver; a
# cold KV drift with t-code space charge): `gtrack validate` as it is, then with the testing aid
# `--test-perturb-kick 1e-6`, which scales the GPU's kick number 5 (from 0) of the particle it kicks
# hardest by 1 + 1e-6 (src/run/ValidationSolvers.hh). Passing: every unperturbed run exits 0 (PASS),
# every perturbed one exits 1 (FAIL) after planting the defect ("scaled by 1 + 1e-06" in its output),
# and its first failing stage comes after that kick. Exit 77 (no GPU) or 2 (an error) fail the part.
# About a minute (logs: validate-perturbed-<name>[-bad].txt).
# shellcheck source=scripts/gpu-check.d/validate-family-deck.bash
source scripts/gpu-check.d/validate-family-deck.bash
perturbed_ok=0 perturbed_total=0
for member in "waterbag 32 50000 1 0 0 0 3d" "gaussian 32 20000 0 1 1 0 2.5d" "kv 16 2000 1 0 0 1 3d"; do
    set -- $member
    name="$1_g$2_n$3_c$4_l$5_f$6_t$7_$8"
    family_deck "$@" >"$out/perturbed-$name.toml"
    perturbed_total=$((perturbed_total + 1))
    log="$out/validate-perturbed-$name"
    timeout 120 ./$build/gtrack validate "$out/perturbed-$name.toml" --report "$log.md" >"$log.txt" 2>&1
    rc_good=$?
    timeout 120 ./$build/gtrack validate "$out/perturbed-$name.toml" --report "$log-bad.md" \
        --test-perturb-kick 1e-6 >"$log-bad.txt" 2>&1
    rc_bad=$?
    # The verdict's first failing stage ("first at stage i (..., after K space-charge kicks)") comes
    # after the perturbed kick: K > 5.
    first_kicks=$(grep -m1 '^verdict: FAIL' "$log-bad.txt" | sed -n 's/.*first at [^:]*after \([0-9]*\) space-charge kicks.*/\1/p')
    if [ $rc_good -eq 0 ] && [ $rc_bad -eq 1 ] && grep -q "scaled by 1 + 1e-06" "$log-bad.txt" &&
        grep -q "^verdict: FAIL" "$log-bad.txt" && [ "${first_kicks:-0}" -gt 5 ]; then
        perturbed_ok=$((perturbed_ok + 1))
    else
        echo "validate perturbed $name: unperturbed exit $rc_good ($(grep -m1 -E '^verdict|error' "$log.txt")), perturbed exit $rc_bad ($(grep -m1 -E '^verdict|error|TESTING AID' "$log-bad.txt"))"
    fi
done
note "validate perturbed kick (gpu)" "$perturbed_ok of $perturbed_total decks: unperturbed PASS, 1e-6 on one kick FAIL"
[ "$perturbed_ok" = "$perturbed_total" ] || status=1
