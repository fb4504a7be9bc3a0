#!/bin/sh
# trifac.sh XAIFORM GRAD_DIR WORK
# Element-wise stability of array reads (transforms/tape/tbr_region.c):
#  - tests/grad/trifac.c, a triangular factor like tests/cgrad/cholesky.c:
#    the joint adjoint reads the partials l[i*n+k], l[j*n+k] in place,
#    96 reals taped a run (before: 416);
#  - tests/grad/trinot.c, the same nest run twice: the second pass writes
#    the elements the first one's partials read, after the read, so they
#    stay taped: 256 reals or more under joint and split (as before);
#  - each adjoint's Jacobian (xaiform run, joint and split) equals the
#    tangent's to 1e-12 relative (the C of `grad` is checked by golden.grad).
# Exit 1 on a failure.
xaiform=$1 dir=$2 work=$3
mkdir -p "$work" || exit 1
rc=0
fail() {
  echo "FAIL $*"
  rc=1
}
# same A B: the Jacobians printed by `xaiform run` (F(i, j)= v) agree
# to 1e-12 relative
same() {
  awk '
    function abs(x) { return x < 0 ? -x : x }
    !/=/ { next }
    { sub(/.*=/, ""); x = $0 + 0 }
    NR == FNR { a[FNR] = x; n++; next }
    {
      m = abs(a[FNR]) > abs(x) ? abs(a[FNR]) : abs(x)
      if (!(FNR in a) || abs(a[FNR] - x) > 1e-12 * m) bad = 1
      k++
    }
    END { exit bad || n == 0 || n != k }' "$1" "$2"
}
# real REV: the real words REV's run pushed on the tape
real() { sed -n 's/.*tape pushed [0-9]* (real \([0-9]*\),.*/\1/p' "$w/$1.stats"; }
for f in trifac trinot; do
  w=$work/$f
  mkdir -p "$w" || exit 1
  if ! "$xaiform" c2xaif "$dir/$f.c" --function $f --independent x --dependent y -o "$w/in.xaif" ||
    ! "$xaiform" tangent "$w/in.xaif" -o "$w/t.xaif" ||
    ! "$xaiform" run "$w/t.xaif" --driver tangent --top $f -n 16 -m 16 >"$w/t.out" 2>/dev/null; then
    fail "$f: the tangent or its run"
    continue
  fi
  for r in joint split; do
    if ! "$xaiform" adjoint "$w/in.xaif" --reversal $r -o "$w/$r.xaif" ||
      ! "$xaiform" run "$w/$r.xaif" --driver adjoint-$r --top $f -n 16 -m 16 --stats \
        >"$w/$r.out" 2>"$w/$r.stats"; then
      fail "$f $r: the adjoint or its run"
      continue
    fi
    same "$w/t.out" "$w/$r.out" || fail "$f $r: the Jacobian differs from the tangent's"
  done
  j=$(real joint) s=$(real split)
  case $f in
  trifac)
    [ -n "$j" ] && [ "$j" -le 96 ] || fail "trifac joint: $j reals taped (at most 96: l read in place)"
    ;;
  trinot)
    for r in joint split; do
      n=$(real $r)
      [ -n "$n" ] && [ "$n" -ge 256 ] || fail "trinot $r: $n reals taped (at least 256: l overwritten)"
    done
    ;;
  esac
  echo "$f: reals taped joint $j, split $s"
done
exit $rc
