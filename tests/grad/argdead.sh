#!/bin/sh
# argdead.sh XAIFORM ARGDEAD_C WORK
# Under --reversal joint a real formal that a callee's rerun and adjoint
# do not read has no argument checkpoint (pass argdead): in
# tests/grad/argdead.c lmul's out is not stored, its v and sq's v are
# (golden.grad checks the gradient itself). Exit 1 on a failure.
xaiform=$1 src=$2 work=$3
mkdir -p "$work" || exit 1
"$xaiform" grad "$src" --function argdead --independent x --dependent y --mode adjoint \
  --reversal joint -o "$work/joint.c" 2>"$work/joint.err" ||
  { echo "FAIL grad: $(head -1 "$work/joint.err")"; exit 1; }
# stores ROUTINE VAR: the checkpoint pushes of VAR in ROUTINE's plain call
stores() {
  awk -v f="^$1_b_tpl_fwd[(]" -v v="xf_ad_s.cp, $2[" '
    $0 ~ f { inside = 1 } inside && index($0, v) { n++ } inside && /^}/ { inside = 0 }
    END { print n + 0 }' "$work/joint.c"
}
rc=0
o=$(stores lmul out) v=$(stores lmul v) s=$(stores sq v)
[ "$o" = 0 ] || { echo "FAIL lmul stores out, which its rerun and adjoint do not read ($o pushes)"; rc=1; }
[ "$v" -gt 0 ] || { echo "FAIL lmul does not store v, which its adjoint reads"; rc=1; }
[ "$s" -gt 0 ] || { echo "FAIL sq does not store v, which lmul writes in the next iteration"; rc=1; }
[ $rc = 0 ] && echo "argdead: lmul's out not stored; lmul's v, sq's v stored"
exit $rc
