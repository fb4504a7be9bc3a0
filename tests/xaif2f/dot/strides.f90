! dot: n=6 m=2
! DO loops with negative and non-unit steps.
subroutine head(x, y)
  double precision, intent(in) :: x(6)
  double precision, intent(out) :: y(2)
  integer :: i
!$openad INDEPENDENT(x)
  y(1) = 1.0d0
  do i = 6, 1, -1
    y(1) = y(1) * 0.5d0 + x(i)
  end do
  y(2) = 0.0d0
  do i = 1, 6, 2
    y(2) = y(2) + x(i) * x(i + 1)
  end do
!$openad DEPENDENT(y)
end subroutine
