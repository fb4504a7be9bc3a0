#!/bin/sh
# sqsum.sh XAIFORM SQSUM_C WORK
# Partials recomputed through chains of copies (transforms/tape/
# tbr_values.c, chained): the partial of x[i] * x[i] in tests/grad/sqsum.c
# is d1 + d2, two temporaries that copy x[i], which nothing writes; the
# joint adjoint computes it again from x in place and tapes no real (2
# pushes before). golden.grad checks the gradient itself. Exit 1 on a
# failure.
xaiform=$1 src=$2 work=$3
mkdir -p "$work" || exit 1
"$xaiform" grad "$src" --function sqobj --independent x --dependent y --mode adjoint \
  --reversal joint -o "$work/joint.c" 2>"$work/joint.err" ||
  { echo "FAIL grad --reversal joint: $(head -1 "$work/joint.err")"; exit 1; }
# the real pushes on the tape (the global one, or local xf_tr*)
j=$(grep -c 'xf_ad_push[_nc]*(&xf_ad_s\.tape\|xf_tr[0-9]* = ' "$work/joint.c")
[ "$j" = 0 ] || { echo "FAIL the joint adjoint tapes $j reals"; exit 1; }
# the adjoint reads x in place
grep -q 'x\[(i)\] + x\[(i)\]' "$work/joint.c" ||
  { echo "FAIL the joint adjoint does not recompute x[i] + x[i]"; exit 1; }
echo "sqsum: the joint adjoint tapes no real"
