#!/bin/sh
# argkeep.sh XAIFORM ARGKEEP_C WORK
# Argument checkpoints of the joint adjoint (transforms/core/argstable.h):
# in tests/grad/argkeep.c, wsum's w is never written, by wsum or by the
# caller that passes x there, so wsum's plain call stores no w (nor v: the
# caller writes t only before that call); sqacc's t is
# written by the caller between its two calls of sqacc, so its plain call
# stores t; cube's c is passed u, written only before the call, so it is
# not stored; lsq's q is written in the loop around the call, so it is
# (golden.grad checks the gradient itself). Exit 1 on a failure.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/gradlib.sh"
adjoint argkeep joint grad
rc=0
w=$(stores wsum w) v=$(stores wsum v) t=$(stores sqacc t)
[ "$w" = 0 ] || { echo "FAIL wsum stores its unwritten formal w ($w pushes)"; rc=1; }
[ "$v" = 0 ] || { echo "FAIL wsum stores v, which argkeep writes only before the call ($v pushes)"; rc=1; }
[ "$t" -gt 0 ] || { echo "FAIL sqacc does not store t, which argkeep writes between its calls"; rc=1; }
c=$(stores cube c) q=$(stores lsq q)
[ "$c" = 0 ] || { echo "FAIL cube stores c, written by argkeep only before the call ($c pushes)"; rc=1; }
[ "$q" -gt 0 ] || { echo "FAIL lsq does not store q, which argkeep writes in the loop around the call"; rc=1; }
[ $rc = 0 ] && echo "argkeep: w, v, c not stored; t, q stored"
exit $rc
