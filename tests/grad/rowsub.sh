#!/bin/sh
# rowsub.sh XAIFORM SRC WORK
# Subscripts read in place (transforms/core/adjoin.c, recomputable): the
# subscript i * c + j of tests/grad/rowsub.c reads the loop variables and
# c, an integer formal that nothing in the routine writes; the adjoint
# (joint and split) computes it again and tapes no integer per iteration
# (before: one unchecked push each), nor the bounds of its loops, which
# read r and c alike (before: one push a loop run). golden.grad checks
# the gradient.
# Exit 1 on a failure.
xaiform=$1 src=$2 work=$3
mkdir -p "$work" || exit 1
for rev in joint split; do
  out=$work/rowsub_$rev.c
  "$xaiform" grad "$src" --function rowsub --independent x --dependent y \
    --mode adjoint --reversal $rev -o "$out" 2>"$out.err" ||
    { echo "FAIL grad --reversal $rev: $(head -1 "$out.err")"; exit 1; }
  per=$(grep -c 'xf_ad_ipush_nc(' "$out")
  [ "$per" = 0 ] || { echo "FAIL $rev: $per unchecked integer pushes (subscripts taped)"; exit 1; }
  # nor the loops' bounds r and c (transforms/core/reverse.c, bound_again)
  all=$(grep -c 'xf_ad_ipush' "$out")
  [ "$all" = 0 ] || { echo "FAIL $rev: $all integer pushes (loop bounds taped)"; exit 1; }
  grep -q 'ab\[(((i \* (\*c)) + j))\]' "$out" ||
    { echo "FAIL $rev: the adjoint does not compute ab[i * c + j]'s subscript again"; exit 1; }
done
echo "rowsub: no subscript taped, joint and split"
