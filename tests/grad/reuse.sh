#!/bin/sh
# reuse.sh XAIFORM REUSE_C WORK
# Partials that read a value the routine computed (transforms/tape/
# tbr_values.c, reuse): the joint adjoint of tests/grad/reuse.c calls sin
# and cos once each, in the taping sweep (twice each before: the adjoint
# computed the partials sin(t) and cos(t) again); the split adjoint, whose
# adjoint sweep runs in another activation, keeps its own. golden.grad
# checks the gradient itself. Exit 1 on a failure.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/gradlib.sh"
adjoint rotate joint
rc=0
for f in sin cos; do
  n=$(grep -c "\\b$f(" "$work/joint.c")
  [ "$n" = 1 ] || { echo "FAIL the joint adjoint calls $f $n times (1 expected)"; rc=1; }
done
[ $rc = 0 ] && echo "reuse: the joint adjoint calls sin and cos once each"
exit $rc
