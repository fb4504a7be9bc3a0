#!/bin/sh
# callcp.sh XAIFORM CALLCP_C WORK
# Argument checkpoints decided call by call (pass template's xf_nocp,
# transforms/core/argstable.h; the C back end's c_joint.c): in
# tests/grad/callcp.c, turn passes sq its formal r, which nothing writes,
# so turn's joint adjoint calls sq_b_tpl_plain and sq_b_tpl, which neither
# store nor restore; stretch overwrites p after its call, so it calls
# sq_b_tpl_fwd and sq_b_tpl_rev. golden.grad checks the gradient itself.
# Exit 1 on a failure.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/gradlib.sh"
adjoint callcp joint
# calls CALLER: the sq functions the functions of CALLER's adjoint call
calls() {
  awk -v f="^$1_b_tpl[_a-z]*[(]" '
    $0 ~ f { inside = 1 } inside && /^}/ { inside = 0 }
    inside && match($0, /sq_b_tpl[_a-z]*[(]/) { print substr($0, RSTART, RLENGTH - 1) }' "$work/joint.c" |
    sort -u | tr '\n' ' '
}
rc=0
t=$(calls turn) s=$(calls stretch)
[ "$t" = "sq_b_tpl sq_b_tpl_plain " ] ||
  { echo "FAIL turn's adjoint calls $t(want sq_b_tpl sq_b_tpl_plain: no checkpoint)"; rc=1; }
case $s in
*sq_b_tpl_fwd*sq_b_tpl_rev*) ;;
*) echo "FAIL stretch's adjoint calls $s(want sq_b_tpl_fwd and sq_b_tpl_rev: p is overwritten)"; rc=1 ;;
esac
[ $rc = 0 ] && echo "callcp: turn's call of sq stores nothing, stretch's stores p"
exit $rc
