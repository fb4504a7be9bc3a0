! dot: n=4 m=4
! The catalogue's intrinsics, powers, max and min.
subroutine head(x, y)
  double precision, intent(in) :: x(4)
  double precision, intent(out) :: y(4)
!$openad INDEPENDENT(x)
  y(1) = sin(x(1)) * cos(x(2)) + tan(x(3) / 4.0d0)
  y(2) = exp(x(1) / 3.0d0) * log(x(2)) + sqrt(x(3)) - log10(x(4))
  y(3) = tanh(x(1)) + atan(x(2)) + abs(x(3) - 2.0d0) + sinh(x(4) / 5.0d0) + cosh(x(1) / 7.0d0)
  y(4) = x(1) ** 3 + x(2) ** x(3) + max(x(1), x(4)) * min(x(2), x(3)) + asin(x(1) / 4.0d0) &
         + acos(x(2) / 5.0d0)
!$openad DEPENDENT(y)
end subroutine
