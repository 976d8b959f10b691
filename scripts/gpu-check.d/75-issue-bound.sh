# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034  # $build, $out, note and status come from gpu-check.sh
# Instructions per push and the issue bound of the two fused segment kernels of issue 29 (branch kern):
# the fused linear FODO (TrackSegment<linear_maps>) and the fused exact fodo_ring (TrackSegment<optics_maps>).
#  1. Rate: pushes/s at 10^7 particles, 20 turns (`--timing`: items / seconds of the track row).
#  2. ncu, one launch of each (`--launch-count 1 -k regex:TrackSegment`, 10^6 particles): executed warp
#     instructions (smsp__inst_executed.sum), SM cycles (sm__cycles_elapsed.avg/.max), issue slots busy
#     (sm__inst_issued.avg.pct_of_peak_sustained_active), FP64 and ALU pipe use
#     (sm__pipe_{fp64,alu}_cycles_active.avg.pct_of_peak_sustained_active), achieved occupancy (sm__warps_active.avg.pct_of_peak_sustained_active), the
#     kernel's duration, and the sections WarpStateStats (stall reasons), Occupancy and LaunchStats.
#  3. From them: pushes per launch = particles x entries of the segment, both read from the profiled run's
#     own `--timing` row (items / calls: every launch is one turn, the whole ring), not assumed; instr/push =
#     32 x warp instructions / pushes (thread instructions, as docs/performance.md counts them); the SM
#     clock = cycles / duration; the issue ceiling = pushes/s if every scheduler issued one warp instruction
#     a cycle for the whole launch = pushes x 4 x SMs x clock / warp instructions.
# Passing: the three validations say bit for bit, both rates and both ncu rows are written (a machine without counters notes "ncu failed" and
# does not fail the check). Expected after branch kern (static SASS counts, docs/performance.md
# "Instructions per push"): linear FODO ~36 instr/push (103 before), so a ceiling near 9e11 on the H100
# (3.3e11 before) and a rate above 6e11 if issue stays ~85% busy; the exact ring ~58 instructions fewer a
# push (~223, was 281), a ceiling near 1.5e11: its 1.6e11 target is not expected from this alone. About
# two minutes.
ib_dir="$out/issue-bound"
mkdir -p "$ib_dir"
ib_linear=(--set 'elements.QFH.model="linear"' --set 'elements.QD.model="linear"' --set 'elements.D.model="linear"')

# ib_rate NAME DECK ARGS...: pushes/s of the fused segment kernel at 10^7 particles, 20 turns.
ib_rate() {
    local name=$1 deck=$2
    shift 2
    if timeout 120 ./"$build"/gtrack run "$deck" "$@" --backend gpu --quiet --timing -o /tmp/ib-rate.h5 \
        --set beam.macroparticles=10000000 --set lattice.turns=20 --set 'output.stats="turn"' \
        --set 'output.phase_space=[]' >"$ib_dir/rate-$name.txt" 2>&1; then
        awk '$1 == "track" { printf "%.4g", $5 / $3 }' "$ib_dir/rate-$name.txt"
    else
        echo "FAILED"
    fi
}

ncu_bin=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
ib_metrics=smsp__inst_executed.sum,sm__cycles_elapsed.avg,sm__cycles_elapsed.max,gpu__time_duration.sum
ib_metrics=$ib_metrics,sm__inst_issued.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
ib_metrics=$ib_metrics,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active
ib_metrics=$ib_metrics,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active

# ib_kernel NAME DECK ARGS...: rate, then one profiled launch at 10^6 particles, and the note row.
ib_kernel() {
    local name=$1 deck=$2
    shift 2
    local rate
    rate=$(ib_rate "$name" "$deck" "$@")
    echo "issue-bound $name: rate $rate pushes/s (10^7)"
    [ "$rate" = FAILED ] && status=1
    if [ -z "$ncu_bin" ]; then
        note "issue-bound $name" "rate $rate pushes/s; no ncu"
        return
    fi
    # The application's own output (its --timing table) goes to app-*.txt, ncu's CSV to ncu-*.csv. Should
    # ncu refuse a metric name, the same sections without --metrics (their rows stand in, see below).
    ib_ncu() {  # ncu arguments...
        timeout 150 "$ncu_bin" --clock-control none --kernel-name-base demangled -k regex:TrackSegment \
            --launch-skip 1 --launch-count 1 --csv --print-units base --print-details all \
            --log-file "$ib_dir/ncu-$name.csv" --section SpeedOfLight --section ComputeWorkloadAnalysis \
            --section WarpStateStats --section Occupancy --section LaunchStats "$@" \
            ./"$build"/gtrack run "$deck" "${args[@]}" --backend gpu -q --timing -o /tmp/ib-ncu.h5 \
            --set beam.macroparticles=1000000 --set lattice.turns=3 --set 'output.phase_space=[]' \
            --set 'output.stats="turn"' >"$ib_dir/app-$name.txt" 2>&1
    }
    local args=("$@")
    if ib_ncu --metrics "$ib_metrics" || { cp "$ib_dir/ncu-$name.csv" "$ib_dir/ncu-$name-refused.csv" 2>/dev/null; ib_ncu --section InstructionStats; }; then
        local row
        row=$(python3 - "$ib_dir/ncu-$name.csv" "$ib_dir/app-$name.txt" "$rate" <<'EOF'
import csv, sys
csv_path, app_path, rate = sys.argv[1], sys.argv[2], sys.argv[3]
m = {}
lines = []
for path in (csv_path, app_path):  # the CSV is in ncu's log file; the application's file, should it be there
    with open(path) as f:
        lines += [l for l in f if l.startswith('"')]  # ncu's own ==PROF== lines are not CSV
header = [l for l in lines if l.startswith('"ID"')][:1]
lines = header + [l for l in lines if not l.startswith('"ID"')]
for r in csv.DictReader(lines):
    name, value = r.get("Metric Name", ""), r.get("Metric Value", "").replace(",", "")
    try:
        m.setdefault(name, float(value))
    except ValueError:
        pass
# The sections' rows where a metric was not asked for (the fallback run without --metrics).
for metric, row in (("smsp__inst_executed.sum", "Executed Instructions"),
                    ("sm__inst_issued.avg.pct_of_peak_sustained_active", "Issue Slots Busy"),
                    ("sm__warps_active.avg.pct_of_peak_sustained_active", "Achieved Occupancy"),
                    ("gpu__time_duration.sum", "Duration"), ("sm__cycles_elapsed.avg", "Elapsed Cycles")):
    if metric not in m and row in m:
        m[metric] = m[row]
pushes = None
with open(app_path) as f:
    for line in f:
        w = line.split()
        if len(w) >= 5 and w[0] == "track":
            pushes = float(w[4]) / float(w[1])  # items / calls: particles x entries of one launch
warp = m.get("smsp__inst_executed.sum")
cycles = m.get("sm__cycles_elapsed.avg")
seconds = m.get("gpu__time_duration.sum")  # base unit: ns
sms = m.get("launch__sm_count", m.get("# SMs"))
if not (pushes and warp and cycles and seconds and sms):
    print("incomplete: pushes %s, warp instructions %s, cycles %s, duration %s, SMs %s"
          % (pushes, warp, cycles, seconds, sms))
    sys.exit(0)
seconds *= 1e-9
clock = cycles / seconds
ceiling = pushes * 4.0 * sms * clock / warp
print("instr/push %.1f, issue active %.1f%%, fp64 pipe %.1f%%, alu pipe %.1f%%, occupancy %.1f%%, "
      "rate %s, issue ceiling %.3g (pushes/launch %.4g, warp instr %.4g, %.0f SMs at %.3g GHz, "
      "cycles max/avg %.3f)"
      % (32.0 * warp / pushes, m.get("sm__inst_issued.avg.pct_of_peak_sustained_active", float("nan")),
         m.get("sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active", float("nan")),
         m.get("sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active", float("nan")),
         m.get("sm__warps_active.avg.pct_of_peak_sustained_active", float("nan")), rate, ceiling, pushes,
         warp, sms, clock * 1e-9, m.get("sm__cycles_elapsed.max", float("nan")) / cycles))
EOF
)
        echo "issue-bound $name: $row"
        note "issue-bound $name" "$row"
        # The stall reasons, as ncu names them (WarpStateStats), for the record.
        grep -E 'Stall|Warp Cycles Per' "$ib_dir/ncu-$name.csv" | awk -F'","' '{ print "   " $(NF-2) " = " $NF }' |
            tr -d '"' | head -30 >"$ib_dir/stalls-$name.txt"
        head -8 "$ib_dir/stalls-$name.txt"
    else
        note "issue-bound $name" "rate $rate pushes/s; ncu failed: $(grep -m1 -iE 'error|fail' "$ib_dir/ncu-$name.csv" "$ib_dir/app-$name.txt" | cut -c1-120)"
    fi
}

# CPU == GPU for the kernels this branch changed: the aligned linear and optics kernels (the two decks) and
# the kernels with misalignments (every_element holds misaligned entries). Passing: "bit for bit".
ib_validate() {  # NAME DECK ARGS...
    local name=$1 deck=$2
    shift 2
    if timeout 120 ./"$build"/gtrack validate "$deck" "$@" >"$ib_dir/validate-$name.txt" 2>&1 &&
        grep -q "bit for bit" "$ib_dir/validate-$name.txt"; then
        note "issue-bound validate $name" "bit for bit"
    else
        note "issue-bound validate $name" "NOT bit for bit (issue-bound/validate-$name.txt)"
        status=1
    fi
}
ib_validate linear-fodo inputs/fodo.toml --set beam.macroparticles=20000 "${ib_linear[@]}"
ib_validate exact-ring inputs/fodo_ring.toml --set beam.macroparticles=20000 --set lattice.turns=20
[ -f regression/every_element/deck.toml ] && ib_validate every-element regression/every_element/deck.toml

ib_kernel linear-fodo inputs/fodo.toml "${ib_linear[@]}"
ib_kernel exact-ring inputs/fodo_ring.toml

# Registers and stack of every TrackSegment kernel (the new ones without misalignments among them).
if command -v cuobjdump >/dev/null 2>&1; then
    cuobjdump --dump-resource-usage ./"$build"/gtrack 2>/dev/null | c++filt |
        awk '/Function/ { f = $0 } /REG:/ && f ~ /TrackSegment/ { print f; print "   " $0 }' >"$ib_dir/resources.txt"
    head -24 "$ib_dir/resources.txt"
fi
