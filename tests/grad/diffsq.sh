#!/bin/sh
# diffsq.sh XAIFORM DIFFSQ_C WORK
# Partials recomputed from short sums (transforms/tape/tbr_values.c,
# chained) on tests/grad/diffsq.c: the partial of (x[i] - x[5-i])^2 is
# d1 + d2 with d1, d2 temporaries holding x[i] - x[5-i], which nothing
# writes; the joint adjoint evaluates it again instead of taping it:
#  - joint reversal tapes nothing (12 reals while only copies chained);
#  - split, where the rule does not apply, tapes at most 12 reals;
#  - each adjoint's Jacobian equals the tangent's (xaiform run);
#  - the joint adjoint C of `grad` pushes nothing.
# golden.grad checks diffsq.c's gradient compiled. Exit 1 on a failure.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/gradlib.sh"
"$xaiform" c2xaif "$src" --function diffsq --independent x --dependent y --extent x=6 \
  --extent y=1 -o "$work/in.xaif" || exit 1
against_tangent "$work/in.xaif" diffsq 6 1
for r in joint split; do
  line=$(pushed "$r")
  real=$(echo "$line" | sed -n 's/.*(real \([0-9]*\),.*/\1/p')
  max=0
  [ "$r" = split ] && max=12
  if [ -z "$real" ] || [ "$real" -gt $max ] || ! echo "$line" | grep -q 'integer 0,'; then
    fail "$r: $line"
  fi
done
"$xaiform" grad "$src" --function diffsq --independent x --dependent y --extent x=6 \
  --extent y=1 --mode adjoint --reversal joint -o "$work/b.c" 2>"$work/b.err" ||
  fail "grad: $(head -1 "$work/b.err")"
if grep -Eq 'xf_ad_i?push' "$work/b.c"; then fail "grad: the joint adjoint C pushes"; fi
[ $rc = 0 ] && echo "diffsq: the partial evaluated again; joint tapes nothing"
exit $rc
