#!/bin/sh
# novalue.sh XAIFORM NOVALUE_C WORK
# Adjoints that do not store the outputs' values (pass deadstore, option
# no-value; grad --no-value) on tests/grad/novalue.c:
#  - the joint and split adjoints with no-value=novalue:y give the
#    tangent's Jacobian (xaiform run);
#  - grad --no-value, joint and split: novalue_b assigns neither y[0] nor
#    y[1], nor sin(x[2]), which only y[0]'s value needs; without the
#    option it assigns both (the default is unchanged);
#  - an output that is no real formal of the routine is refused.
# golden.grad checks the gradient of the default. Exit 1 on a failure.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/gradlib.sh"
rc=0
fail() {
  echo "FAIL $*"
  rc=1
}
"$xaiform" c2xaif "$src" --function novalue --independent x --dependent y -o "$work/in.xaif" ||
  exit 1
against_tangent "$work/in.xaif" novalue 3 2 --no-value novalue:y
for r in joint split; do
  for nv in "" --no-value; do
    out=$work/$r$nv.c
    # shellcheck disable=SC2086 # $nv: the option or nothing
    if ! "$xaiform" grad "$src" --function novalue --independent x --dependent y --mode adjoint \
      --reversal $r $nv -o "$out" 2>"$work/$r$nv.err"; then
      fail "grad $r $nv: $(head -1 "$work/$r$nv.err")"
      continue
    fi
    n=$(grep -c 'y\[(\(0\|1\))\] = ' "$out") x=$(grep -c 'sin(' "$out")
    if [ -n "$nv" ] && { [ "$n" != 0 ] || [ "$x" != 0 ]; }; then
      fail "grad $r --no-value: $n stores of y, $x calls of sin"
    elif [ -z "$nv" ] && { [ "$n" != 2 ] || [ "$x" = 0 ]; }; then
      fail "grad $r: $n stores of y (2 expected), $x calls of sin"
    fi
  done
done
if "$xaiform" adjoint "$work/in.xaif" --no-value novalue:q -o "$work/q.xaif" 2>"$work/q.err" ||
  ! grep -q "'q' is no real output of novalue" "$work/q.err"; then
  fail "no-value=novalue:q: $(head -1 "$work/q.err")"
fi
[ $rc = 0 ] && echo "novalue: the gradient unchanged, no store of y nor sin with --no-value"
exit $rc
