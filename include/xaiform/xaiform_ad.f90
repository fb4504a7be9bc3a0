! xaiform_ad.f90: the runtime of the adjoint code that `xaiform xaif2f`
! writes (docs/fortran-backend.md). Tapes of reals, integers and logicals,
! the argument checkpoints of the joint reversal, the snapshot frames of
! per-iteration dry-running (ckp_* of docs/checkpointing.md) and OpenAD's
! mode record. Every stack doubles its storage when full: no fixed limit.
! Standard Fortran 2008; one module, no other dependency.
module xaiform_ad
  implicit none
  private

  ! OpenAD's mode record: which placeholders of a template run
  type, public :: xf_mode_t
    logical :: arg_store = .false., arg_restore = .false., plain = .true.
    logical :: tape = .false., adjoint = .false.
  end type xf_mode_t
  type(xf_mode_t), public, save :: xf_m

  type :: rstack
    double precision, allocatable :: v(:)
    integer :: n = 0
  end type rstack
  type :: istack
    integer, allocatable :: v(:)
    integer :: n = 0
  end type istack
  type :: lstack
    logical, allocatable :: v(:)
    integer :: n = 0
  end type lstack

  ! t: the tape; c: argument checkpoints; s: snapshot frames
  type(rstack), save :: tr, cr, sr
  type(istack), save :: ti, ci, si
  type(lstack), save :: tl, cl, sl
  ! the snapshot frames: per frame its iteration and where its values start
  type(istack), save :: frames

  public :: xf_mode_set, xf_release, xf_words, xf_ckp_take, &
    xf_ckp_top, xf_ckp_drop, xf_push_tr, xf_pop_tr, &
    xf_push_tra, xf_pop_tra, xf_push_cr, xf_pop_cr, &
    xf_push_cra, xf_pop_cra, xf_ckp_store_r, xf_ckp_restore_r, &
    xf_ckp_store_ra, xf_ckp_restore_ra, xf_push_ti, xf_pop_ti, &
    xf_push_tia, xf_pop_tia, xf_push_ci, xf_pop_ci, &
    xf_push_cia, xf_pop_cia, xf_ckp_store_i, xf_ckp_restore_i, &
    xf_ckp_store_ia, xf_ckp_restore_ia, xf_push_tl, xf_pop_tl, &
    xf_push_tla, xf_pop_tla, xf_push_cl, xf_pop_cl, &
    xf_push_cla, xf_pop_cla, xf_ckp_store_l, xf_ckp_restore_l, &
    xf_ckp_store_la, xf_ckp_restore_la

  ! the read positions in the newest frame, by kind
  integer, save :: cur_r = 0, cur_i = 0, cur_l = 0
  integer, save :: cur_frame = -1

contains

  subroutine xf_mode_set(arg_store, arg_restore, plain, tape, adjoint)
    logical, intent(in) :: arg_store, arg_restore, plain, tape, adjoint
    xf_m%arg_store = arg_store
    xf_m%arg_restore = arg_restore
    xf_m%plain = plain
    xf_m%tape = tape
    xf_m%adjoint = adjoint
  end subroutine xf_mode_set

  ! words on the stacks now: 0 after a complete adjoint
  integer function xf_words()
    xf_words = tr%n + ti%n + tl%n + cr%n + ci%n + cl%n
  end function xf_words

  subroutine xf_release()
    if (allocated(tr%v)) deallocate(tr%v)
    if (allocated(ti%v)) deallocate(ti%v)
    if (allocated(tl%v)) deallocate(tl%v)
    if (allocated(cr%v)) deallocate(cr%v)
    if (allocated(ci%v)) deallocate(ci%v)
    if (allocated(cl%v)) deallocate(cl%v)
    if (allocated(sr%v)) deallocate(sr%v)
    if (allocated(si%v)) deallocate(si%v)
    if (allocated(sl%v)) deallocate(sl%v)
    if (allocated(frames%v)) deallocate(frames%v)
    tr%n = 0
    ti%n = 0
    tl%n = 0
    cr%n = 0
    ci%n = 0
    cl%n = 0
    sr%n = 0
    si%n = 0
    sl%n = 0
    frames%n = 0
    cur_frame = -1
  end subroutine xf_release

  ! a new frame for iteration k: what follows is stored into it
  subroutine xf_ckp_take(k)
    integer, intent(in) :: k
    call put_i(frames, k)
    call put_i(frames, sr%n)
    call put_i(frames, si%n)
    call put_i(frames, sl%n)
    cur_frame = -1
  end subroutine xf_ckp_take

  ! the iteration of the newest frame; its reads start again from its beginning
  subroutine xf_ckp_top(k)
    integer, intent(out) :: k
    if (frames%n < 4) error stop 'xaiform_ad: ckp_top without a snapshot'
    k = frames%v(frames%n - 3)
    cur_frame = -1
    call frame_check()
  end subroutine xf_ckp_top

  subroutine xf_ckp_drop()
    if (frames%n < 4) error stop 'xaiform_ad: ckp_drop without a snapshot'
    sr%n = frames%v(frames%n - 2)
    si%n = frames%v(frames%n - 1)
    sl%n = frames%v(frames%n)
    frames%n = frames%n - 4
    cur_frame = -1
  end subroutine xf_ckp_drop

  subroutine frame_check()
    if (frames%n < 4) error stop 'xaiform_ad: a snapshot read without a frame'
    if (cur_frame == frames%n) return
    cur_frame = frames%n
    cur_r = frames%v(frames%n - 2)
    cur_i = frames%v(frames%n - 1)
    cur_l = frames%v(frames%n)
  end subroutine frame_check

  subroutine grow_r(s)
    type(rstack), intent(inout) :: s
    double precision, allocatable :: t(:)
    if (.not. allocated(s%v)) then
      allocate(s%v(1024))
    else if (s%n == size(s%v)) then
      allocate(t(2 * size(s%v)))
      t(1:s%n) = s%v(1:s%n)
      call move_alloc(t, s%v)
    end if
  end subroutine grow_r

  subroutine put_r(s, x)
    type(rstack), intent(inout) :: s
    double precision, intent(in) :: x
    if (.not. allocated(s%v)) then
      call grow_r(s)
    else if (s%n == size(s%v)) then
      call grow_r(s)
    end if
    s%n = s%n + 1
    s%v(s%n) = x
  end subroutine put_r

  subroutine take_r(s, x)
    type(rstack), intent(inout) :: s
    double precision, intent(out) :: x
    if (s%n < 1) error stop 'xaiform_ad: a pop from an empty stack'
    x = s%v(s%n)
    s%n = s%n - 1
  end subroutine take_r

  subroutine xf_push_tr(x)
    double precision, intent(in) :: x
    call put_r(tr, x)
  end subroutine xf_push_tr

  subroutine xf_pop_tr(x)
    double precision, intent(out) :: x
    call take_r(tr, x)
  end subroutine xf_pop_tr

  ! an array's elements in order (column-major); the pop fills them from the last
  subroutine xf_push_tra(x, n)
    integer, intent(in) :: n
    double precision, intent(in) :: x(n)
    integer :: j
    do j = 1, n
      call put_r(tr, x(j))
    end do
  end subroutine xf_push_tra

  subroutine xf_pop_tra(x, n)
    integer, intent(in) :: n
    double precision, intent(inout) :: x(n)
    integer :: j
    do j = n, 1, -1
      call take_r(tr, x(j))
    end do
  end subroutine xf_pop_tra

  subroutine xf_push_cr(x)
    double precision, intent(in) :: x
    call put_r(cr, x)
  end subroutine xf_push_cr

  subroutine xf_pop_cr(x)
    double precision, intent(out) :: x
    call take_r(cr, x)
  end subroutine xf_pop_cr

  ! an array's elements in order (column-major); the pop fills them from the last
  subroutine xf_push_cra(x, n)
    integer, intent(in) :: n
    double precision, intent(in) :: x(n)
    integer :: j
    do j = 1, n
      call put_r(cr, x(j))
    end do
  end subroutine xf_push_cra

  subroutine xf_pop_cra(x, n)
    integer, intent(in) :: n
    double precision, intent(inout) :: x(n)
    integer :: j
    do j = n, 1, -1
      call take_r(cr, x(j))
    end do
  end subroutine xf_pop_cra

  ! snapshots: stored in order into the newest frame, restored in the same
  ! order from its start (a frame is read as often as its iteration reruns)
  subroutine xf_ckp_store_r(x)
    double precision, intent(in) :: x
    call put_r(sr, x)
  end subroutine xf_ckp_store_r

  subroutine xf_ckp_restore_r(x)
    double precision, intent(out) :: x
    call frame_check()
    cur_r = cur_r + 1
    if (cur_r > sr%n) error stop 'xaiform_ad: a snapshot read past its frame'
    x = sr%v(cur_r)
  end subroutine xf_ckp_restore_r

  subroutine xf_ckp_store_ra(x, n)
    integer, intent(in) :: n
    double precision, intent(in) :: x(n)
    integer :: j
    do j = 1, n
      call put_r(sr, x(j))
    end do
  end subroutine xf_ckp_store_ra

  subroutine xf_ckp_restore_ra(x, n)
    integer, intent(in) :: n
    double precision, intent(inout) :: x(n)
    integer :: j
    do j = 1, n
      call xf_ckp_restore_r(x(j))
    end do
  end subroutine xf_ckp_restore_ra

  subroutine grow_i(s)
    type(istack), intent(inout) :: s
    integer, allocatable :: t(:)
    if (.not. allocated(s%v)) then
      allocate(s%v(1024))
    else if (s%n == size(s%v)) then
      allocate(t(2 * size(s%v)))
      t(1:s%n) = s%v(1:s%n)
      call move_alloc(t, s%v)
    end if
  end subroutine grow_i

  subroutine put_i(s, x)
    type(istack), intent(inout) :: s
    integer, intent(in) :: x
    if (.not. allocated(s%v)) then
      call grow_i(s)
    else if (s%n == size(s%v)) then
      call grow_i(s)
    end if
    s%n = s%n + 1
    s%v(s%n) = x
  end subroutine put_i

  subroutine take_i(s, x)
    type(istack), intent(inout) :: s
    integer, intent(out) :: x
    if (s%n < 1) error stop 'xaiform_ad: a pop from an empty stack'
    x = s%v(s%n)
    s%n = s%n - 1
  end subroutine take_i

  subroutine xf_push_ti(x)
    integer, intent(in) :: x
    call put_i(ti, x)
  end subroutine xf_push_ti

  subroutine xf_pop_ti(x)
    integer, intent(out) :: x
    call take_i(ti, x)
  end subroutine xf_pop_ti

  ! an array's elements in order (column-major); the pop fills them from the last
  subroutine xf_push_tia(x, n)
    integer, intent(in) :: n
    integer, intent(in) :: x(n)
    integer :: j
    do j = 1, n
      call put_i(ti, x(j))
    end do
  end subroutine xf_push_tia

  subroutine xf_pop_tia(x, n)
    integer, intent(in) :: n
    integer, intent(inout) :: x(n)
    integer :: j
    do j = n, 1, -1
      call take_i(ti, x(j))
    end do
  end subroutine xf_pop_tia

  subroutine xf_push_ci(x)
    integer, intent(in) :: x
    call put_i(ci, x)
  end subroutine xf_push_ci

  subroutine xf_pop_ci(x)
    integer, intent(out) :: x
    call take_i(ci, x)
  end subroutine xf_pop_ci

  ! an array's elements in order (column-major); the pop fills them from the last
  subroutine xf_push_cia(x, n)
    integer, intent(in) :: n
    integer, intent(in) :: x(n)
    integer :: j
    do j = 1, n
      call put_i(ci, x(j))
    end do
  end subroutine xf_push_cia

  subroutine xf_pop_cia(x, n)
    integer, intent(in) :: n
    integer, intent(inout) :: x(n)
    integer :: j
    do j = n, 1, -1
      call take_i(ci, x(j))
    end do
  end subroutine xf_pop_cia

  ! snapshots: stored in order into the newest frame, restored in the same
  ! order from its start (a frame is read as often as its iteration reruns)
  subroutine xf_ckp_store_i(x)
    integer, intent(in) :: x
    call put_i(si, x)
  end subroutine xf_ckp_store_i

  subroutine xf_ckp_restore_i(x)
    integer, intent(out) :: x
    call frame_check()
    cur_i = cur_i + 1
    if (cur_i > si%n) error stop 'xaiform_ad: a snapshot read past its frame'
    x = si%v(cur_i)
  end subroutine xf_ckp_restore_i

  subroutine xf_ckp_store_ia(x, n)
    integer, intent(in) :: n
    integer, intent(in) :: x(n)
    integer :: j
    do j = 1, n
      call put_i(si, x(j))
    end do
  end subroutine xf_ckp_store_ia

  subroutine xf_ckp_restore_ia(x, n)
    integer, intent(in) :: n
    integer, intent(inout) :: x(n)
    integer :: j
    do j = 1, n
      call xf_ckp_restore_i(x(j))
    end do
  end subroutine xf_ckp_restore_ia

  subroutine grow_l(s)
    type(lstack), intent(inout) :: s
    logical, allocatable :: t(:)
    if (.not. allocated(s%v)) then
      allocate(s%v(1024))
    else if (s%n == size(s%v)) then
      allocate(t(2 * size(s%v)))
      t(1:s%n) = s%v(1:s%n)
      call move_alloc(t, s%v)
    end if
  end subroutine grow_l

  subroutine put_l(s, x)
    type(lstack), intent(inout) :: s
    logical, intent(in) :: x
    if (.not. allocated(s%v)) then
      call grow_l(s)
    else if (s%n == size(s%v)) then
      call grow_l(s)
    end if
    s%n = s%n + 1
    s%v(s%n) = x
  end subroutine put_l

  subroutine take_l(s, x)
    type(lstack), intent(inout) :: s
    logical, intent(out) :: x
    if (s%n < 1) error stop 'xaiform_ad: a pop from an empty stack'
    x = s%v(s%n)
    s%n = s%n - 1
  end subroutine take_l

  subroutine xf_push_tl(x)
    logical, intent(in) :: x
    call put_l(tl, x)
  end subroutine xf_push_tl

  subroutine xf_pop_tl(x)
    logical, intent(out) :: x
    call take_l(tl, x)
  end subroutine xf_pop_tl

  ! an array's elements in order (column-major); the pop fills them from the last
  subroutine xf_push_tla(x, n)
    integer, intent(in) :: n
    logical, intent(in) :: x(n)
    integer :: j
    do j = 1, n
      call put_l(tl, x(j))
    end do
  end subroutine xf_push_tla

  subroutine xf_pop_tla(x, n)
    integer, intent(in) :: n
    logical, intent(inout) :: x(n)
    integer :: j
    do j = n, 1, -1
      call take_l(tl, x(j))
    end do
  end subroutine xf_pop_tla

  subroutine xf_push_cl(x)
    logical, intent(in) :: x
    call put_l(cl, x)
  end subroutine xf_push_cl

  subroutine xf_pop_cl(x)
    logical, intent(out) :: x
    call take_l(cl, x)
  end subroutine xf_pop_cl

  ! an array's elements in order (column-major); the pop fills them from the last
  subroutine xf_push_cla(x, n)
    integer, intent(in) :: n
    logical, intent(in) :: x(n)
    integer :: j
    do j = 1, n
      call put_l(cl, x(j))
    end do
  end subroutine xf_push_cla

  subroutine xf_pop_cla(x, n)
    integer, intent(in) :: n
    logical, intent(inout) :: x(n)
    integer :: j
    do j = n, 1, -1
      call take_l(cl, x(j))
    end do
  end subroutine xf_pop_cla

  ! snapshots: stored in order into the newest frame, restored in the same
  ! order from its start (a frame is read as often as its iteration reruns)
  subroutine xf_ckp_store_l(x)
    logical, intent(in) :: x
    call put_l(sl, x)
  end subroutine xf_ckp_store_l

  subroutine xf_ckp_restore_l(x)
    logical, intent(out) :: x
    call frame_check()
    cur_l = cur_l + 1
    if (cur_l > sl%n) error stop 'xaiform_ad: a snapshot read past its frame'
    x = sl%v(cur_l)
  end subroutine xf_ckp_restore_l

  subroutine xf_ckp_store_la(x, n)
    integer, intent(in) :: n
    logical, intent(in) :: x(n)
    integer :: j
    do j = 1, n
      call put_l(sl, x(j))
    end do
  end subroutine xf_ckp_store_la

  subroutine xf_ckp_restore_la(x, n)
    integer, intent(in) :: n
    logical, intent(inout) :: x(n)
    integer :: j
    do j = 1, n
      call xf_ckp_restore_l(x(j))
    end do
  end subroutine xf_ckp_restore_la

end module xaiform_ad
