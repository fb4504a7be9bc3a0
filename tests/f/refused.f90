! tests/f2xaif.cmake: a GOTO, which the front end refuses.
subroutine head(x, y)
  double precision, intent(in) :: x(1)
  double precision, intent(out) :: y(1)
  y(1) = x(1)
  goto 10
10 y(1) = 2.0d0 * y(1)
end subroutine
