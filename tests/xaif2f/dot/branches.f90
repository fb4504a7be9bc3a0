! dot: n=4 m=2
! IF / ELSE IF / ELSE inside a loop, on values and on the index.
subroutine head(x, y)
  double precision, intent(in) :: x(4)
  double precision, intent(out) :: y(2)
  integer :: i
!$openad INDEPENDENT(x)
  y(1) = 0.0d0
  y(2) = 1.0d0
  do i = 1, 4
    if (x(i) > 1.2d0) then
      y(1) = y(1) + x(i) * x(i)
    else if (mod(i, 2) == 0) then
      y(1) = y(1) - 3.0d0 * x(i)
      y(2) = y(2) * x(i)
    else
      y(2) = y(2) + sin(x(i))
    end if
    if (i == 3) then
      y(2) = y(2) * y(1)
    end if
  end do
!$openad DEPENDENT(y)
end subroutine
