#!/bin/sh
# sqsum.sh XAIFORM SQSUM_C WORK
# Partials recomputed through chains of copies (transforms/tape/
# tbr_values.c, chained): the partial of x[i] * x[i] in tests/grad/sqsum.c
# is d1 + d2, two temporaries that copy x[i], which nothing writes; the
# joint adjoint computes it again from x in place and tapes no real (2
# pushes before). golden.grad checks the gradient itself. Exit 1 on a
# failure.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/gradlib.sh"
adjoint sqobj joint
j=$(pushes "$work/joint.c")
[ "$j" = 0 ] || { echo "FAIL the joint adjoint tapes $j reals"; exit 1; }
# the adjoint reads x in place
grep -q 'x\[(i)\] + x\[(i)\]' "$work/joint.c" ||
  { echo "FAIL the joint adjoint does not recompute x[i] + x[i]"; exit 1; }
echo "sqsum: the joint adjoint tapes no real"
