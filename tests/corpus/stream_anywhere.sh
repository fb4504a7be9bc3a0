#!/bin/sh
# stream_anywhere.sh XAIFORM GEN: the adjoint of a long block that is not
# its routine's only block (tools/stream_adjoint.c, anywhere()), made a
# piece at a time, gives the Jacobian of the adjoint made whole, to 1e-12,
# under the joint and the split driver:
#  - loopnest 40 (40 nested ForLoops around a block of 40 assignments),
#    pieces of 1 and 7 statements (XAIFORM_TEST_PIECE, --stream always):
#    the two outputs the same bytes, not the whole adjoint's;
#  - sindeep 17000 (17 000 nested sin inside a ForLoop, 2.8 MB), the
#    default adjoint (--stream auto): streamed because of the block's
#    weight alone (its output is not the whole adjoint's); the joint
#    driver only (the test's time under AddressSanitizer).
# Fails on any difference, a run that fails, or nothing compared.
set -u
X=$1 GEN=$2
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
scratch xf-stream-anywhere
# compare NAME WHOLE PIECES DRIVERS: both adjoints' Jacobians under each driver
compare() {
    if cmp -s "$2" "$3"; then
        fail "$1: not made in pieces (the output is the whole adjoint's)"
        return
    fi
    for dr in $4; do
        for f in "$2" "$3"; do
            "$X" run "$f" --driver "adjoint-$dr" -n 2 -m 1 >"$tmp/o" 2>"$tmp/err" ||
                fail "$1, $dr: run of $f: $(head -c 300 "$tmp/err")"
            jac "$tmp/o" >"$f.jac"
        done
        if agree "$2.jac" "$3.jac"; then
            same=$((same + 1))
        else
            fail "$1, $dr: the Jacobian in pieces differs from the whole adjoint's"
        fi
    done
}
"$GEN" loopnest 40 -o "$tmp/ln.xaif" || exit 1
"$X" adjoint "$tmp/ln.xaif" -o "$tmp/ln.w.xaif" --stream never || fail "loopnest: whole adjoint"
for p in 1 7; do
    XAIFORM_TEST_PIECE=$p "$X" adjoint "$tmp/ln.xaif" -o "$tmp/ln.p$p.xaif" --stream always \
        2>"$tmp/err" || fail "loopnest, pieces of $p: $(head -c 300 "$tmp/err")"
done
cmp -s "$tmp/ln.p1.xaif" "$tmp/ln.p7.xaif" || fail "loopnest: pieces of 1 and 7 differ"
compare "loopnest 40, pieces of 7" "$tmp/ln.w.xaif" "$tmp/ln.p7.xaif" "joint split"
"$GEN" sindeep 17000 -o "$tmp/sd.xaif" || exit 1
"$X" adjoint "$tmp/sd.xaif" -o "$tmp/sd.w.xaif" --stream never || fail "sindeep: whole adjoint"
"$X" adjoint "$tmp/sd.xaif" -o "$tmp/sd.a.xaif" || fail "sindeep: default adjoint"
compare "sindeep 17000, --stream auto" "$tmp/sd.w.xaif" "$tmp/sd.a.xaif" joint
echo "streamed anywhere: $same Jacobians the whole adjoint's, $bad failed"
[ "$bad" = 0 ] && [ "$same" = 3 ]
