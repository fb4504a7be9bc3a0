#!/bin/sh
# argflow.sh XAIFORM ARGFLOW_C WORK
# Argument checkpoints of the joint adjoint follow the caller's control
# flow (transforms/core/argstable.h): in tests/grad/argflow.c, q is written
# only before the loop that calls scale, so scale's plain call stores no q;
# v is written in the loop, and o by scale itself, so scale's v and sq3's v
# are stored (golden.grad checks the gradient itself). Exit 1 on a failure.
xaiform=$1 src=$2 work=$3
mkdir -p "$work" || exit 1
"$xaiform" grad "$src" --function argflow --independent x --dependent y --mode adjoint \
  --reversal joint -o "$work/joint.c" 2>"$work/joint.err" ||
  { echo "FAIL grad: $(head -1 "$work/joint.err")"; exit 1; }
# stores ROUTINE VAR: the checkpoint pushes of VAR in ROUTINE's plain call
stores() {
  awk -v f="^$1_b_tpl_fwd[(]" -v v="xf_ad_s.cp, $2[" '
    $0 ~ f { inside = 1 } inside && index($0, v) { n++ } inside && /^}/ { inside = 0 }
    END { print n + 0 }' "$work/joint.c"
}
rc=0
q=$(stores scale q) v=$(stores scale v) o=$(stores sq3 v)
[ "$q" = 0 ] || { echo "FAIL scale stores q, which argflow writes only before the call ($q pushes)"; rc=1; }
[ "$v" -gt 0 ] || { echo "FAIL scale does not store v, which argflow writes in the next iteration"; rc=1; }
[ "$o" -gt 0 ] || { echo "FAIL sq3 does not store v, which scale writes in the next iteration"; rc=1; }
[ $rc = 0 ] && echo "argflow: q not stored; v, o stored"
exit $rc
