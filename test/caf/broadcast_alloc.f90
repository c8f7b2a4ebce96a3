! broadcast_alloc.f90 - CO_BROADCAST of data not allocated alike on every
! image. gfortran 12 passes each allocatable component of a derived type as
! a copy of its descriptor (and drops STAT= there), so the runtime cannot
! allocate a receiver's component: unallocated everywhere is nothing to do;
! of another size on a receiver is an error there (STAT= of an array), and
! the images stay in step for what follows (broadcast_unallocated.f90:
! allocated on the source only).
program broadcast_alloc
  implicit none
  type :: msg
    integer :: n
    integer, allocatable :: v(:)
    real, allocatable :: s
  end type
  type(msg) :: m
  integer :: me, n, st, total, big(50000)
  integer, allocatable :: a(:)
  integer, parameter :: src = 1

  me = this_image()
  n = num_images()

  ! Unallocated on every image: the other components still arrive.
  m%n = 10 * me
  call co_broadcast(m, src)
  call check(m%n == 10 * src, 'unallocated everywhere: the scalar component')
  call check(.not. allocated(m%v) .and. .not. allocated(m%s), 'unallocated everywhere stays so')

  ! Of another size on the receivers, over several rounds of the source.
  if (me == src) then
    allocate(a(30000))
    a = 7
  else
    allocate(a(3))
    a = -1
  end if
  call co_broadcast(a, src, stat=st)
  if (me == src) then
    call check(st == 0, 'sizes differ: stat on the source')
  else
    call check(st /= 0, 'sizes differ: stat on a receiver')
    call check(all(a == -1), 'sizes differ: receiver untouched')
  end if

  ! Everyone still in step: a broadcast of several rounds and a reduction.
  big = me
  call co_broadcast(big, n)
  call check(all(big == n), 'a broadcast after the mismatch')
  total = me
  call co_sum(total)
  call check(total == n * (n + 1) / 2, 'a reduction after the mismatch')

  ! Allocated alike on every image.
  allocate(m%v(4), m%s)
  m%v = me
  m%s = me
  call co_broadcast(m, n)
  call check(all(m%v == n) .and. m%s == n .and. m%n == 10 * src, 'allocated alike on every image')
  sync all
  if (me == 1) print '(a)', 'PASS broadcast_alloc'
contains
  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(*), intent(in) :: what
    if (.not. cond) then
      print '(a,i0,2a)', 'FAIL image ', this_image(), ': ', what
      error stop 1
    end if
  end subroutine
end program
