# 3D field maps (issue 13, field_map elements): the device layouts of the grid, particle-substeps/s
# of each on the GPU and on all CPU cores in one run (bench/FieldMapBench.cc --layouts: a TM010
# pillbox map of 17^3, 65^3 and 129^3 nodes, E and B), and the example deck's push rate. The lead
# picks k_default_field_layout (kernels/field/EmFieldGrid.hh) from this table. About a minute.
# Sourced by scripts/gpu-check.sh: uses $build, $out, note, status.
if timeout 300 ./$build/gtrack_bench_fieldmap --layouts --map-nodes 17,65,129 --particles 1e5,1e6,1e7 \
        --cpu-max-particles 1e5 --repeat 2 | tee "$out/bench-fieldmap3d-layouts.txt"; then
    for n in 17 65 129; do
        note "3D map layouts, ${n}^3 nodes, substeps/s" "$(awk -v n="$n" '
            $3 == n && (($1 == "gpu" && $4 == 10000000) || ($1 == "cpu" && $4 == 100000)) { r = r sprintf("%s %s %s; ", $1, $2, $6) }
            END { print r }' "$out/bench-fieldmap3d-layouts.txt")"
    done
else
    note "3D map layouts" "FAILED (bench-fieldmap3d-layouts.txt)"
    status=1
fi
if timeout 120 ./$build/gtrack_bench_fieldmap --deck inputs/fieldmap3d_linac.toml --particles 1e5,1e6,1e7 \
        --cpu-max-particles 1e5 --repeat 2 | tee "$out/bench-fieldmap3d-deck.txt"; then
    note "fieldmap3d_linac push rate" "$(awk '$1 == "gpu" && $2 == 10000000 { printf "gpu %s substeps/s %s %s %s %s", $4, $5, $6, $7, $8 }' "$out/bench-fieldmap3d-deck.txt")"
else
    note "fieldmap3d_linac push rate" "FAILED (bench-fieldmap3d-deck.txt)"
    status=1
fi
