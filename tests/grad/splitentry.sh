#!/bin/sh
# splitentry.sh XAIFORM SPLITENTRY_C WORK
# The entry of a split adjoint that calls a helper takes the rules of
# joint reversal (transforms/core/revjoint.h): grad --reversal split
# tapes no more in the entry of tests/grad/splitentry.c than the joint
# adjoint does (its partials are read in place), and fewer reals than the
# split template without --entry-joint, whose entry hands its values
# over as OpenAD's split driver needs; the callee keeps its split sweeps,
# and reads in place a formal bound to an entry's formal that nothing
# writes (scale's w), not one the entry writes (shift's w).
# golden.grad checks the gradient itself. Exit 1 on a failure.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/gradlib.sh"
for rev in joint split; do adjoint splitentry $rev; done
split_template splitentry
# the entry's own pushes (its function splitentry_b_tpl)
entry() {
  awk '/^splitentry_b_tpl[(]/ { f = 1 } f { print } f && /^}/ { f = 0 }' "$1" >"$1.entry"
  pushes "$1.entry"
}
j=$(entry "$work/joint.c") s=$(entry "$work/tpl.c") g=$(entry "$work/split.c")
rc=0
[ "$g" -le "$j" ] || { echo "FAIL the entry of grad --reversal split tapes $g reals, joint $j"; rc=1; }
[ "$g" -lt "$s" ] || { echo "FAIL the entry of grad --reversal split tapes $g reals, the split template $s"; rc=1; }
grep -q '^scale_fwd(' "$work/split.c" && grep -q '^scale_bwd(' "$work/split.c" ||
  { echo "FAIL the callee scale has no split sweeps (scale_fwd, scale_bwd)"; rc=1; }
# scale's w (the entry's x) read in place, shift's w (the entry's y) taped
fwd() { awk -v f="^$1_fwd[(]" '$0 ~ f { i = 1 } i { print } i && /^}/ { i = 0 }' "$work/split.c"; }
sc=$(fwd scale | grep -c 'xf_ad_push') sh=$(fwd shift | grep -c 'xf_ad_push')
[ "$sc" = 1 ] || { echo "FAIL scale_fwd pushes $sc reals, not 1 (its a; w is read in place)"; rc=1; }
[ "$sh" = 2 ] || { echo "FAIL shift_fwd pushes $sh reals, not 2 (its w changes: it is the entry's y)"; rc=1; }
[ $rc = 0 ] && echo "splitentry: the entry of grad split tapes $g reals (joint $j, the split template $s); scale_fwd $sc, shift_fwd $sh"
exit $rc
