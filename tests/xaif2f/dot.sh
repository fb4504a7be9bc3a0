#!/bin/sh
# dot.sh XAIFORM SRC NAME WORK: the dot-product test of the Fortran back end
# on tests/xaif2f/dot/NAME.f90 (with NAME_mod.f90, its module, if present).
# f2xaif makes its xaif; the program, its tangent and its adjoint (joint and
# split) are written by xaif2f and compiled by gfortran ($XF_FC) with
# -std=f2008 -Wall -Werror and run-time checks;
# a driver takes one tangent direction xd and one adjoint seed yb and
# checks <yb, J xd> = <J^T yb, xd>
# to 1e-12 relative, the tangent's values against the source's (compiled as
# it is) to 1e-13, the central difference of the source along xd against the
# tangent to 1e-6, and that the tapes are empty after the adjoint. The
# first line of NAME.f90 is "! dot: n=N m=M", the sizes of head(x, y); with
# " goto" after it, the tangent must have a GOTO (an early return, or a graph
# that is not structured), else it must have none. Exit 77 without gfortran.
set -u
xaiform=$1 src=$2 name=$3 work=$4
fc=${XF_FC:-gfortran}
command -v "$fc" >/dev/null 2>&1 || { echo "not run: no Fortran compiler ($fc)"; exit 77; }
dir=$src/tests/xaif2f/dot
f=$dir/$name.f90
head=$(sed -n '1s/^! dot: //p' "$f")
n=$(echo "$head" | sed -n 's/.*n=\([0-9]*\).*/\1/p')
m=$(echo "$head" | sed -n 's/.*m=\([0-9]*\).*/\1/p')
if [ -z "$n" ] || [ -z "$m" ]; then
  echo "$f:1: no '! dot: n=N m=M' line"
  exit 1
fi
w=$work/$name
rm -rf "$w" && mkdir -p "$w" && cd "$w" || exit 1
fail() { echo "FAIL $name: $*"; exit 1; }
set -- "$f"
[ -f "$dir/${name}_mod.f90" ] && set -- "$@" "$dir/${name}_mod.f90"
"$xaiform" f2xaif "$@" --function head -o p.xaif || fail "f2xaif"
"$xaiform" tangent p.xaif -o t.xaif || fail "tangent"
"$xaiform" adjoint p.xaif -o a.xaif || fail "adjoint"
"$xaiform" xaif2f p.xaif -o p.f90 || fail "xaif2f of the program"
"$xaiform" xaif2f t.xaif -o d.f90 || fail "xaif2f of the tangent"
"$xaiform" xaif2f a.xaif -o bj.f90 || fail "xaif2f of the adjoint"
"$xaiform" xaif2f a.xaif --reversal split -o bs.f90 || fail "xaif2f of the split adjoint"
gotos=$(grep -c 'goto' d.f90)
case $head in
*goto*) [ "$gotos" -gt 0 ] || fail "the tangent has no GOTO, its graph is not structured" ;;
*) [ "$gotos" -eq 0 ] || fail "the tangent has $gotos GOTOs, its graph is structured" ;;
esac
cat >driver.f90 <<END
program xf_dot
  use xf_tangent, only: head_d
  use xf_adjoint, only: head_b
  use xaiform_ad, only: xf_words
  implicit none
  external :: head
  integer, parameter :: n = $n, m = $m
  double precision, parameter :: h = 1.0d-6
  double precision :: x(n), xd(n), xb(n), xs(n), y(m), y0(m), yd(m), yb(m), ybar(m), yp(m), ym(m)
  double precision :: lhs, rhs, fd
  integer :: i
  do i = 1, n
    x(i) = 0.6d0 + 0.37d0 * i
    xd(i) = 0.2d0 * mod(7 * i, 5) - 0.3d0
  end do
  do i = 1, m
    ybar(i) = 0.7d0 - 0.25d0 * i
  end do
  xs = x
  call head(xs, y0)
  xs = x
  y = 0.0d0
  yd = 0.0d0
  call head_d(xs, xd, y, yd)
  if (maxval(abs(y - y0)) > 1.0d-13 * max(1.0d0, maxval(abs(y0)))) &
    error stop 'the tangent computes other values than the source'
  lhs = sum(ybar * yd)
  xs = x
  xb = 0.0d0
  yb = ybar
  call head_b(xs, xb, y, yb)
  rhs = sum(xb * xd)
  xs = x + h * xd
  call head(xs, yp)
  xs = x - h * xd
  call head(xs, ym)
  fd = sum(ybar * (yp - ym)) / (2.0d0 * h)
  write (*, '(A,3ES25.16E3)') '<yb, J xd>, <J^T yb, xd>, central difference: ', lhs, rhs, fd
  if (abs(lhs - rhs) > 1.0d-12 * max(abs(lhs), abs(rhs), 1.0d-300)) &
    error stop 'the adjoint disagrees with the tangent'
  if (abs(fd - lhs) > 1.0d-6 * max(abs(lhs), 1.0d0)) &
    error stop 'the tangent disagrees with the central difference'
  if (xf_words() /= 0) error stop 'words left on the tapes'
end program xf_dot
END
# a reversed loop starts at l + s*((u - l)/s): xaif2f writes a truncating
# division of constants as its value, so -Wall has nothing to say
flags="-std=f2008 -Wall -Werror -fcheck=all -ffpe-trap=invalid,zero,overflow"
# the source itself (its module first) is the reference for the values and
# the central difference; xaif2f's program is compiled on its own
set -- "$f"
[ -f "$dir/${name}_mod.f90" ] && set -- "$dir/${name}_mod.f90" "$f"
# shellcheck disable=SC2086 # $flags is a list of options
$fc $flags -c p.f90 >cc.log 2>&1 || { cat cc.log; fail "gfortran on the program"; }
for k in j s; do
  mkdir -p "$k" && cd "$k" || exit 1
  # shellcheck disable=SC2086 # $flags is a list of options
  $fc $flags -o dot "$src/include/xaiform/xaiform_ad.f90" ../d.f90 "../b$k.f90" \
    "$@" ../driver.f90 >cc.log 2>&1 || { cat cc.log; fail "gfortran on the $k adjoint"; }
  ./dot || fail "the run with the $k adjoint"
  cd .. || exit 1
done
echo "PASS $name ($gotos GOTOs in the tangent)"
