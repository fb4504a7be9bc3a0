#!/bin/sh
# reuse.sh XAIFORM REUSE_C WORK
# Partials that read a value the routine computed (transforms/tape/
# tbr_values.c, reuse): the joint adjoint of tests/grad/reuse.c calls sin
# and cos once each, in the taping sweep (twice each before: the adjoint
# computed the partials sin(t) and cos(t) again); the split adjoint, whose
# adjoint sweep runs in another activation, keeps its own. golden.grad
# checks the gradient itself. Exit 1 on a failure.
xaiform=$1 src=$2 work=$3
mkdir -p "$work" || exit 1
"$xaiform" grad "$src" --function rotate --independent x --dependent y --mode adjoint \
  --reversal joint -o "$work/joint.c" 2>"$work/joint.err" ||
  { echo "FAIL grad --reversal joint: $(head -1 "$work/joint.err")"; exit 1; }
rc=0
for f in sin cos; do
  n=$(grep -c "\\b$f(" "$work/joint.c")
  [ "$n" = 1 ] || { echo "FAIL the joint adjoint calls $f $n times (1 expected)"; rc=1; }
done
[ $rc = 0 ] && echo "reuse: the joint adjoint calls sin and cos once each"
exit $rc
