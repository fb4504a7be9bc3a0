#!/bin/sh
# stream_checkpoint.sh XAIFORM CORPUS (the folder of openad/):
# --checkpoint-loop one routine at a time (--stream always; the pass's scan
# sums up the callees) gives the bytes of the whole document's (--stream
# never), for the first ForLoop of head in a few corpus examples, under
# joint and split reversal; a loop the pass refuses gets the same message
# both ways; and the streamed checkpointed adjoint's Jacobian under the
# joint driver is the default adjoint's to 1e-12. Fails on any difference,
# a run that fails, or nothing compared.
set -u
X=$1 CORPUS=$2
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
scratch xf-stream-ckp
# both SPEC IN REV: --stream always against --stream never
both() {
    for s in always never; do
        "$X" adjoint "$2" -o "$tmp/$s.xaif" --checkpoint-loop "$1" --reversal "$3" \
            --stream $s 2>"$tmp/$s.err"
        echo $? >"$tmp/$s.rc"
    done
    if ! cmp -s "$tmp/always.rc" "$tmp/never.rc" || ! cmp -s "$tmp/always.err" "$tmp/never.err"; then
        fail "$2 $1 $3: exit or message differs: $(head -c 300 "$tmp/always.err")"
    elif [ "$(cat "$tmp/always.rc")" = 0 ] && ! cmp -s "$tmp/always.xaif" "$tmp/never.xaif"; then
        fail "$2 $1 $3: the streamed output differs from the whole document's"
    else
        same=$((same + 1))
    fi
}
for e in NestedLoopIf Loop_simple_14 Loop_3 speelpenning; do
    in=$CORPUS/openad/$e/adm.xaif
    line=$(sed -n 's/.*<xaif:ForLoop[^>]*lineNumber="\([0-9]*\)".*/\1/p' "$in" | head -n 1)
    [ -n "$line" ] || {
        fail "$e: no ForLoop"
        continue
    }
    for rev in joint split; do both "head:$line" "$in" $rev; done
done
# refused alike: no such loop
both head:99999 "$CORPUS/openad/Loop_3/adm.xaif" joint
grep -q "no loop at that line" "$tmp/always.err" || fail "head:99999: not refused"
# the Jacobian of the streamed one
d=$CORPUS/openad/Loop_3
line=$(sed -n 's/.*<xaif:ForLoop[^>]*lineNumber="\([0-9]*\)".*/\1/p' "$d/adm.xaif" | head -n 1)
if "$X" adjoint "$d/adm.xaif" -o "$tmp/c.xaif" --checkpoint-loop "head:$line" --stream always &&
    "$X" adjoint "$d/adm.xaif" -o "$tmp/p.xaif" --stream never &&
    "$X" run "$tmp/c.xaif" --driver adjoint-joint --params "$d/params.conf" >"$tmp/c.out" &&
    "$X" run "$tmp/p.xaif" --driver adjoint-joint --params "$d/params.conf" >"$tmp/p.out"; then
    jac "$tmp/c.out" >"$tmp/c.jac"
    jac "$tmp/p.out" >"$tmp/p.jac"
    if agree "$tmp/p.jac" "$tmp/c.jac"; then same=$((same + 1)); else fail "Loop_3: Jacobian differs"; fi
else
    fail "Loop_3: a run failed"
fi
echo "stream_checkpoint: $same the same, $bad failed"
[ "$bad" = 0 ] && [ "$same" -gt 0 ]
