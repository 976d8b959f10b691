# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, $out, note and status come from gpu-check.sh
# Quantum excitation of synchrotron radiation on the GPU ([lattice] radiation = "quantum", issue 31):
# 1. `gtrack validate` of inputs/light_source_ring.toml with radiation = "quantum", 2e4 particles, 50 turns:
#    passing = PASS, the CPU and GPU give the same bits (the photons are Philox numbers keyed by seed,
#    particle, turn and entry; radiate() uses + - * / and pmath only).
# 2. The same for tests/data/every_element.toml with 5 GeV electrons (every radiating map: exact, linear and
#    combined-function bends, the three quadrupole models, thick multipoles), 1e5 particles.
# 3. The cost of the photons: the light-source ring, 1e6 particles x 20 turns on the GPU with radiation
#    "quantum" and "mean" (the push rates, `measured` lines; noted, not bounded), and the registers and
#    spills of the photon kernels (ptxas -v of CudaBeamKernels.cu is in the build log if it was verbose;
#    here cuobjdump --dump-resource-usage of the binary, the TrackSegment lines). About a minute in all.
qd="$out/quantum"
mkdir -p "$qd"
# shellcheck source=scripts/gpu-check.d/validate-deck.bash
source scripts/gpu-check.d/validate-deck.bash
validate_deck 180 "$qd/validate-light-source.txt" \
    "quantum: validate light_source_ring 50 turns, radiation quantum (CPU vs GPU)" \
    "quantum: validate light_source_ring (CPU vs GPU)" inputs/light_source_ring.toml --set beam.macroparticles=20000 \
    --set lattice.turns=50 --set 'lattice.radiation="quantum"'
validate_deck 180 "$qd/validate-every-element.txt" \
    "quantum: validate every_element, 5 GeV e-, radiation quantum (CPU vs GPU)" \
    "quantum: validate every_element (CPU vs GPU)" tests/data/every_element.toml --set beam.macroparticles=100000 \
    --set 'beam.particle="electron"' --set 'beam.kinetic_energy="5 GeV"' --set 'lattice.radiation="quantum"'
for mode in quantum mean; do
    turns=20
    if timeout 120 ./"$build"/gtrack run inputs/light_source_ring.toml --backend gpu -q --profile \
            --set beam.macroparticles=1000000 --set lattice.turns=$turns --set "lattice.radiation=\"$mode\"" \
            -o "/tmp/light_source_q_$mode.h5" >"$qd/light_source_$mode.txt" 2>&1; then
        note "quantum: light_source_ring 1e6 x $turns turns, radiation $mode" "$(grep '^measured' "$qd/light_source_$mode.txt")"
    else
        note "quantum: light_source_ring radiation $mode" "FAILED ($(tail -n 1 "$qd/light_source_$mode.txt" | cut -c1-120))"
        status=1
    fi
done
if command -v cuobjdump >/dev/null; then
    cuobjdump --dump-resource-usage "./$build/gtrack" 2>/dev/null | grep -A1 'TrackSegment' >"$qd/resource-usage.txt" || true
    note "quantum: TrackSegment kernels (registers, stack)" "$(grep -c Function "$qd/resource-usage.txt") kernels listed in quantum/resource-usage.txt"
fi
