# Linac field maps (issue 13): the field-map push rate, GPU against all CPU cores in one run
# (bench/FieldMapBench.cc), and a 10^7-particle ion linac section with space charge: time per
# cavity cell on the GPU, against the CPU at 10^6 particles (scaled per particle). About 3 minutes.
# Sourced by scripts/gpu-check.sh: uses $build, $out, note, status.
if timeout 300 ./$build/gtrack_bench_fieldmap --deck inputs/ion_linac.toml --particles 1e5,1e6,1e7 \
        --cpu-max-particles 1e5 --repeat 2 | tee "$out/bench-fieldmap.txt"; then
    note "field-map push rate" "$(awk '$1 == "gpu" && $2 == 10000000 { printf "gpu %s substeps/s %s %s %s %s", $4, $5, $6, $7, $8 }' "$out/bench-fieldmap.txt")"
else
    note "field-map push rate" "FAILED (bench-fieldmap.txt)"
    status=1
fi

# ion_linac.toml: 12 two-gap cavities = 24 cavity cells. Track time (field maps and drifts) and the
# space-charge kicks, from --timing, divided by the cells.
linac_cell_time() {  # BACKEND PARTICLES -> prints "backend n track_s sc_s per_cell_s"
    local backend=$1 n=$2 log="$out/linac-$1-$2.log"
    timeout 240 ./$build/gtrack run inputs/ion_linac.toml --backend "$backend" --quiet --timing \
        -o "$out/linac.h5" --set beam.macroparticles="$n" --set output.phase_space='[]' >"$log" 2>&1 || {
        echo "linac $backend $n FAILED: $(tail -1 "$log")"; return 1; }
    rm -f "$out/linac.h5"
    awk -v be="$backend" -v n="$n" '
        $1 == "track" { tr = $3 } $1 ~ /^sc\./ { sc += $3 }
        END { printf "%s %d particles: track %.3f s, space charge %.3f s, %.4f s per cavity cell\n", be, n, tr, sc, (tr + sc) / 24 }' "$log"
}
if linac_cell_time gpu 10000000 | tee "$out/linac-cells.txt" && linac_cell_time cpu 1000000 | tee -a "$out/linac-cells.txt"; then
    note "ion linac 1e7, per cavity cell" "$(head -1 "$out/linac-cells.txt" | awk -F', ' '{ print $3 }') gpu; cpu at 1e6: $(tail -1 "$out/linac-cells.txt" | awk -F', ' '{ print $3 }')"
else
    note "ion linac 1e7, per cavity cell" "FAILED (linac-*.log)"
    status=1
fi
