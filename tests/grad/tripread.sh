#!/bin/sh
# tripread.sh XAIFORM TRIPREAD_C WORK
# Loop bounds read again (transforms/core/reverse.c, unwritten.c): in the
# joint adjoint of tests/grad/tripread.c, cubes' reversed loop starts from
# its formal n, read in place (before: a trip count pushed after the loop
# and popped before the adjoint's); halves, which writes n after its loop,
# still runs its reversed loop from a popped bound. golden.grad checks
# the gradient itself. Exit 1 on a failure.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/gradlib.sh"
adjoint tripobj joint
rc=0
# the adjoint sweeps of cubes (inner function and the rerun): from n
n=$(grep -c 'for (i = ((\*n) - 1); i >= 0' "$work/joint.c")
[ "$n" -ge 1 ] || { echo "FAIL no reversed loop starts from n read in place"; rc=1; }
# halves: from a popped bound
k=$(grep -c 'for (i = (k[0-9]* - 1); i >= 0' "$work/joint.c")
[ "$k" -ge 1 ] || { echo "FAIL halves' reversed loop does not start from a popped bound"; rc=1; }
[ $rc = 0 ] && echo "tripread: $n reversed loops read n in place, $k pop their bound"
exit $rc
