#!/bin/sh
# byvalue.sh XAIFORM BYVALUE_C WORK
# By-value formals cannot alias (transforms/tape/tbr_invert.c): in
# tests/grad/byvalue.c dist's loop over ik runs to its by-value formal k
# and passes its by-value formal d to two helpers; before, the two int
# formals counted as possibly the same memory, so the loop was counted:
# a trip count and 2 integers an iteration pushed. Under joint and split
# reversal the adjoint now runs ik backwards and pushes no integer on the
# tape (golden.grad checks the gradient). Exit 1 on a failure.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/gradlib.sh"
rc=0
for rev in joint split; do
  adjoint byvalue $rev
  n=$(grep -c 'xf_ad_ipush[_nc]*(&xf_ad_s\.itape' "$work/$rev.c")
  [ "$n" = 0 ] || { echo "FAIL $rev: $n integer pushes on the tape (dist's loop counted)"; rc=1; }
  grep -q 'for (ik = ((\*k) - 1L); ik >= 0L; ik = (ik - 1L))' "$work/$rev.c" ||
    { echo "FAIL $rev: dist's loop over ik does not run backwards"; rc=1; }
done
[ $rc = 0 ] && echo "byvalue: dist's loop inverted, no integer taped, joint and split"
exit $rc
