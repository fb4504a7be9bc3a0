! head_grad.f90: the gradient of head (head.f90) by its adjoint head_b,
! which `xaiform grad ... --mode adjoint -o head_b.f90` writes in module
! xf_adjoint, and by central differences, at OpenAD's point x0 = (0.5, 1.0).
program head_grad
  use xf_adjoint, only: head_b
  implicit none
  double precision :: x(2), xb(2), y(1), yb(1), xp(2), yp(1), ym(1)
  double precision, parameter :: h = 1.0d-6
  integer :: i
  external :: head
  x = [0.5d0, 1.0d0]
  xb = 0.0d0
  yb = 1.0d0
  call head_b(x, xb, y, yb) ! xb += J^T yb
  do i = 1, 2
    xp = x
    xp(i) = x(i) + h
    call head(xp, yp)
    xp(i) = x(i) - h
    call head(xp, ym)
    print '(a, i0, a, f17.15, a, f17.15)', 'dy/dx', i, ': adjoint ', xb(i), &
      ', central differences ', (yp(1) - ym(1)) / (2.0d0 * h)
  end do
end program
