#!/bin/sh
# onceval.sh XAIFORM ONCEVAL_C WORK
# Partials recomputed from locals written once (transforms/tape/
# tbr_values.c): the joint adjoint of tests/grad/onceval.c tapes no real
# (its partials read only locals written once earlier in their branch and
# the const input), while the split adjoint, whose adjoint sweep runs in
# another activation, still does (c2xaif, adjoint --reversal split,
# xaif2c: grad writes a single routine's split adjoint as its joint one,
# and says so). golden.grad checks the gradient itself.
# Exit 1 on a failure.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/gradlib.sh"
for rev in joint split; do adjoint onceval $rev; done
split_template onceval
j=$(pushes "$work/joint.c") s=$(pushes "$work/tpl.c") g=$(pushes "$work/split.c")
rc=0
[ "$j" = 0 ] || { echo "FAIL the joint adjoint tapes $j reals"; rc=1; }
[ "$s" -gt 0 ] || { echo "FAIL the split template tapes no real (its sweeps need them)"; rc=1; }
if [ "$g" != 0 ] || ! grep -q 'Split reversal was asked for' "$work/split.c"; then
  echo "FAIL grad --reversal split of a single routine is not its joint adjoint ($g pushes)"
  rc=1
fi
[ $rc = 0 ] && echo "onceval: joint tapes no real, the split template $s pushes, grad split (one routine) as joint"
exit $rc
