#!/bin/sh
# joint.sh XAIFORM CC INCLUDE WORK: the joint template resolved when the C
# is written (docs/c-backend.md): the joint adjoint of joint/leaf.c has no
# mode record, the leaf sq keeps its tape in local variables, each
# function a call reaches is there and none that nothing calls; compiled with -Wall -Werror -Wunused, once
# plain and once with -DXF_AD_CHECK, its gradient is right (joint/main.c).
# The split adjoint (split.sh checks its form) is compiled and run too.
set -u
xaiform=$1 cc=$2 inc=$3 work=$4
here=$(cd "$(dirname "$0")/joint" && pwd)
mkdir -p "$work" || exit 2
fail() { echo "joint.sh: $*" >&2; exit 1; }
"$xaiform" grad "$here/leaf.c" --function f --independent x --dependent y --extent x=4,y=1 \
  --mode adjoint -o "$work/joint.c" || fail "grad refused the joint adjoint"
"$xaiform" grad "$here/leaf.c" --function f --independent x --dependent y --extent x=4,y=1 \
  --mode adjoint --reversal split -o "$work/split.c" || fail "grad refused the split adjoint"
! grep -n 'xf_m\b\|xf_ad_mode' "$work/joint.c" || fail "the joint adjoint has a mode record"
for fn in f_b_tpl sq_b_tpl_fwd sq_b_tpl_rev; do
  grep -q "^$fn(" "$work/joint.c" || fail "no function $fn"
done
# nothing calls the static sq's own entry sq_b (f's calls go to the
# variants), so neither it nor sq_b_tpl, which only it called, is written
for fn in sq_b_tpl_plain sq_b_tpl sq_b; do
  ! grep -q "^$fn(" "$work/joint.c" || fail "$fn, which no call reaches"
done
! grep -q 'XF_UNUSED' "$work/joint.c" || fail "XF_UNUSED, with no static entry written"
# the leaf's functions tape nothing on the stacks: its partial, 2w, is
# kept in a local (xf_tr*, or recomputed from w, which nothing overwrites)
sed -n '/^sq_b_tpl_rev(/,/^}/p' "$work/joint.c" >"$work/rev.c"
grep -q 'xf_tr0\|(d1 + d2)' "$work/rev.c" || fail "sq_b_tpl_rev keeps no partial"
! grep -n 'xf_ad_s\.tape\|xf_ad_s\.itape' "$work/rev.c" || fail "sq_b_tpl_rev uses the tape"
# f's loop tapes on the stack
grep -q 'xf_ad_push(&xf_ad_s\.tape' "$work/joint.c" || fail "f's loop does not tape"
for k in joint split; do
  for d in "" -DXF_AD_CHECK; do
    # shellcheck disable=SC2086 # d is one flag or none
    $cc -std=c99 -Wall -Werror -Wunused -O2 $d -I"$inc" "$work/$k.c" "$here/main.c" -o "$work/$k" -lm ||
      fail "$k.c $d does not compile"
    "$work/$k" || fail "$k $d: the gradient is wrong"
  done
done
echo "joint.sh: resolved joint and split adjoints right"
