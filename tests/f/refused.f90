! tests/f2xaif.cmake: an I/O statement, which the front end refuses.
subroutine head(x, y)
  double precision, intent(in) :: x(1)
  double precision, intent(out) :: y(1)
  y(1) = x(1)
  print *, y(1)
  y(1) = 2.0d0 * y(1)
end subroutine
