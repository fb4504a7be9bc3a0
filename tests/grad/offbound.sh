#!/bin/sh
# offbound.sh XAIFORM OFFBOUND_C WORK
# Loop conditions that offset the loop variable (transforms/loops/
# loopcond.c) on tests/grad/offbound.c: i + k <= n, k + i < n,
# i - k < n - k and n >= i + k are read as i OP n - k (n + k), so the
# adjoint runs each loop backwards (xf_loop_header) instead of counting
# its iterations and taping i, the subscripts and the partials:
#  - joint reversal tapes no real (228 while the loops were counted) and
#    at most 72 integers, the bounds (456 before); split at most 72
#    integers (456 before);
#  - each adjoint's Jacobian equals the tangent's (xaiform run);
#  - the C of `grad` has the rewritten header i <= n - k.
# golden.grad checks offbound.c's gradient compiled. Exit 1 on a failure.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/gradlib.sh"
"$xaiform" c2xaif "$src" --function offbound --independent x --dependent y --extent x=8 \
  --extent y=6 -o "$work/in.xaif" || exit 1
against_tangent "$work/in.xaif" offbound 8 6
for r in joint split; do
  line=$(pushed "$r")
  int=$(echo "$line" | sed -n 's/.*integer \([0-9]*\),.*/\1/p')
  real=$(echo "$line" | sed -n 's/.*(real \([0-9]*\),.*/\1/p')
  if [ -z "$int" ] || [ "$int" -gt 72 ]; then fail "$r: $line"; fi
  [ "$r" = split ] || [ "$real" = 0 ] || fail "$r: $line"
done
"$xaiform" grad "$src" --function offbound --independent x --dependent y --extent x=8 \
  --extent y=6 --mode adjoint --reversal joint -o "$work/b.c" 2>"$work/b.err" ||
  fail "grad: $(head -1 "$work/b.err")"
grep -q '<= (n - k)' "$work/b.c" || fail "grad: no header i <= n - k in the adjoint C"
[ $rc = 0 ] && echo "offbound: offset loop conditions reversed; joint tapes no real, at most 72 integers"
exit $rc
