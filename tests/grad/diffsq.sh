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
xaiform=$1 src=$2 work=$3
mkdir -p "$work" || exit 1
rc=0
fail() {
  echo "FAIL $*"
  rc=1
}
"$xaiform" c2xaif "$src" --function diffsq --independent x --dependent y --extent x=6 \
  --extent y=1 -o "$work/in.xaif" || exit 1
run() {
  "$xaiform" run "$1" --driver "$2" --top diffsq -n 6 -m 1 --stats
}
if ! "$xaiform" tangent "$work/in.xaif" -o "$work/t.xaif" ||
  ! run "$work/t.xaif" tangent >"$work/t.out" 2>/dev/null; then
  echo "FAIL the tangent or its run"
  exit 1
fi
for r in joint split; do
  "$xaiform" adjoint "$work/in.xaif" --reversal "$r" -o "$work/$r.xaif" ||
    { fail "adjoint --reversal $r"; continue; }
  run "$work/$r.xaif" "adjoint-$r" >"$work/$r.out" 2>"$work/$r.stats" ||
    { fail "$r: the adjoint's run"; continue; }
  cmp -s "$work/t.out" "$work/$r.out" || fail "$r: the Jacobian differs from the tangent's"
  line=$(grep 'tape pushed' "$work/$r.stats")
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
