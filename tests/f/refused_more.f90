! tests/f2xaif_constructs.cmake: constructs the front end refuses, each in
! its own top routine, with FILE:LINE:COL and what to write instead.
subroutine varsec(x, y, n)
  double precision, intent(in) :: x(4)
  double precision, intent(out) :: y(3)
  integer, intent(in) :: n
  y(1:2) = x(n:n + 1)
end subroutine

subroutine varalloc(x, y, n)
  double precision, intent(in) :: x(4)
  double precision, intent(out) :: y(3)
  integer, intent(in) :: n
  double precision, allocatable :: a(:)
  allocate(a(n))
  a(1) = x(1)
  y(1) = a(1)
end subroutine

subroutine stride(x, y)
  double precision, intent(in) :: x(4)
  double precision, intent(out) :: y(2)
  y = x(1:4:2)
end subroutine

subroutine gotoend(x, y)
  double precision, intent(in) :: x(4)
  double precision, intent(out) :: y(3)
  integer :: i
  y = 0.0d0
  do i = 1, 3
    if (x(i) > 1.0d0) goto 10
    y(i) = x(i)
10 end do
end subroutine
