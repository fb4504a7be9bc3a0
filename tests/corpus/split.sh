#!/bin/sh
# split.sh XAIFORM GEN: pass split (transforms/simplify/split.c) cuts a
# right-hand side of 6 000 nested sin (xaiform-gen-shapes sindeep, the
# assignment inside a loop) into assignments of about 512
# vertices; the tangent and the adjoint (joint and split driver) made with
# split give the Jacobian of those made without it, to 1e-12 relative.
# Fails when nothing was split, when the pipelines do not name split, on a
# differing Jacobian, or on a run that fails.
set -u
X=$1 GEN=$2
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
scratch xf-split
"$GEN" sindeep 6000 -o "$tmp/in.xaif" || exit 1
"$X" passes "$tmp/in.xaif" -o "$tmp/s.xaif" --passes split || exit 1
n=$(grep -c '<xaif:Assignment ' "$tmp/s.xaif")
n0=$(grep -c '<xaif:Assignment ' "$tmp/in.xaif")
# 6 000 vertices: at least 5 cuts of about 512
[ "$n" -ge $((n0 + 5)) ] || fail "split made $((n - n0)) assignments, not 5 or more"
"$X" passes --list | grep -q "adjoint = .*,split,template," ||
    fail "the adjoint pipeline does not run split before template"
without_t=convert,constprop,sink,linearize,preaccumulate,propagate
without_a=loopdep,convert,constprop,sink,template,linearize,preaccumulate,adjoin,reverse,argpush,iterwise,iterdry,checkpoint,deadstore,propagate
"$X" tangent "$tmp/in.xaif" -o "$tmp/t1.xaif" 2>"$tmp/err" || fail "tangent: $(head -c 300 "$tmp/err")"
"$X" passes "$tmp/in.xaif" -o "$tmp/t0.xaif" --passes $without_t 2>"$tmp/err" ||
    fail "tangent without split: $(head -c 300 "$tmp/err")"
"$X" adjoint "$tmp/in.xaif" -o "$tmp/a1.xaif" 2>"$tmp/err" || fail "adjoint: $(head -c 300 "$tmp/err")"
"$X" passes "$tmp/in.xaif" -o "$tmp/a0.xaif" --passes $without_a 2>"$tmp/err" ||
    fail "adjoint without split: $(head -c 300 "$tmp/err")"
grep -q OpenAD_spl_ "$tmp/a1.xaif" || fail "the adjoint has no temporary of split"
grep -q OpenAD_spl_ "$tmp/t1.xaif" || fail "the tangent has no temporary of split"
for c in t:tangent a:adjoint-joint a:adjoint-split; do
    f=${c%%:*} dr=${c#*:}
    for k in 0 1; do
        # the interpreter recurses through the unsplit 6 000-deep expression:
        # a sanitizer's frames need more than the default 8 MB of stack
        (
            # shellcheck disable=SC3045 # dash and bash have it
            ulimit -s 1048576 2>/dev/null || ulimit -s unlimited 2>/dev/null
            "$X" run "$tmp/$f$k.xaif" --driver "$dr" -n 2 -m 1 >"$tmp/o" 2>"$tmp/err"
        ) || fail "$f$k, $dr: run: $(head -c 300 "$tmp/err")"
        jac "$tmp/o" >"$tmp/j$k"
    done
    if agree "$tmp/j0" "$tmp/j1"; then
        same=$((same + 1))
    else
        fail "$dr: the Jacobian with split differs from the one without"
    fi
done
echo "split: $same Jacobians the same with and without, $bad failed"
[ "$bad" = 0 ] && [ "$same" = 3 ]
