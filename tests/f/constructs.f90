! tests/f2xaif_constructs.cmake: one routine per construct of Fortran that
! the front end lowers (sections, ranks above 3, SELECT CASE, GOTO,
! ALLOCATE, inquiry intrinsics, maxloc and minloc, transpose, optional
! arguments, a DO loop whose step is a variable, a copy of an assumed-shape
! array, sections passed to routines). Each is a top routine of x(4) and
! y(3).

module constructs_opt
contains
subroutine opt(r, o, out)
  double precision, intent(in) :: r
  double precision, optional, intent(in) :: o
  double precision, intent(out) :: out
  if (present(o)) then
    out = r * o
  else
    out = r
  end if
end subroutine

  subroutine cp(a, b)
    double precision, intent(in) :: a(:)
    double precision, intent(out) :: b(:)
    b = a
  end subroutine
end module

subroutine sections(x, y)
  double precision, intent(in) :: x(4)
  double precision, intent(out) :: y(3)
  double precision :: t(2, 3)
!$openad INDEPENDENT(x)
  t(1, :) = x(2:4)
  t(2, :) = 2.0d0 * x(:3)
  y = t(1, :) * t(2, :)
!$openad DEPENDENT(y)
end subroutine

subroutine rank4(x, y)
  double precision, intent(in) :: x(4)
  double precision, intent(out) :: y(3)
  double precision :: z(2, 1, 1, 2), w(1, 1, 1, 1, 2)
!$openad INDEPENDENT(x)
  z = 0.0d0
  z(1, 1, 1, 2) = x(1) * x(2)
  z(2, 1, 1, 1) = x(1)
  w(1, 1, 1, 1, :) = x(3:4)
  y(1) = z(1, 1, 1, 2) + z(2, 1, 1, 1)**2
  y(2) = w(1, 1, 1, 1, 2) * w(1, 1, 1, 1, 1)
  y(3) = z(2, 1, 1, 2) + 1.0d0
!$openad DEPENDENT(y)
end subroutine

subroutine cases(x, y)
  double precision, intent(in) :: x(4)
  double precision, intent(out) :: y(3)
  integer :: k
!$openad INDEPENDENT(x)
  do k = 1, 3
    select case (k)
    case (1)
      y(k) = 3.0d0 * x(1)
    case (2:3)
      y(k) = x(k)**2
    case default
      y(k) = 0.0d0
    end select
  end do
!$openad DEPENDENT(y)
end subroutine

subroutine jumps(x, y)
  double precision, intent(in) :: x(4)
  double precision, intent(out) :: y(3)
  integer :: i
!$openad INDEPENDENT(x)
  y = 0.0d0
  i = 0
5 i = i + 1
  if (x(i) > 0.6d0) goto 10
  y(i) = x(i)
  goto 20
10 y(i) = 5.0d0 * x(i)
20 if (i < 3) goto 5
!$openad DEPENDENT(y)
end subroutine

subroutine allocs(x, y)
  double precision, intent(in) :: x(4)
  double precision, intent(out) :: y(3)
  double precision, allocatable :: a(:)
!$openad INDEPENDENT(x)
  y = 0.0d0
  if (.not. allocated(a)) y(2) = x(2)
  allocate(a(3))
  a = 2.0d0 * x(1:3)
  if (allocated(a)) then
    y(1) = a(1) * a(3)
  else
    y(1) = 0.0d0
  end if
  deallocate(a)
  if (allocated(a)) y(3) = x(3)
!$openad DEPENDENT(y)
end subroutine

subroutine inquiry(x, y)
  use constructs_opt
  double precision, intent(in) :: x(4)
  double precision, intent(out) :: y(3)
  double precision :: a(2, 2), b(2, 2)
!$openad INDEPENDENT(x)
  a(1, 1) = x(1)
  a(1, 2) = x(2)
  a(2, 1) = x(3)
  a(2, 2) = x(4)
  b = transpose(a)
  y(1) = b(2, 1) * ubound(x, 1)
  y(2) = size(a) * b(1, 2) + lbound(a, 2)
  call opt(x(4), x(1), y(3))
!$openad DEPENDENT(y)
end subroutine

subroutine steps(x, y)
  double precision, intent(in) :: x(4)
  double precision, intent(out) :: y(3)
  integer :: i, s
!$openad INDEPENDENT(x)
  y = 1.0d0
  s = -1
  do i = 4, 1, s
    y(1) = y(1) * x(i)
  end do
  s = 2
  do i = 1, 4, s
    y(2) = y(2) * x(i)
    s = 5
  end do
!$openad DEPENDENT(y)
end subroutine

subroutine copies(x, y)
  use constructs_opt
  double precision, intent(in) :: x(4)
  double precision, intent(out) :: y(3)
  double precision :: t(4)
!$openad INDEPENDENT(x)
  call cp(x, t)
  y(1) = t(2) * t(3)
  y(2) = t(4)
  y(3) = 0.0d0
!$openad DEPENDENT(y)
end subroutine

subroutine secargs(x, y)
  double precision, intent(in) :: x(4)
  double precision, intent(out) :: y(3)
  double precision :: m(2, 4)
!$openad INDEPENDENT(x)
  m(1, :) = x
  m(2, :) = 2.0d0 * x
  call product2(m(:, 3), y(1))
  call triple2(m(2, 2:3))
  y(2) = m(2, 2) * m(2, 3)
  y(3) = m(2, 4)
!$openad DEPENDENT(y)
end subroutine

subroutine product2(a, p)
  double precision, intent(in) :: a(2)
  double precision, intent(out) :: p
  p = a(1) * a(2)
end subroutine

subroutine triple2(b)
  double precision, intent(inout) :: b(2)
  b(1) = 3.0d0 * b(1)
  b(2) = 3.0d0 * b(2)
end subroutine

subroutine locs(x, y)
  double precision, intent(in) :: x(4)
  double precision, intent(out) :: y(3)
  double precision :: v(0:2)
!$openad INDEPENDENT(x)
  v(0) = x(1)
  v(1) = x(3)
  v(2) = x(2)
  y(1:1) = v(maxloc(v) - 1)
  y(2) = 2.0d0 * v(minloc(v, 1) - 1)
  y(3) = 0.0d0
!$openad DEPENDENT(y)
end subroutine
