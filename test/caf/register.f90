! register.f90 - static and allocatable coarrays, allocate/deallocate in a
! loop (symmetric memory reuse), allocatable components (registration
! kinds 7 and 8), lock and event registration.
program register
  use iso_fortran_env, only: lock_type, event_type
  implicit none
  type :: holder
    integer, allocatable :: values(:)
    real, allocatable :: scalar
  end type
  integer :: static_array(100)[*]
  real(8), allocatable :: dyn(:)[:], dyn2(:,:)[:]
  type(holder), allocatable :: h[:]
  type(lock_type), allocatable :: locks(:)[:]
  type(event_type), allocatable :: events(:)[:]
  integer :: me, n, i, right, round

  me = this_image()
  n = num_images()
  right = merge(1, me + 1, me == n)
  static_array = me
  sync all
  call check(all(static_array(:)[right] == right), 'static coarray')

  do round = 1, 20
    allocate(dyn(round * 100)[*], dyn2(3, round)[*])
    dyn = me + round
    dyn2 = -me
    sync all
    call check(all(dyn(:)[right] == right + round), 'allocatable coarray contents')
    call check(all(dyn2(:, :)[right] == -right), 'second allocatable coarray')
    call check(size(dyn) == round * 100, 'allocatable coarray size')
    sync all
    deallocate(dyn, dyn2)
  end do

  allocate(h[*])
  call check(.not. allocated(h%values), 'component starts unallocated')
  allocate(h%values(me + 2))
  allocate(h%scalar)
  h%values = me
  h%scalar = 0.5 * me
  sync all
  call check(allocated(h[right]%values), 'remote component is present')
  call check(size(h[right]%values) == right + 2, 'remote component size')
  call check(all(h[right]%values == right), 'remote component contents')
  call check(h[right]%scalar == 0.5 * right, 'remote scalar component')
  sync all
  deallocate(h%values)
  sync all
  call check(.not. allocated(h[right]%values), 'remote component deallocated')
  sync all
  deallocate(h)

  allocate(locks(4)[*], events(3)[*])
  lock(locks(2)[right])
  unlock(locks(2)[right])
  event post(events(3)[right])
  event wait(events(3))
  sync all
  deallocate(locks, events)
  sync all
  if (me == 1) print '(a)', 'PASS register'
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
