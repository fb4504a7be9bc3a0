#!/bin/sh
# argorder.sh XAIFORM ARGORDER_C WORK
# Pass argpush (transforms/core/argpush.c) sees a callee that follows its
# caller: in tests/grad/argorder.c, argorder calls mix, which names not its
# integer formal k, in a loop whose counter it passes there; the C front
# end writes argorder first. Its adjoints (split and joint reversal) push
# as many integers as those of the same code with the calls of mix
# replaced by a copy; wsum's run-time extent keeps its pair in both (so
# the count is not 0).
# golden.grad checks the gradient itself. Exit 1 on a failure.
xaiform=$1 src=$2 work=$3
mkdir -p "$work" || exit 1
# the same with the loop of mix calls copying instead (no call of mix)
sed 's/^        mix(i, &x\[2 \* i\], &y\[2 \* i\]);$/        y[2 * i] = x[2 * i];/' "$src" \
  >"$work/nomix.c" || exit 1
! grep -q ' mix(i,' "$work/nomix.c" || { echo "FAIL: the call of mix is still in nomix.c"; exit 1; }
rc=0
for rev in split joint; do
  for v in asis nomix; do
    in=$src
    [ $v = nomix ] && in=$work/nomix.c
    "$xaiform" grad "$in" --function argorder --independent x --dependent y --extent x=4 \
      --extent y=4 --mode adjoint --reversal $rev -o "$work/$v.$rev.c" 2>"$work/$v.err" ||
      { echo "FAIL grad $v $rev: $(head -1 "$work/$v.err")"; exit 1; }
  done
  a=$(grep -c 'xf_ad_ipush' "$work/asis.$rev.c") f=$(grep -c 'xf_ad_ipush' "$work/nomix.$rev.c")
  [ "$f" -gt 0 ] || { echo "FAIL $rev: no integer push at all (wsum's m must stay)"; rc=1; }
  [ "$a" = "$f" ] ||
    { echo "FAIL $rev: the calls of mix push integers ($a pushes with them, $f without)"; rc=1; }
done
[ $rc = 0 ] && echo "argorder: the calls of mix (after argorder) push no integer"
exit $rc
