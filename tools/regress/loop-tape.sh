#!/bin/sh
# loop-tape.sh: is the tape of each parallel loop of the corpus one
# iteration's? Measured by running (docs/loops.md, "The measure").
#
# usage: tools/regress/loop-tape.sh [-b BUILD] [-c CORPUS] [-v] [ADJOINT-OPTION...]
#   BUILD   xaiform's build folder (default: build)
#   CORPUS  the shared corpus (default: ../shared/corpus beside the source tree)
#   -v      one line per parallel loop and driver, not only the counts
#   ADJOINT-OPTION...  passed to `xaiform adjoint` (say --loops auto)
#
# For each example's adm.xaif: the adjoint with --reversal joint, the
# options and --report-loops gives the parallel loops (loopdep's "parallel
# yes"); it is run under the joint driver, and the adjoint made with the
# options and --reversal split under the split driver, with the example's
# params.conf and `run --loop-tape`. A parallel loop is
#   one      when every run of it, in the taping sweep and in the adjoint
#            sweep, ends each iteration no higher on the tape than the
#            iteration began: its tape is one iteration's;
#   untaped  the same, and no iteration of it pushes anything;
#   grows    when some iteration leaves words on the tape (the loop's tape
#            is that of all its iterations);
#   notrun   when the driver's run never reaches it (or the run fails).
# The Jacobians are compared with those of the adjoint without options
# (byte for byte as printed): SAME, DIFF, or FAIL when only the optioned
# adjoint fails to run. Exit status 1 if any DIFF or FAIL, or when it
# measured nothing (no example, or no parallel loop).
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$src/build
corpus=$src/../shared/corpus
verbose=0
while [ $# -gt 0 ]; do
    case $1 in
    -b) build=$2; shift 2 ;;
    -c) corpus=$2; shift 2 ;;
    -v) verbose=1; shift ;;
    -h | --help) sed -n '5,10p' "$0"; exit 0 ;;
    *) break ;;
    esac
done
x=$(cd "$build" && pwd)/xaiform
[ -d "$corpus/openad" ] || { echo "loop-tape.sh: no folder $corpus/openad: nothing run" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/all"
: >"$tmp/examples"
for d in "$corpus"/openad/*/; do
    e=$(basename "$d")
    f=$d/adm.xaif
    p=$d/params.conf
    [ -f "$f" ] && [ -f "$p" ] || continue
    echo "$e" >>"$tmp/examples"
    "$x" adjoint "$f" -o "$tmp/t.xaif" --report-loops --reversal joint "$@" 2>"$tmp/rep" || continue
    "$x" adjoint "$f" -o "$tmp/ts.xaif" "$@" --reversal split 2>/dev/null || continue
    grep '^loops: .*parallel yes' "$tmp/rep" |
        sed 's/^loops: \([^ ]*\) line \([0-9-]*\):.*/\1 \2/' >"$tmp/par"
    [ -s "$tmp/par" ] || continue
    "$x" adjoint "$f" -o "$tmp/b.xaif" 2>/dev/null || continue
    for dr in adjoint-joint adjoint-split; do
        t=$tmp/t.xaif
        [ $dr = adjoint-split ] && t=$tmp/ts.xaif
        jac=SAME
        "$x" run "$tmp/b.xaif" -d $dr -p "$p" >"$tmp/b.j" 2>/dev/null || jac=BASEFAIL
        if ! "$x" run "$t" -d $dr -p "$p" --loop-tape >"$tmp/t.j" 2>"$tmp/lt"; then
            [ $jac = BASEFAIL ] || jac=FAIL
            : >"$tmp/lt"
        elif [ $jac = SAME ] && ! cmp -s "$tmp/b.j" "$tmp/t.j"; then
            jac=DIFF
        fi
        while read -r r l; do
            awk -v r="$r" -v l="$l" -v e="$e" -v dr="$dr" -v jac="$jac" '
                $1 == "loop-tape:" && $2 == r && $4 == l "," && $5 != "plain:" {
                    n++
                    if ($NF != "yes") grows = 1
                    for (k = 1; k < NF; k++) {
                        if ($k == "kept") kept += $(k + 1) + 0
                        if ($k == "iteration") most += $(k + 1) + 0
                    }
                }
                END {
                    c = !n ? "notrun" : grows ? "grows" : most ? "one" : "untaped"
                    printf "%s %s line %s %s: %s", e, r, l, dr, c
                    if (grows) printf " (kept %d)", kept
                    printf ", Jacobian %s\n", jac
                }' "$tmp/lt" >>"$tmp/all"
        done <"$tmp/par"
    done
done
# a run over no example, or over examples without one parallel loop, has
# measured nothing: that is a failure, not a pass
if [ ! -s "$tmp/examples" ] || [ ! -s "$tmp/all" ]; then
    echo "loop-tape.sh: $(wc -l <"$tmp/examples") examples with adm.xaif and params.conf under $corpus/openad, no parallel loop measured: nothing run" >&2
    exit 1
fi
[ $verbose = 1 ] && cat "$tmp/all"
awk '{ dr = $5; sub(/:$/, "", dr); c = $6; sub(/,$/, "", c)
       n[dr]++; k[dr, c]++; j = $NF; jac[dr, j]++ }
     END {
       for (dr in n)
         printf "%s: %d parallel loops: one iteration %d (%d taped, %d untaped), grows %d, not run %d; Jacobians same %d, differ %d, fail %d\n",
           dr, n[dr], k[dr, "one"] + k[dr, "untaped"], k[dr, "one"], k[dr, "untaped"],
           k[dr, "grows"], k[dr, "notrun"], jac[dr, "SAME"], jac[dr, "DIFF"], jac[dr, "FAIL"]
     }' "$tmp/all" | sort
! grep -q 'Jacobian \(DIFF\|FAIL\)' "$tmp/all"
