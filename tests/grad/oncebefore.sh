#!/bin/sh
# oncebefore.sh XAIFORM ONCEBEFORE_C WORK
# Partials read a local written once before their loop (transforms/tape/
# tbr_values.c, stable_once with runs_before): the joint adjoint of
# tests/grad/oncebefore.c tapes no real (a push of c per iteration
# before) and reads c in place; the split adjoint, whose adjoint sweep
# runs in another activation, still tapes (c2xaif, adjoint --reversal
# split, xaif2c: grad writes a single routine's split adjoint as its joint
# one, and says so). golden.grad checks the gradient itself. Exit 1 on a failure.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/gradlib.sh"
for rev in joint split; do adjoint oncebefore $rev; done
split_template oncebefore
j=$(pushes "$work/joint.c") s=$(pushes "$work/tpl.c") g=$(pushes "$work/split.c")
rc=0
[ "$j" = 0 ] || { echo "FAIL the joint adjoint tapes $j reals"; rc=1; }
grep -q '= c;' "$work/joint.c" || { echo "FAIL the joint adjoint does not read c"; rc=1; }
[ "$s" -gt 0 ] || { echo "FAIL the split template tapes no real (its sweeps need them)"; rc=1; }
if [ "$g" != 0 ] || ! grep -q 'Split reversal was asked for' "$work/split.c"; then
  echo "FAIL grad --reversal split of a single routine is not its joint adjoint ($g pushes)"
  rc=1
fi
[ $rc = 0 ] && echo "oncebefore: joint tapes no real, the split template $s pushes, grad split (one routine) as joint"
exit $rc
