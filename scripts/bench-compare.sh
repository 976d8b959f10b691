#!/usr/bin/env bash
# CPU performance guard: builds two commits side by side (release, CUDA off, the gtrack target only)
# and runs the CPU beamline benchmarks on both, alternately, so that both see the same machine; then
# reports each figure's median and spread and the change, with a WARNING where the head is slower by
# more than the threshold and outside the spread of the runs. With valgrind present it also counts
# instructions (callgrind, a small beam): a figure that does not depend on what else the machine does.
#
# Usage: scripts/bench-compare.sh [--base REV] [--head REV] [--runs N] [--particles N]
#                                 [--threshold PCT] [--work DIR] [--no-callgrind]
#   --base REV       the commit to compare against (default: HEAD^, the previous landed commit on main)
#   --head REV       the commit to measure (default: HEAD)
#   --runs N         alternations of base and head per benchmark (default 5)
#   --particles N    macroparticles per run (default 1000000)
#   --threshold PCT  warn above this slowdown (default 10)
#   --work DIR       where the two builds go (default: build-bench-compare; reused, so a second call
#                    builds only what changed)
# Exit status: 0 (a slowdown is a warning in the output, "WARNING:" lines), 2 on a usage or build error.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
base=HEAD^
head=HEAD
runs=5
particles=1000000
threshold=10
work=$root/build-bench-compare
callgrind=yes
while [ $# -gt 0 ]; do
    case "$1" in
        --base) base=$2; shift 2 ;;
        --head) head=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --particles) particles=$2; shift 2 ;;
        --threshold) threshold=$2; shift 2 ;;
        --work) work=$(realpath -m "$2"); shift 2 ;;
        --no-callgrind) callgrind=no; shift ;;
        -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-compare.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
command -v valgrind >/dev/null 2>&1 || callgrind=no

# The compiler launcher: $BENCH_COMPARE_LAUNCHER (e.g. a shared ccache with a limit of compilations
# at once), else ccache where installed.
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
[ -n "${BENCH_COMPARE_LAUNCHER:-}" ] && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER="$BENCH_COMPARE_LAUNCHER")
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)

# One source tree and build per commit, under $work/<hash>; the sources come from `git archive`, so
# the repository's worktree list is left alone.
build_commit() {
    local rev=$1 hash dir
    hash=$(git rev-parse --short=12 "$rev^{commit}") || { echo "bench-compare.sh: no commit '$rev'" >&2; return 2; }
    dir=$work/$hash
    if [ ! -x "$dir/build/gtrack" ]; then
        rm -rf "$dir/src"
        mkdir -p "$dir/src"
        git archive "$hash" | tar -x -C "$dir/src"
        echo "bench-compare: building $rev ($hash) in $dir" >&2
        cmake -S "$dir/src" -B "$dir/build" "${generator[@]}" "${launcher[@]}" -DCMAKE_BUILD_TYPE=Release \
            -DGTRACK_CUDA=OFF -DGTRACK_MPI=OFF -DGTRACK_TESTS=OFF >"$dir/configure.log" 2>&1 &&
            cmake --build "$dir/build" --target gtrack --parallel "$(nproc)" >"$dir/build.log" 2>&1 || {
            echo "bench-compare.sh: build of $rev failed (see $dir/build.log)" >&2
            return 2
        }
    fi
    echo "$dir/build/gtrack"
}

base_bin=$(build_commit "$base") || exit 2
head_bin=$(build_commit "$head") || exit 2
out=$work/runs
mkdir -p "$out"

# The benchmarks: one thread (per-core rate) and every core, exact maps (the default model).
#   fodo-exact: inputs/fodo.toml cut to 20 cells, statistics at the end only, no snapshot
#   ring-exact: inputs/fodo_ring.toml (sextupoles, exact maps), 20 turns, statistics at the end only
benches=(fodo-exact ring-exact)
bench_args() {
    case "$1" in
        fodo-exact) echo "inputs/fodo.toml --set lattice.line=[\"cell*20\"]" ;;
        ring-exact) echo "inputs/fodo_ring.toml --set lattice.turns=20" ;;
    esac
}
# A CPU-time clock for the kernel timers where the binary has one (a machine shared with other jobs).
clock_args() { "$1" run --help 2>/dev/null | grep -q -- '--clock' && echo "--clock cpu"; }

# Prints the "particle-element pushes/s" figure of one run.
run_rate() {
    local bin=$1 bench=$2 threads=$3 n=$4
    # shellcheck disable=SC2046
    "$bin" run $(bench_args "$bench") --backend cpu --threads "$threads" \
        --set beam.macroparticles="$n" --set 'output.phase_space=[]' --set 'output.stats="end"' \
        $(clock_args "$bin") -o "$out/run.h5" 2>&1 |
        sed -nE 's/.*\(([0-9.e+]+) particle-element pushes\/s\).*/\1/p' | tail -1
}

stats() {  # median min max of the numbers on stdin
    sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) { print "nan nan nan"; exit }
        m = (NR % 2) ? v[(NR + 1) / 2] : 0.5 * (v[NR / 2] + v[NR / 2 + 1]); print m, v[1], v[NR] }'
}

warnings=0
printf '%-12s %-8s %14s %22s %14s %22s %8s\n' bench threads "base median" "base spread" "head median" "head spread" change
for bench in "${benches[@]}"; do
    for threads in 1 "$(nproc)"; do
        : >"$out/base.txt"
        : >"$out/head.txt"
        for ((r = 0; r < runs; ++r)); do
            run_rate "$base_bin" "$bench" "$threads" "$particles" >>"$out/base.txt"
            run_rate "$head_bin" "$bench" "$threads" "$particles" >>"$out/head.txt"
        done
        read -r bm blo bhi < <(stats <"$out/base.txt")
        read -r hm hlo hhi < <(stats <"$out/head.txt")
        change=$(awk -v b="$bm" -v h="$hm" 'BEGIN { printf "%+.1f%%", 100 * (h / b - 1) }')
        printf '%-12s %-8s %14.4g %10.4g..%-10.4g %14.4g %10.4g..%-10.4g %8s\n' "$bench" "$threads" \
            "$bm" "$blo" "$bhi" "$hm" "$hlo" "$hhi" "$change"
        # Slower beyond the threshold, and the head's best run below the base's worst: not noise.
        if awk -v b="$bm" -v h="$hm" -v t="$threshold" -v hh="$hhi" -v bl="$blo" \
            'BEGIN { exit !((h < b * (1 - t / 100)) && (hh < bl)) }'; then
            echo "WARNING: $bench on $threads thread(s): $change pushes/s against $base (threshold -$threshold%)"
            warnings=$((warnings + 1))
        fi
    done
done

if [ "$callgrind" = yes ]; then
    # Instructions of the whole run at 20 000 particles, one thread: repeatable on a busy machine.
    for bench in "${benches[@]}"; do
        counts=()
        for bin in "$base_bin" "$head_bin"; do
            # shellcheck disable=SC2046
            counts+=("$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" run $(bench_args "$bench") \
                --backend cpu --threads 1 --quiet --set beam.macroparticles=20000 --set 'output.phase_space=[]' \
                --set 'output.stats="end"' -o "$out/run.h5" 2>&1 | sed -nE 's/.*refs: *([0-9,]+).*/\1/p' | tr -d ,)")
        done
        change=$(awk -v b="${counts[0]}" -v h="${counts[1]}" 'BEGIN { printf "%+.1f%%", 100 * (h / b - 1) }')
        echo "instructions $bench (callgrind, 2e4 particles, 1 thread): base ${counts[0]}, head ${counts[1]}, $change"
        if awk -v b="${counts[0]}" -v h="${counts[1]}" -v t="$threshold" 'BEGIN { exit !(h > b * (1 + t / 100)) }'; then
            echo "WARNING: $bench executes $change instructions against $base (threshold +$threshold%)"
            warnings=$((warnings + 1))
        fi
    done
fi
echo "bench-compare: $base ($(git rev-parse --short "$base")) -> $head ($(git rev-parse --short "$head")): $warnings warning(s)"
exit 0
