! dot: n=6 m=6
! A time loop: forty explicit steps of the heat equation, one call a step.
subroutine diffuse(u, v)
  double precision, intent(in) :: u(6)
  double precision, intent(out) :: v(6)
  integer :: i
  v(1) = u(1)
  v(6) = u(6)
  do i = 2, 5
    v(i) = u(i) + 0.2d0 * (u(i - 1) - 2.0d0 * u(i) + u(i + 1)) + 0.01d0 * u(i) * u(i)
  end do
end subroutine

subroutine head(x, y)
  double precision, intent(in) :: x(6)
  double precision, intent(out) :: y(6)
  double precision :: u(6)
  integer :: t, i
!$openad INDEPENDENT(x)
  do i = 1, 6
    u(i) = x(i)
  end do
  do t = 1, 40
    call diffuse(u, y)
    do i = 1, 6
      u(i) = y(i)
    end do
  end do
!$openad DEPENDENT(y)
end subroutine
