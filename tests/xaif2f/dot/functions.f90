! dot: n=3 m=2
! Functions called inside expressions, one calling another.
double precision function sq(a)
  double precision, intent(in) :: a
  sq = a * a
end function

double precision function blend(a, b)
  double precision, intent(in) :: a, b
  double precision :: sq
  blend = sq(a) + 3.0d0 * sq(b) - a * b
end function

subroutine head(x, y)
  double precision, intent(in) :: x(3)
  double precision, intent(out) :: y(2)
  double precision :: blend, sq
!$openad INDEPENDENT(x)
  y(1) = blend(x(1), x(2)) * x(3)
  y(2) = sq(blend(x(3), x(1))) + sq(x(2))
!$openad DEPENDENT(y)
end subroutine
