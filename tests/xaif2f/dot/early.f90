! dot: n=3 m=2 goto
! A RETURN inside a branch of a called routine.
subroutine clip(a, b)
  double precision, intent(in) :: a
  double precision, intent(out) :: b
  b = a * a
  if (a > 1.0d0) then
    b = 2.0d0 * a - 1.0d0
    return
  end if
  b = b + 0.5d0 * a
end subroutine

subroutine head(x, y)
  double precision, intent(in) :: x(3)
  double precision, intent(out) :: y(2)
  double precision :: t
!$openad INDEPENDENT(x)
  call clip(x(1), t)
  y(1) = t * x(2)
  call clip(x(3), t)
  y(2) = t + x(1)
!$openad DEPENDENT(y)
end subroutine
