#!/bin/sh
# split.sh XAIFORM CC INCLUDE WORK: the split template resolved when the C
# is written (docs/c-backend.md): the split adjoint of joint/leaf.c has no
# mode record; the leaf sq, called from f, is two functions, sq_fwd (its
# taping sweep) and sq_bwd (its adjoint sweep), each called where f's own
# sweeps call sq; compiled with -Wall -Werror -Wunused, once plain and once with
# -DXF_AD_CHECK, its gradient is right and the tapes are empty
# (joint/main.c). f's loop (3 iterations, 2 pushes each) reserves its
# pushes before it and stores them unchecked (c_reserve.c); with the
# reservation made one iteration short, the checking build stops at the
# push beyond it. A name taken by a variable gets a number (sq_fwd_2).
set -u
xaiform=$1 cc=$2 inc=$3 work=$4
here=$(cd "$(dirname "$0")/joint" && pwd)
mkdir -p "$work" || exit 2
fail() { echo "split.sh: $*" >&2; exit 1; }
# -O tape-off=values: else the loop's partials, which read x (stable since
# sq writes only its own), are recomputed from x handed over once
"$xaiform" grad "$here/leaf.c" --function f --independent x --dependent y --extent x=4,y=1 \
  --mode adjoint --reversal split -O tape-off=values -o "$work/split.c" ||
  fail "grad refused the split adjoint"
! grep -n 'xf_m\b\|xf_ad_mode' "$work/split.c" || fail "the split adjoint has a mode record"
for fn in f_b_tpl sq_fwd sq_bwd; do
  grep -q "^$fn(" "$work/split.c" || fail "no function $fn"
done
! grep -n '^[a-z_]*_tpl_[a-z]*(' "$work/split.c" || fail "a function of the joint template"
# f's taping sweep calls sq_fwd twice, its adjoint sweep sq_bwd twice
sed -n '/^f_b_tpl(/,/^}/p' "$work/split.c" >"$work/top.c"
[ "$(grep -c 'sq_fwd(' "$work/top.c")" = 2 ] || fail "f_b_tpl does not call sq_fwd twice"
[ "$(grep -c 'sq_bwd(' "$work/top.c")" = 2 ] || fail "f_b_tpl does not call sq_bwd twice"
# the sweeps of sq share the tape: sq_fwd pushes, sq_bwd pops
sed -n '/^sq_fwd(/,/^}/p' "$work/split.c" | grep -q 'xf_ad_push' || fail "sq_fwd tapes nothing"
sed -n '/^sq_bwd(/,/^}/p' "$work/split.c" | grep -q 'xf_ad_pop' || fail "sq_bwd pops nothing"
# the loop's growth check hoisted: one reserve of 2 per iteration, unchecked pushes
grep -q 'xf_ad_reserve(&xf_ad_s\.tape, 2L \* ((long)(3) > (long)(i)' "$work/top.c" ||
  fail "f's loop reserves nothing"
[ "$(grep -c 'xf_ad_push_nc(&xf_ad_s\.tape' "$work/top.c")" = 2 ] || fail "f's loop pushes checked"
sed 's/((long)(3) - (long)(i) + 0L)/((long)(3) - (long)(i) - 1L)/' "$work/split.c" >"$work/short.c"
! cmp -s "$work/split.c" "$work/short.c" || fail "could not shorten the reservation"
$cc -std=c99 -O2 -DXF_AD_CHECK -I"$inc" "$work/short.c" "$here/main.c" -o "$work/short" -lm ||
  fail "short.c does not compile"
"$work/short" >"$work/short.out" 2>&1 && fail "a push beyond the room reserved went unnoticed"
grep -q 'a push beyond the room reserved for reals' "$work/short.out" ||
  fail "the checking build did not name the push beyond the room reserved"
for d in "" -DXF_AD_CHECK; do
  # shellcheck disable=SC2086 # d is one flag or none
  $cc -std=c99 -Wall -Werror -Wunused -O2 $d -I"$inc" "$work/split.c" "$here/main.c" -o "$work/split" -lm ||
    fail "split.c $d does not compile"
  "$work/split" || fail "split $d: the gradient is wrong"
done
# a caller's variable named sq_fwd: sq's taping sweep takes sq_fwd_2
cat >"$work/clash.c" <<'END'
static double sq(double w) { return 1.0 - w * w; }
void f(const double *x, double *y)
{
    double sq_fwd = x[1];
    y[0] = sq(x[0]) * sq_fwd;
}
END
"$xaiform" grad "$work/clash.c" --function f --independent x --dependent y --extent x=2,y=1 \
  --mode adjoint --reversal split -o "$work/clash_b.c" || fail "grad refused clash.c"
grep -q '^sq_fwd_2(' "$work/clash_b.c" || fail "no sq_fwd_2 beside the variable sq_fwd"
$cc -std=c99 -Wall -Werror -Wunused -O2 -I"$inc" -c "$work/clash_b.c" -o "$work/clash_b.o" ||
  fail "clash_b.c does not compile"
echo "split.sh: resolved split adjoint right"
