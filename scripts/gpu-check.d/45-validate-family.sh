# validate's default tolerance after space-charge kicks (issue 32): `gtrack validate` (CPU against
# GPU) on a family of generated decks (tests/ValidationFamily.hh writes the same ones for the CPU test):
# distributions, grids 16^3-64^3, cold and warm beams, short and long bunches, drift and FODO, 3D and
# 2.5D, z- and t-code. Passing: every deck PASSes. A FAIL names the deck and the first stage
# (validate-family-<name>.txt). About 1-2 minutes. Sourced by scripts/gpu-check.sh: $build, $out, note, status.
# shellcheck source=scripts/gpu-check.d/validate-family-deck.bash
source scripts/gpu-check.d/validate-family-deck.bash
family_failed=0 family_total=0
for member in "waterbag 32 50000 1 0 0 0 3d" "waterbag 16 5000 1 0 0 0 3d" "gaussian 32 20000 0 1 1 0 2.5d" \
              "kv 16 2000 1 0 0 1 3d" "semigaussian 32 20000 0 0 1 0 3d" "gaussian 64 100000 1 1 0 0 3d" \
              "waterbag 64 50000 0 0 1 0 3d" "kv 32 20000 0 1 1 0 2.5d" "semigaussian 16 2000 1 1 0 1 3d"; do
    set -- $member
    name="$1_g$2_n$3_c$4_l$5_f$6_t$7_$8"
    family_deck "$@" > "$out/family-$name.toml"
    family_total=$((family_total + 1))
    if ! timeout 120 ./$build/gtrack validate "$out/family-$name.toml" > "$out/validate-family-$name.txt" 2>&1; then
        family_failed=$((family_failed + 1))
        echo "validate family $name: $(grep -m1 -E 'verdict|error' "$out/validate-family-$name.txt")"
    fi
done
note "validate family (CPU vs GPU)" "$((family_total - family_failed)) of $family_total decks pass"
[ "$family_failed" = 0 ] || status=1
