#!/bin/sh
# runindex.sh XAIFORM SRC WORK
# The joint adjoint of SRC (tests/grad/packed_tri.c: a packed triangle
# read through a running index k++, the function ending with its loop)
# tapes no real and nothing per iteration: k is stepped back in the
# adjoint (address recovery, handed over once from a block put before
# Exit) and the partial x[4 + k] is read in place through the recovered
# k (tbr_values). Before, each iteration pushed the partial and k.
# golden.grad checks the derivative itself.
xaiform=$1 src=$2 work=$3
mkdir -p "$work" || exit 1
out=$work/packed_tri_b.c
"$xaiform" grad "$src" --function packed_tri --independent x --dependent y \
  --mode adjoint --reversal joint -o "$out" || exit 1
reals=$(grep -c 'xf_ad_push\(_nc\)\{0,1\}(&xf_ad_s\.tape' "$out")
unchecked=$(grep -c 'xf_ad_ipush_nc(' "$out")
ints=$(grep -c 'xf_ad_ipush(' "$out")
echo "real pushes $reals, unchecked integer pushes $unchecked, integer pushes $ints"
[ "$reals" = 0 ] && [ "$unchecked" = 0 ] && [ "$ints" -le 2 ]
