#!/bin/sh
# intargs.sh XAIFORM OPENAD_DIR WORK
# Pass argpush (transforms/core/argpush.c) on the corpus's Loop_simple_16a:
# head calls foo four times with loop bounds and strides that change
# between the calls (1,3,1 / 3,1,-1 / 1,5,2 / 5,1,-2, through the front
# end's temporaries); foo's adjoint pops its loop count and reads none of
# them, so under joint and split reversal head pushes no copy of them:
# the adjoint has 3 push_i_s0 (foo's own), not 15 as without the pass, and
# a run's integer tape is 48 words (96 without). Since foo's loop bounds,
# formals nothing writes, are read again instead of taped
# (transforms/core/fixedint.h), the joint adjoint pushes no integer at
# all (0 sites, 0 words); the split one keeps head's copies of the
# arguments foo's adjoint now reads (12 sites, still 48 words a run).
# The interpreter (xaiform run) gives each adjoint's Jacobian equal to
# the tangent's. Exit 1 on a failure.
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
  n=$(grep -c 'subroutine_name="push_i_s0"' "$work/$r.xaif")
  want=0 words=0
  [ $r = split ] && want=12 words=48
  [ "$n" = $want ] || fail "$r: $n integer pushes in the adjoint, $want expected"
  "$xaiform" run "$work/$r.xaif" --driver "adjoint-$r" --params "$in/params.conf" --stats \
    >"$work/$r.out" 2>"$work/$r.stats" || { fail "$r: the adjoint's run"; continue; }
  cmp -s "$work/t.out" "$work/$r.out" || fail "$r: the Jacobian differs from the tangent's"
  grep 'tape pushed' "$work/$r.stats" | grep -q "integer $words," ||
    fail "$r: $(grep 'tape pushed' "$work/$r.stats")"
done
[ $rc = 0 ] && echo "intargs: integer pushes 0 joint, 12 split; Jacobians equal; 0 and 48 integer words"
exit $rc
