# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, $out, note and status come from gpu-check.sh
# What a field substep costs on the GPU in two decks priced at one rate (issue 29: sts's forecast): the
# example sts deck (planar silicon stations, 1 T uniform, protons in a forward cone) and the calibration's
# uniform-field tracker (inputs/tracker.toml's barrels with its solenoid replaced by calibrate's 2 T
# uniform field; 1 GeV muons, isotropic). For each: --profile's propagate time against the substeps it
# counted, and Nsight Compute's counters on the propagate kernel (threads active per warp instruction: a
# warp's substeps last as long as its slowest track's; instructions; duration). About a minute.
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
    if timeout 120 "$ncu_bin" --clock-control none --kernel-name-base demangled -k "regex:Propagate" \
            --launch-skip 4 --launch-count 3 --metrics \
            gpu__time_duration.sum,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread \
            ./$build/gtrack run "$deck" --backend gpu -q -o "$sub/$name-ncu.h5" "$@" >"$sub/$name-ncu.txt" 2>&1; then
        grep -E "Propagate|gpu__time|thread_inst|inst_executed.sum|warps_active|registers" "$sub/$name-ncu.txt" |
            cut -c1-150 | head -20
        note "substep $name ncu" "$(awk '/thread_inst_executed_per_inst_executed/ { t = t " " $NF }
            /gpu__time_duration.sum/ { d = d " " $NF } END { printf "threads a warp instruction:%s; durations:%s", t, d }' "$sub/$name-ncu.txt")"
    else
        note "substep $name ncu" "ncu failed: $(grep -m1 -iE 'error|fail' "$sub/$name-ncu.txt" | cut -c1-120)"
    fi
    rm -f "$sub"/*.h5
}
substep_cost sts inputs/sts.toml
substep_cost tracker_uniform "$sub/tracker_uniform.toml" --set gun.events=2000
