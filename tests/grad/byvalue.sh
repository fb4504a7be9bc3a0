#!/bin/sh
# byvalue.sh XAIFORM BYVALUE_C WORK
# By-value formals cannot alias (transforms/tape/tbr_invert.c): in
# tests/grad/byvalue.c dist's loop over ik runs to its by-value formal k
# and passes its by-value formal d to two helpers; before, the two int
# formals counted as possibly the same memory, so the loop was counted:
# a trip count and 2 integers an iteration pushed. Under joint and split
# reversal the adjoint now runs ik backwards and pushes no integer on the
# tape. Under joint reversal sq's argument checkpoint of its const v,
# sized at run time, is stored and restored at once (ad.h's
# xf_ad_push_arr, xf_ad_pop_arr comparing before it writes), not element
# by element (before: a loop of pushes, one of pops and compares).
# golden.grad checks the gradient. Exit 1 on a failure.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/gradlib.sh"
rc=0
for rev in joint split; do
  adjoint byvalue $rev
  n=$(grep -c 'xf_ad_ipush[_nc]*(&xf_ad_s\.itape' "$work/$rev.c")
  [ "$n" = 0 ] || { echo "FAIL $rev: $n integer pushes on the tape (dist's loop counted)"; rc=1; }
  grep -q 'for (ik = ((\*k) - 1); ik >= 0; ik = (ik - 1))' "$work/$rev.c" ||
    { echo "FAIL $rev: dist's loop over ik does not run backwards"; rc=1; }
done
grep -q 'xf_ad_push_arr(&xf_ad_s\.cp, &v\[0\], xf_n);' "$work/joint.c" ||
  { echo "FAIL joint: sq's checkpoint of v is not stored at once"; rc=1; }
grep -q 'xf_ad_pop_arr(&xf_ad_s\.cp, &v\[0\], xf_n, 1);' "$work/joint.c" ||
  { echo "FAIL joint: sq's checkpoint of v is not restored at once, comparing"; rc=1; }
n=$(grep -c 'xf_k' "$work/joint.c")
[ "$n" = 0 ] || { echo "FAIL joint: $n lines of element loops (xf_k)"; rc=1; }
[ $rc = 0 ] && echo "byvalue: dist's loop inverted, no integer taped; sq's v stored at once"
exit $rc
