#!/bin/sh
# intargs.sh XAIFORM OPENAD_DIR WORK
# Pass argpush (transforms/core/argpush.c) on the corpus's Loop_simple_16a:
# head calls foo four times with loop bounds and strides that change
# between the calls (1,3,1 / 3,1,-1 / 1,5,2 / 5,1,-2, through the front
# end's temporaries). foo's reversed loop evaluates its bounds again from
# the formals, which nothing in foo writes (reverse.c), so foo pushes
# nothing. Under joint reversal the template restores the formals, and
# pass argpush leaves out head's copies too: no integer push at all, no
# integer word in a run (15 pushes and 96 words without argpush and the
# bound rule). Under split reversal foo's adjoint reads the formals' values
# of the taping sweep, so head pushes its 12 copies: 48 integer words, as
# when foo pushed its count. The interpreter (xaiform run) gives each
# adjoint's Jacobian equal to the tangent's. Exit 1 on a failure.
xaiform=$1 in=$2/Loop_simple_16a work=$3
mkdir -p "$work" || exit 1
rc=0
fail() {
  echo "FAIL $*"
  rc=1
}
if ! "$xaiform" tangent "$in/adm.xaif" -o "$work/t.xaif" ||
  ! "$xaiform" run "$work/t.xaif" --driver tangent --params "$in/params.conf" >"$work/t.out"; then
  echo "FAIL the tangent or its run"
  exit 1
fi
for r in joint split; do
  "$xaiform" adjoint "$in/adm.xaif" -o "$work/$r.xaif" --reversal "$r" ||
    { fail "adjoint --reversal $r"; continue; }
  want=0 words=0
  [ "$r" = split ] && want=12 words=48
  n=$(grep -c 'subroutine_name="push_i_s0"' "$work/$r.xaif")
  [ "$n" = "$want" ] || fail "$r: $n integer pushes in the adjoint, $want expected"
  "$xaiform" run "$work/$r.xaif" --driver "adjoint-$r" --params "$in/params.conf" --stats \
    >"$work/$r.out" 2>"$work/$r.stats" || { fail "$r: the adjoint's run"; continue; }
  cmp -s "$work/t.out" "$work/$r.out" || fail "$r: the Jacobian differs from the tangent's"
  grep 'tape pushed' "$work/$r.stats" | grep -q "integer $words," ||
    fail "$r: $(grep 'tape pushed' "$work/$r.stats")"
done
[ $rc = 0 ] && echo "intargs: Jacobians equal; joint 0 integer pushes, split 12 (48 words)"
exit $rc
