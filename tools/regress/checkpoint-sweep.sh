#!/bin/sh
# checkpoint-sweep.sh: every DO loop of the corpus checkpointed, against the
# adjoint without checkpointing (docs/checkpointing.md).
#
# usage: tools/regress/checkpoint-sweep.sh [BUILD [CORPUS]]
#   BUILD   xaiform's build folder (default: build)
#   CORPUS  the shared corpus (default: ../shared/corpus beside the source tree)
#
# For each example's adm.xaif and each ForLoop with a lineNumber in a
# ControlFlowGraph, `xaiform adjoint --checkpoint-loop ROUTINE:LINE` with
# the schedules binomial (S = 2), periodic:2 and two-level:2; the output is
# validated against OpenAD's xaif_output.xsd and run under both adjoint
# drivers with the example's params.conf. Prints one line per run: SAME
# (the Jacobian printed is the one of the adjoint without checkpointing,
# byte for byte), DIFF, RUNFAIL or INVALID, or REFUSED with the message, or
# BASEFAIL when the adjoint without checkpointing does not run under the
# generic driver either (examples with a driver of their own); then the
# counts. Exit status 1 if any DIFF, RUNFAIL or INVALID, or when nothing
# ran (no example with adm.xaif, or no loop in them).
set -u
[ $# -le 2 ] || { sed -n '5,7p' "$0" >&2; exit 2; }
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
corpus=$(cd "${2:-$src/../shared/corpus}" && pwd)
x=$build/xaiform
xsd=$corpus/xaif-schema/xaif_output.xsd
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out.txt
: >"$out"
for d in "$corpus"/openad/*/; do
    e=$(basename "$d")
    f=$d/adm.xaif
    p=$d/params.conf
    [ -f "$f" ] || continue
    "$x" adjoint "$f" -o "$tmp/base.xaif" 2>/dev/null || continue
    # ROUTINE:LINE of every ForLoop with a lineNumber (the routine's
    # symbol without the front end's __N suffix)
    awk '/<xaif:ControlFlowGraph / { match($0, /symbol_id="[^"]*"/);
                                     r = substr($0, RSTART + 11, RLENGTH - 12);
                                     sub(/__[0-9]+$/, "", r) }
         /<xaif:ForLoop / && /lineNumber="/ { match($0, /lineNumber="[0-9]*"/);
                                     print r ":" substr($0, RSTART + 12, RLENGTH - 13) }' \
        "$f" | sort -u >"$tmp/loops"
    while read -r spec; do
        for sch in "--snapshots 2" "--schedule periodic:2" "--schedule two-level:2"; do
            # shellcheck disable=SC2086
            if ! "$x" adjoint "$f" -o "$tmp/ck.xaif" --checkpoint-loop "$spec" $sch \
                2>"$tmp/err"; then
                echo "$e $spec $sch REFUSED: $(head -c 200 "$tmp/err")" >>"$out"
                continue
            fi
            "$x" validate -q --schema "$xsd" "$tmp/ck.xaif" >/dev/null 2>&1 ||
                echo "$e $spec $sch INVALID" >>"$out"
            for dr in adjoint-joint adjoint-split; do
                if ! "$x" run "$tmp/base.xaif" -d $dr -p "$p" >"$tmp/b.j" 2>/dev/null; then
                    echo "$e $spec $sch $dr BASEFAIL" >>"$out"
                elif ! "$x" run "$tmp/ck.xaif" -d $dr -p "$p" >"$tmp/c.j" 2>/dev/null; then
                    echo "$e $spec $sch $dr RUNFAIL" >>"$out"
                elif cmp -s "$tmp/b.j" "$tmp/c.j"; then
                    echo "$e $spec $sch $dr SAME" >>"$out"
                else
                    echo "$e $spec $sch $dr DIFF" >>"$out"
                fi
            done
        done
    done <"$tmp/loops"
done
if [ ! -s "$out" ]; then
    echo "checkpoint-sweep.sh: no loop checkpointed under $corpus/openad: nothing run" >&2
    exit 1
fi
cat "$out"
for w in SAME DIFF RUNFAIL INVALID REFUSED BASEFAIL; do
    printf '%s %s\n' "$w" "$(grep -c " $w" "$out")"
done
! grep -q " DIFF\| RUNFAIL\| INVALID" "$out"
