#!/bin/sh
# argflow.sh XAIFORM ARGFLOW_C WORK
# Argument checkpoints of the joint adjoint follow the caller's control
# flow (transforms/core/argstable.h): in tests/grad/argflow.c, q is written
# only before the loop that calls scale, so scale's plain call stores no q;
# v is written in the loop, and o by scale itself, so scale's v and sq3's v
# are stored (golden.grad checks the gradient itself). Exit 1 on a failure.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/gradlib.sh"
adjoint argflow joint grad
rc=0
q=$(stores scale q) v=$(stores scale v) o=$(stores sq3 v)
[ "$q" = 0 ] || { echo "FAIL scale stores q, which argflow writes only before the call ($q pushes)"; rc=1; }
[ "$v" -gt 0 ] || { echo "FAIL scale does not store v, which argflow writes in the next iteration"; rc=1; }
[ "$o" -gt 0 ] || { echo "FAIL sq3 does not store v, which scale writes in the next iteration"; rc=1; }
[ $rc = 0 ] && echo "argflow: q not stored; v, o stored"
exit $rc
