#!/bin/sh
# argdead.sh XAIFORM ARGDEAD_C WORK
# Under --reversal joint a real formal that a callee's rerun and adjoint
# do not read has no argument checkpoint (pass argdead): in
# tests/grad/argdead.c lmul's out is not stored, its v and sq's v are
# (golden.grad checks the gradient itself). Exit 1 on a failure.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/gradlib.sh"
adjoint argdead joint grad
rc=0
o=$(stores lmul out) v=$(stores lmul v) s=$(stores sq v)
[ "$o" = 0 ] || { echo "FAIL lmul stores out, which its rerun and adjoint do not read ($o pushes)"; rc=1; }
[ "$v" -gt 0 ] || { echo "FAIL lmul does not store v, which its adjoint reads"; rc=1; }
[ "$s" -gt 0 ] || { echo "FAIL sq does not store v, which lmul writes in the next iteration"; rc=1; }
[ $rc = 0 ] && echo "argdead: lmul's out not stored; lmul's v, sq's v stored"
exit $rc
