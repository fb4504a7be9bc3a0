! dot: n=4 m=3
! Branches on values in nested loops, a whole-array assignment.
subroutine head(x, y)
  double precision, intent(in) :: x(4)
  double precision, intent(out) :: y(3)
  double precision :: w(4)
  integer :: i, j
!$openad INDEPENDENT(x)
  w = 2.0d0 * x
  y(1) = 0.0d0
  y(2) = 0.0d0
  y(3) = 0.0d0
  do i = 1, 4
    do j = i, 4
      if (w(i) < w(j)) then
        y(1) = y(1) + w(j) - w(i)
      else
        y(2) = y(2) + w(i) * w(j)
      end if
    end do
    if (w(i) > 2.5d0) y(3) = y(3) + sqrt(w(i))
  end do
!$openad DEPENDENT(y)
end subroutine
