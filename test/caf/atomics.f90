! atomics.f90 - ATOMIC_DEFINE, ATOMIC_REF, ATOMIC_CAS, ATOMIC_ADD/AND/OR/XOR
! and their FETCH_ forms, from every image at once.
program atomics
  use iso_fortran_env, only: atomic_int_kind, atomic_logical_kind
  implicit none
  integer(atomic_int_kind) :: total[*], bits[*], owner[*], v, old
  logical(atomic_logical_kind) :: flag[*]
  logical :: seen
  integer :: me, n, i, round

  me = this_image()
  n = num_images()
  if (me == 1) then
    call atomic_define(total, 0)
    call atomic_define(bits, 0)
    call atomic_define(owner, 0)
    call atomic_define(flag, .false.)
  end if
  sync all
  do i = 1, 500
    call atomic_add(total[1], 1)
  end do
  call atomic_fetch_add(total[1], 1000, old)
  call check(old >= 500, 'fetch_add returns the old value')
  call atomic_or(bits[1], ishft(1, me - 1))
  ! Every image takes owner[1] by CAS three times; while it holds it nobody
  ! else may. An image retries until it wins, however the images
  ! are scheduled (a holder may be preempted while the others spin).
  do round = 1, 3
    do
      call atomic_cas(owner[1], old, 0, me)
      if (old == 0) exit
      call check(old >= 1 .and. old <= n, 'a failed cas returns the holder')
    end do
    call atomic_ref(v, owner[1])
    call check(v == me, 'cas wins when the variable is free, and nobody else does')
    call atomic_add(total[1], 1)
    call atomic_define(owner[1], 0)
  end do
  sync all
  if (me == 1) then
    call atomic_ref(v, total)
    call check(v == 1503 * n, 'atomic_add from every image')
    call atomic_ref(v, bits)
    call check(v == 2**n - 1, 'atomic_or from every image')
    call atomic_and(bits, 2**n - 2)
    call atomic_xor(bits, 1)
    call atomic_fetch_xor(bits, 2**n - 1, old)
    call check(old == 2**n - 1, 'fetch_xor returns the old value')
    call atomic_ref(v, bits)
    call check(v == 0, 'and, xor')
    call atomic_fetch_and(total, 0, old)
    call atomic_fetch_or(total, 6, old)
    call check(old == 0, 'fetch_and then fetch_or')
    call atomic_define(flag, .true.)
  end if
  sync all
  call atomic_ref(seen, flag[1])
  call check(seen, 'atomic logical')
  sync all
  if (me == 1) print '(a)', 'PASS atomics'
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
