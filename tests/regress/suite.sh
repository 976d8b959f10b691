#!/usr/bin/env bash
# gtrack regress on a temporary suite of three user decks (issue 42): a FODO channel, the same with
# 3D space charge, and a tracker detector, reduced to a few hundred particles or a few events.
#   night 1: --update makes the references (exit 0, three references, "first one" said);
#   night 2: everything passes against them (exit 0: the timings of the space-charge deck differ,
#            but they are measurements of the run);
#   night 3: a kick of 1e-12 rad planted in one element of the FODO deck fails it (exit 1), the report
#            and the terminal name the changed dataset, the other two still pass;
# and the suite's history holds three nights, the reports exist (Markdown and HTML), and a job-array
# run (--task 0, --task 1, --task 2, then --collect) gives the same verdicts as night 3.
#
# Usage: tests/regress/suite.sh GTRACK WORKDIR          (runs from the repository root)
set -uo pipefail
gtrack=$(realpath "$1") work=$2
rm -rf "$work"
mkdir -p "$work/suite/fodo" "$work/suite/space_charge" "$work/suite/tracker"
status=0
fail() {
    echo "suite.sh: $*" >&2
    status=1
}
sed -e 's/^macroparticles = .*/macroparticles = 300/' inputs/fodo.toml >"$work/suite/fodo/deck.toml"
sed -e 's/^macroparticles = .*/macroparticles = 400/' inputs/fodo_space_charge.toml >"$work/suite/space_charge/deck.toml"
sed -e 's/^events = .*/events = 4/' inputs/tracker.toml >"$work/suite/tracker/deck.toml"
# Bitwise for fodo and tracker; a tolerance file for the space-charge case, as a lab would keep.
printf '[[tolerance]]\nmatch = "*"\nrtol = 1e-12\natol = 1e-18\n' >"$work/suite/space_charge/tolerances.toml"

night() {  # night N EXPECTED_STATUS [options...]
    local n=$1 expected=$2
    shift 2
    "$gtrack" regress "$work/suite" --out "$work/night$n" --threads 1 -j 2 --no-plots "$@" >"$work/night$n.log" 2>&1
    local rc=$?
    [ $rc -eq "$expected" ] || fail "night $n: exit status $rc, expected $expected:
$(cat "$work/night$n.log")"
    echo "night $n: exit status $rc"
}
night 1 0 --update
grep -q "no reference yet" "$work/night1.log" || fail "night 1: --update did not say the references are new"
for c in fodo space_charge tracker; do
    [ -f "$work/suite/$c/reference.h5" ] || fail "night 1: no reference for $c"
done
night 2 0
grep -qE '^space_charge +cpu +PASS' "$work/night2.log" || fail "night 2: space_charge did not pass:
$(cat "$work/night2.log")"

sed -i 's/^BPM = .*/BPM = { type = "kicker", hkick = 1e-12 }/' "$work/suite/fodo/deck.toml"
grep -q 'hkick = 1e-12' "$work/suite/fodo/deck.toml" || fail "the kick was not planted"
night 3 1
grep -qE '^fodo +cpu +FAIL .*stats/mean_px' "$work/night3.log" || fail "night 3: fodo's failure does not name stats/mean_px:
$(cat "$work/night3.log")"
grep -qE '^tracker +cpu +PASS' "$work/night3.log" || fail "night 3: tracker should still pass"
grep -q 'stats/mean_px' "$work/night3/report.md" || fail "night 3: report.md does not name stats/mean_px"
grep -q 'FAIL: 1 of 3 cases' "$work/night3/report.html" || fail "night 3: report.html has no FAIL headline"

nights=$(tail -n +2 "$work/suite/history.tsv" | cut -f1 | sort -u | wc -l)
[ "$nights" -eq 3 ] || fail "the history holds $nights nights, expected 3"
grep -qP '\tfodo\tcpu\tFAIL\temittance_x' "$work/suite/history.tsv" || fail "the history lacks night 3's fodo FAIL row"
echo "history: $nights nights, $(tail -n +2 "$work/suite/history.tsv" | wc -l) rows"

# The same night as a job array: one task per case, then --collect.
for k in 0 1 2; do
    "$gtrack" regress "$work/suite" --out "$work/array" --threads 1 --task $k >"$work/array-$k.log" 2>&1
    echo "task $k: exit status $?"
done
"$gtrack" regress "$work/suite" --out "$work/array" --collect --no-plots >"$work/array-collect.log" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "--collect: exit status $rc, expected 1"
grep -qE '^fodo +cpu +FAIL' "$work/array-collect.log" || fail "--collect: fodo not FAIL:
$(cat "$work/array-collect.log")"
nights=$(tail -n +2 "$work/suite/history.tsv" | cut -f1 | sort -u | wc -l)
[ "$nights" -eq 4 ] || fail "after --collect the history holds $nights nights, expected 4"
exit $status
