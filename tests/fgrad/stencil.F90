! tests/fgrad: free form through the preprocessor (.F90), a rank-2 local
! array with a lower bound of 0, nested loops, a one-line IF in a loop and
! a whole-array assignment.
#define NSTEP 3
subroutine head(x, y)
  implicit none
  double precision, intent(in) :: x(6)
  double precision, intent(out) :: y(6)
  double precision :: u(0:7, 2)
  integer :: i, s
  u = 0.0d0
  do i = 1, 6
    u(i, 1) = x(i)
  end do
  do s = 1, NSTEP
    do i = 1, 6
      u(i, 2) = u(i, 1) + 0.1d0 * (u(i - 1, 1) - 2.0d0 * u(i, 1) + u(i + 1, 1))
      if (u(i, 2) > 0.9d0) u(i, 2) = 0.9d0 + 0.5d0 * (u(i, 2) - 0.9d0)
    end do
    do i = 1, 6
      u(i, 1) = tanh(u(i, 2)) + 0.25d0 * u(i, 2) * u(i, 2)
    end do
  end do
  do i = 1, 6
    y(i) = u(i, 1)
  end do
end subroutine
