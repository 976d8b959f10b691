# End to end at scale (issue 25): the FODO channel (inputs/fodo.toml) at 2x10^8 particles on one GPU.
#  1. statistics at the end only, no phase space: whole-run wall time and peak host memory
#     (/usr/bin/time -v), and the host phases that --trace prints. Targets: <= 1.5 s, <= 2 GB.
#  2. the same with a phase-space snapshot at the end, and the disk's write rate measured just before
#     on the same file system (dd, direct I/O, 4 GiB). Target: wall <= kernel time + file bytes / disk
#     rate + 1 s, host memory <= 2 GB.
# A run that fails sets status=1; a missed target is reported ("MISSED") without failing the check.
# About a minute (at most ~3). Sourced by scripts/gpu-check.sh: uses $build, $out, note, status.
scale_dir=${GTRACK_SCALE_DIR:-$PWD/build-gpu/scale}  # on the disk, not a tmpfs
mkdir -p "$scale_dir"
scale_n=${GTRACK_SCALE_PARTICLES:-200000000}

# scale_run NAME PHASE_SPACE: runs the deck; leaves $out/scale-NAME.{log,time}.
scale_run() {
    local name=$1 ps=$2
    rm -f "$scale_dir/$name.h5"
    /usr/bin/time -v -o "$out/scale-$name.time" timeout 150 ./$build/gtrack run inputs/fodo.toml \
        --backend gpu --timing --trace "$out/scale-$name.json" -o "$scale_dir/$name.h5" \
        --set beam.macroparticles=$scale_n --set output.stats=end --set "output.phase_space=$ps" \
        >"$out/scale-$name.log" 2>&1
}
scale_wall() {  # elapsed (h:mm:ss or m:ss.ss) in seconds
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + p[i]; print s }' "$1"
}
scale_rss_gb() { awk -F': ' '/Maximum resident set size/ { printf "%.2f", $2 / 1048576 }' "$1"; }
scale_kernels() { awk '/^# kernel calls/ { k = 1; next } k && NF == 5 { s += $3 } END { printf "%.3f", s }' "$1"; }
scale_phases() { grep -E '^host phases' "$1" | head -1 | sed 's/^host phases: //'; }
scale_verdict() { awk -v a="$1" -v b="$2" 'BEGIN { print (a <= b ? "met" : "MISSED") }'; }

if scale_run stats '[]'; then
    t=$(scale_wall "$out/scale-stats.time"); m=$(scale_rss_gb "$out/scale-stats.time")
    k=$(scale_kernels "$out/scale-stats.log")
    note "scale 2e8 stats: wall" "$t s, kernels $k s (target <= 1.5 s: $(scale_verdict "$t" 1.5))"
    note "scale 2e8 stats: host max RSS" "$m GB (target <= 2 GB: $(scale_verdict "$m" 2))"
    note "scale 2e8 stats: host phases" "$(scale_phases "$out/scale-stats.log")"
else
    note "scale 2e8 stats" "FAILED: $(tail -1 "$out/scale-stats.log")"
    status=1
fi

# The disk, just before: 4 GiB written with direct I/O (no page cache), rate in bytes/s.
dd if=/dev/zero of="$scale_dir/dd.bin" bs=16M count=256 oflag=direct 2>"$out/scale-dd.txt"
rm -f "$scale_dir/dd.bin"
disk=$(awk '/bytes/ && /copied/ { for (i = 1; i <= NF; ++i) if ($i == "s,") { print $1 / $(i - 1); exit } }' "$out/scale-dd.txt")
note "scale disk write rate (dd direct)" "$(awk -v r="$disk" 'BEGIN { printf "%.2f GB/s", r / 1e9 }')"

if scale_run snapshot '["end"]'; then
    t=$(scale_wall "$out/scale-snapshot.time"); m=$(scale_rss_gb "$out/scale-snapshot.time")
    k=$(scale_kernels "$out/scale-snapshot.log")
    bytes=$(stat -c %s "$scale_dir/snapshot.h5")
    bound=$(awk -v k="$k" -v b="$bytes" -v r="$disk" 'BEGIN { printf "%.2f", k + b / r + 1 }')
    note "scale 2e8 snapshot: wall" "$t s for $(awk -v b="$bytes" 'BEGIN { printf "%.1f GB", b / 1e9 }') (bound kernels $k + bytes/disk + 1 = $bound s: $(scale_verdict "$t" "$bound"))"
    note "scale 2e8 snapshot: host max RSS" "$m GB (target <= 2 GB: $(scale_verdict "$m" 2))"
    note "scale 2e8 snapshot: host phases" "$(scale_phases "$out/scale-snapshot.log")"
else
    note "scale 2e8 snapshot" "FAILED: $(tail -1 "$out/scale-snapshot.log")"
    status=1
fi
rm -f "$scale_dir"/*.h5 "$out"/scale-*.json
