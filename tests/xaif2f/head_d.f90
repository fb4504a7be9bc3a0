! its tangent-linear code (forward mode).
!
! Arguments are passed by reference and arrays keep their declared bounds,
! as in the source. The routines and the global variables (with their
! derivatives) are in module xf_tangent: 'use xf_tangent' to call them.
! Tangent: routine f is f_d; each active real argument x is followed by
! its derivative xd. On return yd = J * xd for every output y.
! Routines: head_d (head__1).

module xf_tangent
  implicit none

contains

subroutine head_d(x, xd, y, yd)
  double precision :: x(1:2)
  double precision :: xd(1:2)
  double precision :: y(1:1)
  double precision :: yd(1:1)
  double precision :: t
  double precision :: td
  integer :: i
  double precision :: openad_aux
  double precision :: openad_aux_1
  double precision :: openad_lin
  double precision :: openad_lin_1
  double precision :: openad_lin_2
  double precision :: openad_acc
  double precision :: openad_acc_1
  t = 0.0d0
  td = 0.0d0
  i = 0
  openad_aux = 0.0d0
  openad_aux_1 = 0.0d0
  openad_lin = 0.0d0
  openad_lin_1 = 0.0d0
  openad_lin_2 = 0.0d0
  openad_acc = 0.0d0
  openad_acc_1 = 0.0d0
  t = 0.00000000000000000d+00
  td = 0.0d0
  do i = 1, 2
    openad_aux = sin(x(i))
    openad_aux_1 = (openad_aux * x(i))
    openad_lin = cos(x(i))
    openad_lin_1 = x(i)
    openad_lin_2 = openad_aux
    t = (t + openad_aux_1)
    openad_acc = (openad_lin * openad_lin_1)
    openad_acc_1 = (openad_lin_2 + openad_acc)
    td = td + (openad_acc_1) * xd(i)
  end do
  y(1) = t
  yd(1) = td
end subroutine head_d

end module xf_tangent
