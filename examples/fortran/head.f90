! head.f90: head.c in Fortran, y(1) = sin(x(1))*x(1) + sin(x(2))*x(2),
! summed in a module variable, for `xaiform grad` (README.md;
! docs/fortran-frontend.md).
module head_mod
  implicit none
  double precision :: total
end module

subroutine head(x, y)
  use head_mod
  implicit none
  double precision, intent(in) :: x(2)
  double precision, intent(out) :: y(1)
  integer :: i
  total = 0.0d0
  do i = 1, 2
    total = total + sin(x(i)) * x(i)
  end do
  y(1) = total
end subroutine
