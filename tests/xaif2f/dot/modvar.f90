! dot: n=3 m=2
! Module variables: an active state set in one routine, read in another.
subroutine setup(x)
  use dotmod
  double precision, intent(in) :: x(3)
  integer :: i
  do i = 1, 3
    state(i) = x(i) * gain
  end do
end subroutine

subroutine combine(r)
  use dotmod
  double precision, intent(out) :: r
  r = state(1) * state(2) + exp(state(3) / 4.0d0)
end subroutine

subroutine head(x, y)
  use dotmod
  double precision, intent(in) :: x(3)
  double precision, intent(out) :: y(2)
!$openad INDEPENDENT(x)
  gain = 1.5d0
  call setup(x)
  call combine(y(1))
  y(2) = state(3) - state(1) * x(2)
!$openad DEPENDENT(y)
end subroutine
