#!/bin/sh
# fixbound.sh XAIFORM ARGDEAD_C WORK
# Bounds of explicitly reversed loops that read only constants, the
# variables of the reversed loops around and integer formals nothing
# writes are evaluated again in the adjoint, not taped (reverse.c, bound_again): in
# tests/grad/argdead.c, lmul's loops (i < n, j = i + 1; j < n) tape no
# integer in their joint adjoint nor in their split taping sweep but the
# running index k, once a run (before: 5 pushes, 2 of them per row).
# golden.grad checks the gradients. Exit 1 on a failure.
xaiform=$1 src=$2 work=$3
mkdir -p "$work" || exit 1
rc=0
for rev in joint split; do
  "$xaiform" grad "$src" --function argdead --independent x --dependent y --mode adjoint \
    --reversal $rev -o "$work/$rev.c" 2>"$work/$rev.err" ||
    { echo "FAIL grad --reversal $rev: $(head -1 "$work/$rev.err")"; exit 1; }
  # the most integer tape pushes in one of lmul's functions: 1 is the
  # running index k, handed over once a run (docs/tape.md)
  n=$(awk '/^lmul_[_a-z]*[(]/ { inside = 1; n = 0 }
    inside && /xf_ad_ipush[_nc]*[(]&xf_ad_s[.]itape/ { n++ }
    inside && /^}/ { inside = 0; if (n > max) max = n } END { print max + 0 }' "$work/$rev.c")
  [ "$n" -le 1 ] || { echo "FAIL $rev: a function of lmul tapes $n integers (its loop bounds)"; rc=1; }
done
[ $rc = 0 ] && echo "fixbound: lmul's loop bounds evaluated again, none taped"
exit $rc
