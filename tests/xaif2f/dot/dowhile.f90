! dot: n=2 m=2
! DO WHILE: a fixed number of Newton steps for sqrt(x(1)), counted in the condition.
subroutine head(x, y)
  double precision, intent(in) :: x(2)
  double precision, intent(out) :: y(2)
  double precision :: r
  integer :: k
!$openad INDEPENDENT(x)
  r = x(2)
  k = 0
  do while (k < 6)
    r = 0.5d0 * (r + x(1) / r)
    k = k + 1
  end do
  y(1) = r
  y(2) = r * x(2)
!$openad DEPENDENT(y)
end subroutine
