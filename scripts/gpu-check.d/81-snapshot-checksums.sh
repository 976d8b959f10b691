# shellcheck shell=bash disable=SC2154,SC2034  # sourced by scripts/gpu-check.sh: build, out, note, status
# The 2x10^8 phase-space snapshot with its default checksums (issue 25; docs/performance.md): the FODO
# channel (inputs/fodo.toml) on one GPU, statistics and a snapshot at the end (14.4 GB), as 80-scale.sh
# runs it. First the disk's write rate (dd, direct I/O, 4 GiB, on the same file system), then the run
# alternated: default keys (checksummed chunks written directly, io/ChecksummedChunks.hh), with
# `--set output.checksums=false`, default, without; and once with GTRACK_TEST_FILTER_CHECKSUMS=1 (HDF5's
# own one-thread filter, what the default did before) for the comparison on the same machine.
# Reported per run: wall, kernel time, the snapshot's own time (--trace), file bytes, host max RSS, and
# the bound kernels + bytes / disk rate + 1 s. Then `gtrack compare` of the last checksummed file with
# the last one without: it reads every chunk, HDF5 verifying each checksum, and must find the same
# numbers. Passing: every run and the compare succeed; whether the default meets the bound is noted
# ("met" / "MISSED"), not failed. About 1.5-2 minutes, 29 GB of disk at most.
ck_dir=${GTRACK_SCALE_DIR:-$PWD/build-gpu/scale}
mkdir -p "$ck_dir"
ck_n=${GTRACK_SCALE_PARTICLES:-200000000}
ck_backend=${CK_BACKEND:-gpu}  # cpu: to try the part on a machine without a GPU

dd if=/dev/zero of="$ck_dir/dd.bin" bs=16M count=256 oflag=direct 2>"$out/ck-dd.txt"
rm -f "$ck_dir/dd.bin"
ck_disk=$(awk '/bytes/ && /copied/ { for (i = 1; i <= NF; ++i) if ($i == "s,") { print $1 / $(i - 1); exit } }' "$out/ck-dd.txt")
note "snapshot checksums: disk write rate (dd direct)" "$(awk -v r="$ck_disk" 'BEGIN { printf "%.2f GB/s", r / 1e9 }')"

# ck_run LABEL FILE ENV [ARGS...]: one run, with the environment assignment ENV ("" for none) and the
# extra gtrack arguments ARGS; prints "wall kernels snapshot bytes rss_gb bound".
ck_run() {
    local label=$1 file=$2 env=() set=("${@:4}")
    [ -n "$3" ] && env=("$3")
    rm -f "$file"
    if ! env "${env[@]}" /usr/bin/time -v -o "$out/ck-$label.time" timeout 150 ./"$build"/gtrack run inputs/fodo.toml \
        --backend "$ck_backend" --timing --trace "$out/ck-$label.json" -o "$file" --set "beam.macroparticles=$ck_n" \
        --set output.stats=end --set 'output.phase_space=["end"]' "${set[@]}" >"$out/ck-$label.log" 2>&1; then
        echo FAILED
        return 1
    fi
    local wall kernels snap bytes rss
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + p[i]; print s }' "$out/ck-$label.time")
    rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.2f", $2 / 1048576 }' "$out/ck-$label.time")
    kernels=$(awk '/^# kernel calls/ { k = 1; next } k && NF == 5 { s += $3 } END { printf "%.3f", s }' "$out/ck-$label.log")
    snap=$(grep -o '"name": *"phase-space snapshot"[^}]*"dur": *[0-9.]*' "$out/ck-$label.json" |
        awk -F'"dur": *' '{ s += $2 } END { printf "%.2f", s / 1e6 }')
    bytes=$(stat -c %s "$file")
    echo "$wall $kernels $snap $bytes $rss $(awk -v k="$kernels" -v b="$bytes" -v r="$ck_disk" 'BEGIN { printf "%.2f", k + b / r + 1 }')"
}
ck_ok=1
ck_report() {  # LABEL RESULT
    local label=$1 r=$2
    if [ "$r" = FAILED ]; then
        note "snapshot checksums: $label" "FAILED: $(tail -1 "$out/ck-$label.log")"
        ck_ok=0
        return
    fi
    read -r wall kernels snap bytes rss bound <<<"$r"
    note "snapshot checksums: $label" "$wall s wall (snapshot $snap s, kernels $kernels s) for $(awk -v b="$bytes" 'BEGIN { printf "%.1f GB", b / 1e9 }'), RSS $rss GB; bound $bound s: $(awk -v a="$wall" -v b="$bound" 'BEGIN { print (a <= b ? "met" : "MISSED") }')"
}
for ck_round in 1 2; do
    ck_report "default keys, run $ck_round" "$(ck_run "default-$ck_round" "$ck_dir/ck-default.h5" "")"
    ck_report "checksums=false, run $ck_round" "$(ck_run "off-$ck_round" "$ck_dir/ck-off.h5" "" --set output.checksums=false)"
done
ck_report "HDF5's filter (before)" "$(ck_run filter "$ck_dir/ck-filter.h5" GTRACK_TEST_FILTER_CHECKSUMS=1)"
rm -f "$ck_dir/ck-filter.h5"
if [ -f "$ck_dir/ck-default.h5" ] && [ -f "$ck_dir/ck-off.h5" ]; then
    t0=$(date +%s.%N)
    if timeout 240 ./"$build"/gtrack compare "$ck_dir/ck-default.h5" "$ck_dir/ck-off.h5" >"$out/ck-compare.log" 2>&1; then
        note "snapshot checksums: compare default vs off" "same numbers, every chunk verified ($(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s)"
    else
        note "snapshot checksums: compare default vs off" "FAILED: $(tail -1 "$out/ck-compare.log")"
        ck_ok=0
    fi
fi
rm -f "$ck_dir"/ck-*.h5 "$out"/ck-*.json
[ $ck_ok -eq 1 ] || status=1
