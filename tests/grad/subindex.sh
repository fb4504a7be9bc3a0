#!/bin/sh
# subindex.sh XAIFORM CALLREAD_C WORK
# Subscripts that read integer scalars nothing in the routine writes are
# computed again by the adjoint (transforms/core/adjoin.c, recomputable):
# gate's w[n + i] in tests/grad/callread.c, n a formal. Its taping sweep,
# joint and split, pushes no integer: none in the loop (n + i an iteration
# before), and not the loop's bound n either (reverse.c evaluates a bound
# of unwritten formals again: one push before). golden.grad checks the gradient.
# Exit 1 on a failure.
xaiform=$1 src=$2 work=$3
mkdir -p "$work" || exit 1
rc=0
for rev in joint split; do
  "$xaiform" grad "$src" --function crobj --independent x --dependent y --mode adjoint \
    --extent gate:w=2*n,gate:in=n,gate:out=n --reversal $rev -o "$work/$rev.c" \
    2>"$work/$rev.err" || { echo "FAIL grad --reversal $rev: $(head -1 "$work/$rev.err")"; exit 1; }
  # gate's taping sweep: gate_b_tpl_rev (joint) or gate_fwd (split)
  f=gate_b_tpl_rev
  [ $rev = split ] && f=gate_fwd
  n=$(sed -n "/^$f(/,/^}/p" "$work/$rev.c" | grep -c 'xf_ad_ipush')
  [ "$n" = 0 ] || { echo "FAIL $rev: $f pushes $n integers (0 expected)"; rc=1; }
done
[ $rc = 0 ] && echo "subindex: n + i computed again, joint and split"
exit $rc
