#!/usr/bin/env bash
# Two runs of every example deck in inputs/ on the same build pass `gtrack compare` with no options
# (issue 42): every number the runs compute is the same bits, and what differs between two runs
# (stage timings, schedule figures, provenance) is marked in the files as a measurement of the run,
# which compare reports apart. Then a planted physics change, a kick of 1e-12 rad in one element of
# inputs/fodo.toml (its monitor made a kicker), must fail, naming the datasets that moved.
#
# Sizes are reduced with --set (a few hundred particles, a few events, a few turns) to keep it short:
# the marks do not depend on the size.
#
# Usage: tests/regress/examples_twice.sh GTRACK OUTDIR [DECK...]   (default: every inputs/*.toml)
# Runs from the repository root. Exit status: 0 when every pair passes and the plant fails; 1 otherwise.
set -uo pipefail
gtrack=$1 out=$2
shift 2
decks=("$@")
[ ${#decks[@]} -gt 0 ] || decks=(inputs/*.toml)
mkdir -p "$out"
status=0
fail() {
    echo "examples_twice.sh: $*" >&2
    status=1
}
# The reductions: beamlines few particles and turns, detectors few events.
reduce() {
    local deck=$1 r
    if grep -qE '^kind *= *"detector"' "$deck"; then
        r="--set gun.events=3"
    elif grep -qE '^\[dynamic_aperture\]' "$deck"; then
        # a ring study: a small grid, and the 64 turns its frequency map needs at least (two halves of 32)
        r="--set lattice.turns=64 --set dynamic_aperture.angles=3 --set dynamic_aperture.radii=4"
    elif grep -qE '^\[momentum_aperture\]' "$deck"; then
        # a momentum-aperture study: 16 turns (its candidates are set by delta_max / resolution)
        r="--set momentum_aperture.turns=16"
    else
        r="--set beam.macroparticles=300"
        grep -qE '^turns *=' "$deck" && r="$r --set lattice.turns=3"
    fi
    grep -qE '^\[scan\]' "$deck" && r="$r --scan-index 1"  # one point of a scan, of any kind of deck
    echo "$r"
}
for deck in "${decks[@]}"; do
    name=$(basename "$deck" .toml)
    read -r -a sets <<<"$(reduce "$deck")"
    ok=1
    for k in 1 2; do
        rm -f "$out/$name-$k.h5"
        if ! "$gtrack" run "$deck" --backend cpu --threads 1 -q -o "$out/$name-$k.h5" "${sets[@]}" \
                >"$out/$name-$k.log" 2>&1; then
            fail "$name: run $k failed:
$(tail -5 "$out/$name-$k.log")"
            ok=0
        fi
    done
    [ $ok -eq 1 ] || continue
    if "$gtrack" compare "$out/$name-1.h5" "$out/$name-2.h5" >"$out/$name.compare.txt" 2>&1; then
        echo "$name: $(grep -E '^compared' "$out/$name.compare.txt")"
    else
        fail "$name: two runs differ:
$(cat "$out/$name.compare.txt")"
    fi
done

# The planted change: 1e-12 rad in one thin kick, in place of a monitor.
if [[ " ${decks[*]} " == *" inputs/fodo.toml "* ]]; then
    if "$gtrack" run inputs/fodo.toml --backend cpu --threads 1 -q -o "$out/fodo-kick.h5" \
            --set beam.macroparticles=300 --set 'elements.BPM={type="kicker", hkick=1e-12}' >"$out/fodo-kick.log" 2>&1; then
        "$gtrack" compare "$out/fodo-1.h5" "$out/fodo-kick.h5" >"$out/fodo-kick.compare.txt" 2>&1
        rc=$?
        if [ $rc -eq 1 ] && grep -q 'stats/mean_px' "$out/fodo-kick.compare.txt"; then
            echo "fodo with a 1e-12 rad kick: $(tail -1 "$out/fodo-kick.compare.txt")"
        else
            fail "a 1e-12 rad kick did not fail the comparison as it should (exit status $rc):
$(cat "$out/fodo-kick.compare.txt")"
        fi
    else
        fail "the run with a planted kick failed: $(tail -5 "$out/fodo-kick.log")"
    fi
fi
exit $status
