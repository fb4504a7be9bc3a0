! dot: n=4 m=3
! Two-dimensional arrays in nested loops: y = A(x) x with A built from x.
subroutine head(x, y)
  double precision, intent(in) :: x(4)
  double precision, intent(out) :: y(3)
  double precision :: a(3, 4)
  integer :: i, j
!$openad INDEPENDENT(x)
  do j = 1, 4
    do i = 1, 3
      a(i, j) = x(j) / dble(i + j) + cos(x(i))
    end do
  end do
  do i = 1, 3
    y(i) = 0.0d0
    do j = 1, 4
      y(i) = y(i) + a(i, j) * x(j)
    end do
  end do
!$openad DEPENDENT(y)
end subroutine
