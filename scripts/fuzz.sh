#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang (ASan + UBSan, CUDA off, apart from the g++ build)
# and runs each on its seed corpus, made here from the decks under inputs/, regression/ and tests/.
# Any crash, sanitizer report, hang (> 10 s per input) or out-of-memory stops that target, leaves
# the input in <build>/fuzz-artifacts/ and makes the script fail. docs/fuzzing.md has the results.
#
# Usage: scripts/fuzz.sh [--build DIR] [--runs N] [--time SECONDS] [--jobs J] [TARGET...]
#   --build DIR   the clang build (default build-san: the one scripts/sanitize.sh makes, reused)
#   --runs N      inputs per target (default 10000: the CI smoke run)
#   --time S      at most S seconds per target (default 60)
#   --jobs J      targets fuzzed at once (default 1)
#   TARGET        DeckTextFuzz DeckOverrideFuzz ToleranceFuzz BeamFileFuzz FieldMapFuzz HepMcFuzz GdmlFuzz (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-san
runs=10000
seconds=60
jobs=1
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --time) seconds=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) targets+=("$1"); shift ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=(DeckTextFuzz DeckOverrideFuzz ToleranceFuzz BeamFileFuzz FieldMapFuzz HepMcFuzz GdmlFuzz)

generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
CC=clang CXX=clang++ cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DGTRACK_CUDA=OFF -DGTRACK_MPI=OFF -DGTRACK_FUZZ=ON -DGTRACK_WERROR=ON >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target "${targets[@]}"

# ---- seed corpus (made afresh each time; nothing of it is kept in git) ------------------------
seeds=$build/fuzz-seeds
rm -rf "$seeds"
mkdir -p "$seeds"/{DeckTextFuzz,DeckOverrideFuzz,ToleranceFuzz,BeamFileFuzz,FieldMapFuzz,HepMcFuzz,GdmlFuzz}
i=0
for deck in inputs/*.toml regression/*/*.toml; do
    [ "$(basename "$deck")" = tolerances.toml ] && continue
    cp "$deck" "$seeds/DeckTextFuzz/deck-$((i++)).toml"
done
# Decks written inside the tests (raw strings R"(...)"), the error-message cases among them.
python3 - "$seeds/DeckTextFuzz" tests/*.cc <<'PY'
import re, sys
out, n = sys.argv[1], 0
for path in sys.argv[2:]:
    text = open(path, encoding="utf-8").read()
    for m in re.finditer(r'R"(\w*)\((.*?)\)\1"', text, re.S):
        if "[" in m.group(2) or "=" in m.group(2):
            open(f"{out}/test-{n}.toml", "w").write(m.group(2)); n += 1
PY
# GDML: the files of inputs/ and tests/data/gdml/, each behind an options byte (GdmlFuzz.cc).
for f in inputs/*.gdml tests/data/gdml/*.gdml; do
    for opt in 0 3; do
        { printf "\\x0$opt"; cat "$f"; } >"$seeds/GdmlFuzz/$(basename "$f" .gdml)-$opt"
    done
done
# Overrides: deck number, scan byte, then --set strings seen in the tests, scripts and docs.
overrides=$(grep -rhoE '\b(run|beam|lattice|elements\.[A-Za-z0-9_]+|space_charge|output|scan|gun|field|physics|detector|propagation)\.[A-Za-z0-9_.]+=[^"'"'"' ,)`]*' \
    tests scripts docs README.md | sort -u)
ndecks=$(ls inputs/*.toml | wc -l)
for d in $(seq 0 $((ndecks - 1))); do
    { printf "\\x$(printf %02x "$d")\\x80"; printf '%s\n' "$overrides" | head -n 40; } >"$seeds/DeckOverrideFuzz/deck-$d"
    printf '%s\n' "$overrides" | while read -r line; do
        printf "\\x$(printf %02x "$d")\\x00%s\n" "$line"
    done | split -l 1 - "$seeds/DeckOverrideFuzz/deck-$d-"
done
for tol in regression/*/tolerances.toml; do
    { printf '\x01'; cat "$tol"; } >"$seeds/ToleranceFuzz/$(basename "$(dirname "$tol")")"
done
printf '\x001e-12\nstats/*=1e-9\nposition/*=0\n' >"$seeds/ToleranceFuzz/options"
# The HDF5 targets read a description of a file: a few fixed pseudo-random descriptions.
python3 - "$seeds" <<'PY'
import random, sys
rng = random.Random(11)
for target in ("BeamFileFuzz", "FieldMapFuzz"):
    for k, size in enumerate((64, 256, 1024, 4096)):
        open(f"{sys.argv[1]}/{target}/seed-{k}", "wb").write(bytes(rng.randrange(256) for _ in range(size)))
        open(f"{sys.argv[1]}/{target}/ones-{k}", "wb").write(b"\xff" * size)
PY

# Event files: the example's (libhepmc3's writer), its first events alone, and the first byte's selection.
cp inputs/events/*.hepmc3 "$seeds/HepMcFuzz/"
head -n 40 inputs/events/toy_events.hepmc3 >"$seeds/HepMcFuzz/cut"
{ printf '\x85'; cat inputs/events/toy_events.hepmc3; } >"$seeds/HepMcFuzz/selected"

# ---- fuzzing ---------------------------------------------------------------------------------
mkdir -p "$build/fuzz-artifacts" "$build/fuzz-logs"
# The HDF5 targets write a scratch file per input: in memory where there is a tmpfs.
[ -d /dev/shm ] && [ -w /dev/shm ] && export TMPDIR=/dev/shm
fuzz_one() {
    local target=$1 corpus=$build/fuzz-corpus/$1
    mkdir -p "$corpus"
    "$build/fuzz/$target" "$corpus" "$seeds/$target" -runs="$runs" -max_total_time="$seconds" \
        -timeout=10 -rss_limit_mb=4096 -max_len=16384 -print_final_stats=1 \
        -artifact_prefix="$build/fuzz-artifacts/$target-" >"$build/fuzz-logs/$target.log" 2>&1
}
status=0
pids=()
for target in "${targets[@]}"; do
    fuzz_one "$target" &
    pids+=($!)
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
done
for k in "${!targets[@]}"; do
    target=${targets[$k]}
    wait "${pids[$k]}" && rc=0 || rc=$?
    log=$build/fuzz-logs/$target.log
    executed=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log" | tail -1)
    elapsed=$(awk '/stat::average_exec_per_sec/ { print $2 }' "$log" | tail -1)
    if [ "$rc" -eq 0 ] && [ "${executed:-0}" -lt "$runs" ]; then
        printf '%-18s ok      %10s inputs (%s/s): the time limit came first (%s asked)\n' "$target" \
            "${executed:-?}" "${elapsed:-?}" "$runs"
    elif [ "$rc" -eq 0 ]; then
        printf '%-18s ok      %10s inputs (%s/s)\n' "$target" "${executed:-?}" "${elapsed:-?}"
    else
        status=1
        printf '%-18s FAILED  exit %d after %s inputs; input in %s\n' "$target" "$rc" "${executed:-?}" \
            "$(grep -oE "$build/fuzz-artifacts/[^ ]+" "$log" | tail -1)"
        grep -E "ERROR|SUMMARY|runtime error|terminate|what\(\)" "$log" | head -5
    fi
done
exit $status
