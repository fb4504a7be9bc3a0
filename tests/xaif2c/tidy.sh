#!/bin/sh
# tidy.sh XAIFORM CC INCLUDE WORK
# Index arithmetic and casts as a person writes them (issue 27 item 4):
# `xaiform grad` on tests/xaif2c/tidy.c as tangent, joint and split
# adjoint must write no arithmetic identity on integers (x + 0L, 0L + x,
# x - 0L, x * 1L, x / 1L), no x + (-c), no constants that cancel
# ((x - 1L) + 1L) and no (double) cast of a double argument to a <math.h>
# function, and the C must compile with -O2 -Wall -Werror -Wunused.
# tests/cgrad and golden.grad check that the folded code computes the
# same derivatives. Exit 1 on a failure.
xaiform=$1 cc=$2 inc=$3 work=$4
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work" || exit 1
rc=0
for k in tangent joint split; do
  mode=adjoint rev=$k
  [ $k = tangent ] && mode=tangent rev=joint
  out=$work/$k.c
  "$xaiform" grad "$here/tidy.c" --function tidy --independent x --dependent y \
    --extent x=n,y=1 --mode $mode --reversal $rev -o "$out" 2>"$work/$k.err" ||
    { echo "FAIL grad $k: $(head -1 "$work/$k.err")"; rc=1; continue; }
  $cc -std=c99 -O2 -Wall -Werror -Wunused -I"$inc" -c "$out" -o "$work/$k.o" ||
    { echo "FAIL $k: the C does not compile"; rc=1; }
  for p in '+ 0L\?)' '(0L\? + ' '- 0L\?)' '* 1L\?)' '(1L\? \* ' '/ 1L\?)' '+ (-[0-9]' '- (-[0-9]' \
    '- 1L\?) + 1L\?)' '+ 1L\?) - 1L\?)' '\(sin\|cos\|exp\|tanh\|pow\)((double)'; do
    if grep -n -e "$p" "$out" >"$work/hit"; then
      echo "FAIL $k writes '$p': $(head -1 "$work/hit")"
      rc=1
    fi
  done
  # the adjoint's loops run backwards from a count the front end wrote
  if [ $k != tangent ] && ! grep -q 'for (k = (.* - 1); k >= 0; k = (k - 1))\|for (i = (.* - 1); i >= 0; i = (i - 1))' "$out"; then
    echo "FAIL $k: no backward loop from a count less one"
    rc=1
  fi
done
[ $rc = 0 ] && echo "tidy: tangent, joint and split read without identities or casts"
exit $rc
