! check.F90: the checks of tests/fgrad/fgrad.sh, for a routine F(x, y) with
! XF_N inputs and XF_M outputs, compiled (by the preprocessor) with F, F_D
! and F_B named: the tangent F_D's Jacobian against central differences of
! F itself (1e-6 relative); with XF_ADJOINT, the adjoint F_B against the
! tangent by the dot-product test <yb, J xd> = <J^T yb, xd> (1e-12
! relative, 5 seeds), yb consumed and the tapes empty after each F_B.
program check
  use xf_tangent, only: F_D
#ifdef XF_ADJOINT
  use xf_adjoint, only: F_B
  use xaiform_ad, only: xf_words
#endif
  implicit none
  integer, parameter :: n = XF_N, m = XF_M
  double precision :: x(n), xp(n), y(m), yp(m), ym(m), xd(n), yd(m)
  double precision :: h, cd, worst
  integer :: i, j
#ifdef XF_ADJOINT
  double precision :: xb(n), yb(m), yb0(m), a, b
  integer :: seed
#endif
  external :: F

  do i = 1, n
    x(i) = 0.3d0 + 0.11d0 * i
  end do
  worst = 0.0d0
  do j = 1, n
    xd = 0.0d0
    xd(j) = 1.0d0
    y = 0.0d0
    yd = 0.0d0
    call F_D(x, xd, y, yd)
    h = 1.0d-6 * max(1.0d0, abs(x(j)))
    xp = x
    xp(j) = x(j) + h
    call F(xp, yp)
    xp(j) = x(j) - h
    call F(xp, ym)
    do i = 1, m
      cd = (yp(i) - ym(i)) / (2.0d0 * h)
      worst = max(worst, abs(yd(i) - cd) / max(1.0d0, abs(cd)))
    end do
  end do
  print '(a, es10.3)', 'check tangent worst ', worst
  if (worst > 1.0d-6) then
    print '(a)', 'FAIL: the tangent differs from central differences'
    error stop 1
  end if

#ifdef XF_ADJOINT
  worst = 0.0d0
  do seed = 1, 5
    do j = 1, n
      xd(j) = sin(1.7d0 * seed + 0.9d0 * j)
    end do
    do i = 1, m
      yb(i) = cos(0.7d0 * seed + 1.3d0 * i)
    end do
    yb0 = yb
    yd = 0.0d0
    call F_D(x, xd, y, yd)
    xb = 0.0d0
    call F_B(x, xb, y, yb)
    a = sum(yb0 * yd)
    b = sum(xb * xd)
    worst = max(worst, abs(a - b) / max(1.0d0, abs(a)))
    if (any(yb /= 0.0d0)) then
      print '(a)', 'FAIL: yb is not consumed'
      error stop 1
    end if
    if (xf_words() /= 0) then
      print '(a, i0, a)', 'FAIL: ', xf_words(), ' words left on the tapes'
      error stop 1
    end if
  end do
  print '(a, es10.3)', 'check adjoint worst ', worst
  if (worst > 1.0d-12) then
    print '(a)', 'FAIL: the dot-product test fails'
    error stop 1
  end if
#endif
end program
