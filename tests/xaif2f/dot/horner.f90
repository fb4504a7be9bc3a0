! dot: n=3 m=2
! A loop carrying a scalar: Horner's rule for two polynomials.
subroutine head(x, y)
  double precision, intent(in) :: x(3)
  double precision, intent(out) :: y(2)
  double precision :: p, q
  integer :: i
!$openad INDEPENDENT(x)
  p = 0.0d0
  q = 1.0d0
  do i = 1, 3
    p = p * x(1) + x(i) * x(i)
    q = q * x(2) - 0.5d0 * x(i)
  end do
  y(1) = p
  y(2) = q * x(3)
!$openad DEPENDENT(y)
end subroutine
