#!/usr/bin/env bash
# The regression suite: run every deck under regression/ and compare its output with the stored
# reference (gtrack compare, with the deck's tolerances.toml). See regression/README.md.
#
# Usage: scripts/regression.sh [options] [NAME...]       (NAME: a directory under regression/; default all)
#   --gtrack PATH     the gtrack executable (default: build/gtrack)
#   --backend B       cpu (default), gpu or auto
#   --out DIR         where outputs and compare tables go (default: build/regression)
#   --threads N       CPU threads per run (default: all cores)
#   --validate        also run `gtrack validate` on each deck (CPU against GPU; skipped without a GPU)
#   --update          regenerate the references: runs each deck, prints the compare table of the old
#                     reference against the new output (bitwise), then replaces the reference
# Writes OUT/NAME.h5, OUT/NAME.compare.txt (and NAME.validate.txt, NAME-validate.md), OUT/results.txt.
# Runs from the repository root (decks name their input files relative to it).
# Exit status: 0 when every deck matches its reference (and validates), 1 otherwise.
set -uo pipefail
origin=$PWD
root=$(cd "$(dirname "$0")/.." && pwd)
gtrack=$root/build/gtrack
backend=cpu
out=$root/build/regression
threads=0
validate=0
update=0
names=()
while [ $# -gt 0 ]; do
    case "$1" in
        --gtrack) gtrack=$(cd "$origin" && realpath -m "$2"); shift 2 ;;
        --backend) backend=$2; shift 2 ;;
        --out) out=$(cd "$origin" && realpath -m "$2"); shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --validate) validate=1; shift ;;
        --update) update=1; shift ;;
        -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "regression.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
        *) names+=("${1%/}"); shift ;;
    esac
done
cd "$root"
if [ ! -x "$gtrack" ]; then
    echo "regression.sh: no gtrack executable at '$gtrack' (build first, or pass --gtrack)" >&2
    exit 2
fi
if [ ${#names[@]} -eq 0 ]; then
    for d in regression/*/deck.toml; do names+=("$(basename "$(dirname "$d")")"); done
fi
mkdir -p "$out"

status=0
results=()
for name in "${names[@]}"; do
    dir=regression/$name
    if [ ! -f "$dir/deck.toml" ]; then
        echo "regression.sh: no deck '$dir/deck.toml'" >&2
        results+=("$name|MISSING|-")
        status=1
        continue
    fi
    new=$out/$name.h5
    start=$(date +%s%N)
    if ! "$gtrack" run "$dir/deck.toml" --backend "$backend" --threads "$threads" -q -o "$new" \
            >"$out/$name.run.log" 2>&1; then
        echo "== $name: the run FAILED"
        cat "$out/$name.run.log"
        results+=("$name|RUN FAILED|-")
        status=1
        continue
    fi
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    seconds=$(printf '%d.%02d' $((ms / 1000)) $((ms % 1000 / 10)))

    if [ $update -eq 1 ]; then
        echo "== $name: old reference against the new output (bitwise)"
        if [ -f "$dir/reference.h5" ]; then
            "$gtrack" compare "$dir/reference.h5" "$new" 2>&1 | tee "$out/$name.update.txt"
        else
            echo "  (no reference yet: this is the first one)"
        fi
        cp "$new" "$dir/reference.h5"
        echo "   updated $dir/reference.h5 ($(stat -c %s "$dir/reference.h5") bytes): review the table above before committing"
        results+=("$name|UPDATED|$seconds")
        continue
    fi

    if [ ! -f "$dir/reference.h5" ]; then
        echo "== $name: no reference ($dir/reference.h5): make one with scripts/regression.sh --update $name"
        results+=("$name|NO REFERENCE|$seconds")
        status=1
        continue
    fi
    tol=()
    [ -f "$dir/tolerances.toml" ] && tol=(--tolerances "$dir/tolerances.toml")
    "$gtrack" compare "$dir/reference.h5" "$new" "${tol[@]}" >"$out/$name.compare.txt" 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then
        verdict=PASS
    else
        verdict=FAIL
        status=1
        echo "== $name: differs from its reference"
        cat "$out/$name.compare.txt"
    fi

    if [ $validate -eq 1 ]; then
        vtol=()  # a deck whose backends cannot agree bit for bit (space charge: FFTW vs cuFFT) says how closely
        [ -f "$dir/validate.toml" ] && vtol=(--tolerances "$dir/validate.toml")
        "$gtrack" validate "$dir/deck.toml" "${vtol[@]}" --threads "$threads" --report "$out/$name-validate.md" \
            >"$out/$name.validate.txt" 2>&1
        vrc=$?
        case $vrc in
            0) verdict="$verdict, validate PASS" ;;
            77) verdict="$verdict, validate skipped (no GPU)" ;;
            *) verdict="$verdict, validate FAIL"; status=1; tail -5 "$out/$name.validate.txt" ;;
        esac
    fi
    results+=("$name|$verdict|$seconds")
done

printf '%s\n' "${results[@]}" >"$out/results.txt"  # name|verdict|seconds, for scripts/nightly.sh
printf '\n%-24s %-8s %s\n' "deck" "time [s]" "result ($backend)"
for r in "${results[@]}"; do
    IFS='|' read -r n v s <<<"$r"
    printf '%-24s %-8s %s\n' "$n" "$s" "$v"
done
exit $status
