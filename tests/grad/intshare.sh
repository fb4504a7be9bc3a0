#!/bin/sh
# intshare.sh XAIFORM INTSHARE_C WORK
# Pass argpush (transforms/core/argpush.c) on tests/grad/intshare.c, whose
# callee acc follows its caller in the file and names its integer formal m
# only to set a loop bound k (its adjoint pops the bound):
#  - the C front end writes acc first, so argpush judges it by its own
#    adjoint: the caller's functions in the adjoint C (joint and split)
#    push no integer (3, one a call, while acc came later);
#  - the same xaif with the three calls passing one temporary
#    (OAD_CTMP0, set before each call), which adjoin then saves in one
#    temporary: the adjoints (joint and split) tape 9 integers in a run of
#    three sweeps, acc's bounds only (18 while a shared temporary kept its
#    pairs), and their Jacobians equal the tangent's.
# golden.grad checks intshare.c's gradient. Exit 1 on a failure.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/gradlib.sh"
for r in joint split; do
  "$xaiform" grad "$src" --function intshare --independent x --dependent y --extent x=3 \
    --extent y=3 --mode adjoint --reversal "$r" -o "$work/$r.c" 2>"$work/$r.err" ||
    { fail "grad --reversal $r: $(head -1 "$work/$r.err")"; continue; }
  # the bodies of the caller's functions (intshare_b, intshare_b_tpl, ...)
  n=$(sed -n '/^intshare[a-z_]*(/,/^}/p' "$work/$r.c" | grep -c 'xf_ad_ipush')
  b=$(grep -c '^intshare[a-z_]*(' "$work/$r.c")
  [ "$b" -gt 0 ] || fail "$r: no function of intshare in the adjoint"
  [ "$n" = 0 ] || fail "$r: the caller pushes $n integers"
done
"$xaiform" c2xaif "$src" --function intshare --independent x --dependent y --extent x=3 \
  --extent y=3 -o "$work/in.xaif" || exit 1
sed '/SymbolReference/s/"OAD_CTMP[12]"/"OAD_CTMP0"/' "$work/in.xaif" >"$work/shared.xaif" || exit 1
[ "$(grep -c 'SymbolReference.*"OAD_CTMP0"' "$work/shared.xaif")" -ge 6 ] ||
  { echo "FAIL the calls do not share OAD_CTMP0"; exit 1; }
against_tangent "$work/shared.xaif" intshare 3 3
for r in joint split; do
  pushed "$r" | grep -q 'integer 9,' || fail "$r (one temporary): $(pushed "$r")"
done
[ $rc = 0 ] && echo "intshare: the caller pushes no integer (C; joint, split); 9 integer words with one temporary"
exit $rc
