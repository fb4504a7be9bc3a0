#!/bin/sh
# calldead.sh XAIFORM CALLDEAD_C WORK
# A store of the joint taping sweep whose value only the caller needs
# goes although the adjoint sweep calls a routine (transforms/simplify/
# deadstore.c): cstep_b_tpl_rev in tests/grad/calldead.c runs the store
# h[i] = ... in its forward part no more (it did before), while the
# plain and restoring runs keep it. golden.grad checks the gradient.
# Exit 1 on a failure.
xaiform=$1 src=$2 work=$3
mkdir -p "$work" || exit 1
"$xaiform" grad "$src" --function cdobj --independent x --dependent y --mode adjoint \
  --extent cstep:w=2*n,cstep:h=n,cstep:c=n --reversal joint -o "$work/joint.c" \
  2>"$work/joint.err" || { echo "FAIL grad --reversal joint: $(head -1 "$work/joint.err")"; exit 1; }
# the stores to h in the body of cstep_b_tpl_rev (its restore h[xf_k] aside)
r=$(sed -n '/^cstep_b_tpl_rev(/,/^}/p' "$work/joint.c" | grep -c '^ *h\[[^x]*\] = ')
a=$(grep -c '^ *h\[[^x]*\] = ' "$work/joint.c")
rc=0
[ "$r" = 0 ] || { echo "FAIL cstep_b_tpl_rev stores h $r times"; rc=1; }
[ "$a" -ge 1 ] || { echo "FAIL no variant stores h: the test no longer tests"; rc=1; }
[ $rc = 0 ] && echo "calldead: the taping sweep leaves out h[i] = ... ($a stores elsewhere)"
exit $rc
