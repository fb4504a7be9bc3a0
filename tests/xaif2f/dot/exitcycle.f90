! dot: n=5 m=2 goto
! EXIT and CYCLE: a graph that is not structured, written with labels.
subroutine head(x, y)
  double precision, intent(in) :: x(5)
  double precision, intent(out) :: y(2)
  integer :: i
!$openad INDEPENDENT(x)
  y(1) = 0.0d0
  y(2) = 0.0d0
  do i = 1, 5
    if (i == 2) cycle
    y(1) = y(1) + x(i) * x(i)
    if (i == 4) exit
    y(2) = y(2) + y(1) * x(i)
  end do
!$openad DEPENDENT(y)
end subroutine
