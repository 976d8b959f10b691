#!/usr/bin/env bash
# The regression suite: run every deck under regression/ and compare its output with the stored
# reference. A thin call of `gtrack regress regression` (docs/regression.md), kept for the ctest
# entries regression_<deck> and scripts/nightly.sh. See regression/README.md.
#
# Usage: scripts/regression.sh [options] [NAME...]       (NAME: a directory under regression/; default all)
#   --gtrack PATH     the gtrack executable (default: build/gtrack)
#   --backend B       cpu (default), gpu, auto or both
#   --out DIR         where outputs, compare tables and the report go (default: build/regression)
#   --threads N       CPU threads per run (default: all cores)
#   -j N              decks run at once (default 1)
#   --validate        also run `gtrack validate` on each deck (CPU against GPU; skipped without a GPU)
#   --update          regenerate the references: runs each deck, prints the compare table of the old
#                     reference against the new output (bitwise), then replaces the reference
#   --no-plots        no drift plots (the ctest entries: no Python needed)
# Writes OUT/NAME.h5, OUT/NAME.compare.txt (and NAME.validate.txt, NAME-validate.md), OUT/results.txt,
# OUT/report.md and .html; the history goes to OUT/history.tsv (not into the source tree).
# Runs from the repository root (decks name their input files relative to it).
# Exit status: 0 when every deck matches its reference (and validates), 1 otherwise.
set -uo pipefail
origin=$PWD
root=$(cd "$(dirname "$0")/.." && pwd)
gtrack=$root/build/gtrack
out=$root/build/regression
args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --gtrack) gtrack=$(cd "$origin" && realpath -m "$2"); shift 2 ;;
        --out) out=$(cd "$origin" && realpath -m "$2"); shift 2 ;;
        --backend|--threads|-j) args+=("$1" "$2"); shift 2 ;;
        --validate|--update|--no-plots) args+=("$1"); shift ;;
        -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "regression.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
        *) args+=("${1%/}"); shift ;;
    esac
done
cd "$root"
if [ ! -x "$gtrack" ]; then
    echo "regression.sh: no gtrack executable at '$gtrack' (build first, or pass --gtrack)" >&2
    exit 2
fi
exec "$gtrack" regress regression --out "$out" --history "$out/history.tsv" "${args[@]}"
