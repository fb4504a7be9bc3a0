! tests/f2xaif.cmake: a loop, a branch, a call, intrinsics and a module
! variable, through xaiform f2xaif.
subroutine square_sum(a, b, s)
  double precision, intent(in) :: a, b
  double precision, intent(out) :: s
  s = a * a + b * b
end subroutine

double precision function twice(v)
  double precision, intent(in) :: v
  twice = 2.0d0 * v
end function

subroutine head(x, y)
  use sample_mod
  double precision, dimension(3), intent(in) :: x
  double precision, dimension(3), intent(out) :: y
  double precision :: twice
  integer :: i
!$openad INDEPENDENT(x)
  scale = 2.0d0
  y(1) = 0.0d0
  do i = 1, 3
    y(1) = y(1) + sin(x(i)) * scale
  end do
  if (x(1) > x(2)) then
    y(2) = exp(x(1))
  else if (x(2) > 1.0d0) then
    y(2) = sqrt(x(2))
  else
    y(2) = max(x(1), x(3))
  end if
  call square_sum(x(1), x(3), y(3))
  y(3) = y(3) + twice(x(2))
!$openad DEPENDENT(y)
end subroutine
