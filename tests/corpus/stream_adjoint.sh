#!/bin/sh
# stream_adjoint.sh XAIFORM GEN [CORPUS]: the adjoint of a routine that is
# one long basic block, made a piece at a time (--stream always, pieces of
# XAIFORM_TEST_PIECE statements; tools/stream_adjoint.c), gives the
# Jacobian of the adjoint made whole (--stream never), to 1e-12 relative
# (or 1e-12 absolute), under the joint and the split driver.
# Without CORPUS: a block of 300 statements from GEN (xaiform-gen-shapes),
# in pieces of 1, 7 and 299; the three outputs must be the same bytes (the
# cut does not change the code) and differ from the whole adjoint's (the
# pieces ran). With CORPUS: a sample of its examples with a routine of one
# block, in pieces of 1 (an output that is the whole adjoint's byte for
# byte counts as agreeing). Fails on any difference, a run that fails, or a
# test that compared nothing.
set -u
X=$1 GEN=$2 CORPUS=${3-}
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
scratch xf-stream-adjoint
equal=0
# whole NAME IN RUNARGS...: the whole adjoint of IN and its Jacobians
# under both drivers, for the comparisons that follow
whole() {
    wname=$1 in=$2
    shift 2
    rm -f "$tmp/w.joint.jac" "$tmp/w.split.jac"
    if ! "$X" adjoint "$in" -o "$tmp/w.xaif" --stream never 2>"$tmp/err"; then
        fail "$wname: the whole adjoint: $(head -c 300 "$tmp/err")"
        return
    fi
    for dr in joint split; do
        if "$X" run "$tmp/w.xaif" --driver adjoint-$dr "$@" >"$tmp/w.out" 2>"$tmp/err"; then
            jac "$tmp/w.out" >"$tmp/w.$dr.jac"
        else
            fail "$wname, $dr: run of the whole adjoint: $(head -c 300 "$tmp/err")"
        fi
    done
}
# compare NAME IN PIECE RUNARGS...: in pieces against whole's, both drivers
compare() {
    name=$1 in=$2 piece=$3
    shift 3
    if ! XAIFORM_TEST_PIECE=$piece "$X" adjoint "$in" -o "$tmp/p$piece.xaif" --stream always \
        2>"$tmp/err"; then
        fail "$name: adjoint: $(head -c 300 "$tmp/err")"
        return
    fi
    if cmp -s "$tmp/w.xaif" "$tmp/p$piece.xaif"; then
        # where no whole-routine saving applies the bytes are the same;
        # the generated block has some, so its pieces must show
        [ -n "$CORPUS" ] && equal=$((equal + 1)) && return
        fail "$name: pieces of $piece: not made in pieces (the output is the whole adjoint's)"
        return
    fi
    for dr in joint split; do
        [ -f "$tmp/w.$dr.jac" ] || continue # failed above
        if ! "$X" run "$tmp/p$piece.xaif" --driver adjoint-$dr "$@" >"$tmp/p.out" 2>"$tmp/err"; then
            fail "$name, $dr: run: $(head -c 300 "$tmp/err")"
            continue
        fi
        jac "$tmp/p.out" >"$tmp/p.jac"
        if agree "$tmp/w.$dr.jac" "$tmp/p.jac"; then
            same=$((same + 1))
        else
            fail "$name, $dr, pieces of $piece: the Jacobian differs from the whole adjoint's"
        fi
    done
}

if [ -z "$CORPUS" ]; then
    "$GEN" block 300 -o "$tmp/block.xaif" || exit 1
    whole "block 300" "$tmp/block.xaif" -n 2 -m 1
    for p in 1 7 299; do
        compare "block 300" "$tmp/block.xaif" $p -n 2 -m 1
    done
    for p in 7 299; do
        cmp -s "$tmp/p1.xaif" "$tmp/p$p.xaif" || fail "block 300: pieces of 1 and $p differ"
    done
else
    for e in DoubleArrayIndex argumentArrayIndex4 bat nested_calls_1 sequenceSpanningPush0; do
        d=$CORPUS/openad/$e
        whole "$e" "$d/adm.xaif" --params "$d/params.conf"
        compare "$e" "$d/adm.xaif" 1 --params "$d/params.conf"
    done
fi
echo "streamed adjoint: $same Jacobians the whole adjoint's, $equal outputs its bytes, $bad failed"
[ "$bad" = 0 ] && [ "$same" -gt 0 ]
