# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, $out, note and status come from gpu-check.sh
# What a field substep costs on the GPU in two decks priced at one rate (issue 29: sts's forecast): the
# example sts deck (planar silicon stations, 1 T uniform, protons in a forward cone) and the calibration's
# uniform-field tracker (inputs/tracker.toml's barrels with its solenoid replaced by calibrate's 2 T
# uniform field; 1 GeV muons, isotropic), and sts's planes with the calibration's muons and field. For each: --profile's propagate time against the substeps it
# counted, and Nsight Compute's counters on the propagate kernel (threads active per warp instruction: a
# warp's substeps last as long as its slowest track's), instructions a substep, over every propagate launch of
# the run. About a minute.
sub="$out/substep"
mkdir -p "$sub"
awk 'BEGIN { skip = 0 }
    /^\[field\]/ { print; print "type = \"uniform\""; print "B = [0, 0, \"2 T\"]"; skip = 1; next }
    /^\[/ { skip = 0 }
    !skip { print }' inputs/tracker.toml >"$sub/tracker_uniform.toml"
ncu_bin=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
# substep_cost NAME DECK [--set ...]
substep_cost() {
    local name=$1 deck=$2
    shift 2
    if ./$build/gtrack run "$deck" --backend gpu -q --profile -o "$sub/$name.h5" "$@" >"$sub/$name.txt" 2>&1; then
        local prop substeps steps
        prop=$(awk '$1 == "propagate" { print $3 }' "$sub/$name.txt")
        substeps=$(sed -n 's/^counted substeps \([0-9.e+-]*\):.*/\1/p' "$sub/$name.txt")
        steps=$(sed -n 's/^counted track_steps \([0-9.e+-]*\):.*/\1/p' "$sub/$name.txt")
        note "substep $name" "$(awk -v p="$prop" -v n="$substeps" -v s="$steps" 'BEGIN {
            printf "propagate %.4g s for %.4g substeps (%.3g a step): %.3g ns a substep", p, n, n / s, p / n * 1e9 }')"
    else
        tail -5 "$sub/$name.txt"
        note "substep $name" FAILED
        status=1
        return
    fi
    [ -n "$ncu_bin" ] || return
    # Every propagate launch of the same run under ncu: warp instructions and thread instructions summed,
    # per substep that the run counted (its own --profile line in the same process).
    if timeout 150 "$ncu_bin" --clock-control none --kernel-name-base demangled -k "regex:Propagate" \
            --csv --print-units base --log-file "$sub/$name-ncu.csv" --metrics \
            gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum \
            ./$build/gtrack run "$deck" --backend gpu -q --profile -o "$sub/$name-ncu.h5" "$@" \
            >"$sub/$name-ncu.txt" 2>&1; then
        note "substep $name ncu" "$(python3 - "$sub/$name-ncu.csv" "$sub/$name-ncu.txt" <<'PY'
import csv, re, sys
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if l.startswith('"'))]
head, rows = rows[0], rows[1:]
name, value = head.index("Metric Name"), head.index("Metric Value")
total, launches = {}, set()
for r in rows:
    total[r[name]] = total.get(r[name], 0.0) + float(r[value].replace(",", ""))
    launches.add(r[0])
text = open(sys.argv[2]).read()
substeps = float(re.search(r"^counted substeps ([0-9.e+-]+)", text, re.M).group(1))
warp, thread = total["smsp__inst_executed.sum"], total["smsp__thread_inst_executed.sum"]
print(f"{len(launches)} launches, {total['gpu__time_duration.sum'] * 1e-9 / substeps * 1e9:.3g} ns a substep; "
      f"{thread / substeps:.4g} thread instructions a substep, {warp / substeps:.4g} warp instructions "
      f"({thread / warp:.3g} threads a warp instruction)")
PY
)"
    else
        note "substep $name ncu" "ncu failed: $(grep -m1 -iE 'error|fail' "$sub/$name-ncu.txt" | cut -c1-120)"
    fi
    rm -f "$sub"/*.h5
}
substep_cost sts inputs/sts.toml
# sts's planes with the calibration's particles and field (1 GeV muons, 2 T): the geometry kept, the tracks
# curved as in the calibration.
substep_cost sts_muons inputs/sts.toml --set gun.particle=mu- --set 'gun.energy="1 GeV"' \
    --set 'field.B=[0, "2 T", 0]'
substep_cost tracker_uniform "$sub/tracker_uniform.toml" --set gun.events=2000
