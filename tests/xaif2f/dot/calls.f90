! dot: n=4 m=3
! Subroutine calls with arrays and scalars, two levels deep.
subroutine scale_add(n, a, v, w)
  integer, intent(in) :: n
  double precision, intent(in) :: a
  double precision, intent(in) :: v(n)
  double precision, intent(inout) :: w(n)
  integer :: k
  do k = 1, n
    w(k) = w(k) + a * v(k)
  end do
end subroutine

subroutine norm2sq(n, v, s)
  integer, intent(in) :: n
  double precision, intent(in) :: v(n)
  double precision, intent(out) :: s
  integer :: k
  s = 0.0d0
  do k = 1, n
    s = s + v(k) * v(k)
  end do
end subroutine

subroutine step(n, v, w, s)
  integer, intent(in) :: n
  double precision, intent(in) :: v(n)
  double precision, intent(inout) :: w(n)
  double precision, intent(out) :: s
  call norm2sq(n, v, s)
  call scale_add(n, s, v, w)
end subroutine

subroutine head(x, y)
  double precision, intent(in) :: x(4)
  double precision, intent(out) :: y(3)
  double precision :: w(4), s
  integer :: k
!$openad INDEPENDENT(x)
  do k = 1, 4
    w(k) = x(5 - k)
  end do
  call step(4, x, w, s)
  call scale_add(4, x(1), x, w)
  y(1) = w(1) * w(2)
  y(2) = w(3) + w(4)
  y(3) = s
!$openad DEPENDENT(y)
end subroutine
