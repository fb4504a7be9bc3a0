#!/bin/sh
# callread.sh XAIFORM CALLREAD_C WORK
# Partials read in place across calls of routines that write only their
# own formals and locals, and through subscripts that read formals
# nothing writes (transforms/tape/tbr_values.c): the joint adjoint of
# gate in tests/grad/callread.c tapes no real (4 pushes an iteration
# before). golden.grad checks the gradient
# itself. Exit 1 on a failure.
xaiform=$1 src=$2 work=$3
mkdir -p "$work" || exit 1
"$xaiform" grad "$src" --function crobj --independent x --dependent y --mode adjoint \
  --extent gate:w=2*n,gate:in=n,gate:out=n --reversal joint -o "$work/joint.c" \
  2>"$work/joint.err" || { echo "FAIL grad --reversal joint: $(head -1 "$work/joint.err")"; exit 1; }
# the real pushes on the tape (the global one, or local xf_tr*)
j=$(grep -c 'xf_ad_push[_nc]*(&xf_ad_s\.tape\|xf_tr[0-9]* = ' "$work/joint.c")
rc=0
[ "$j" = 0 ] || { echo "FAIL the joint adjoint tapes $j reals"; rc=1; }
[ $rc = 0 ] && echo "callread: the joint adjoint tapes no real"
exit $rc
