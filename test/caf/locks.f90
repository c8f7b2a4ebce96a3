! locks.f90 - LOCK/UNLOCK and CRITICAL give mutual exclusion; ACQUIRED_LOCK
! and STAT= report locked variables; a lock variable not coindexed is the
! executing image's.
program locks
  use iso_fortran_env, only: lock_type, stat_locked, stat_locked_other_image
  implicit none
  type(lock_type) :: lk[*], many(3)[*]
  integer :: counter[*], crit[*], i, st, me, n, right
  logical :: got
  character(len=80) :: msg

  me = this_image()
  n = num_images()
  right = merge(1, me + 1, me == n)
  counter = 0
  crit = 0
  sync all

  ! A non-atomic read-modify-write under the lock on image 1.
  do i = 1, 300
    lock (lk[1])
    counter[1] = counter[1] + 1
    unlock (lk[1])
  end do
  do i = 1, 300
    critical
      crit[1] = crit[1] + 1
    end critical
  end do
  sync all
  if (me == 1) call check(counter == 300 * n, 'lock counts every increment')
  if (me == 1) call check(crit == 300 * n, 'critical counts every increment')

  ! Errors with STAT=.
  lock (many(2)[right])
  lock (many(2)[right], stat=st, errmsg=msg)
  call check(st == stat_locked, 'locking a lock held by this image')
  call check(index(msg, 'already locked') > 0, 'errmsg of a double lock')
  unlock (many(2)[right])
  sync all
  if (n > 1) then
    if (me == 1) lock (many(3)[1])
    sync all
    if (me == 2) then
      lock (many(3)[1], acquired_lock=got)
      call check(.not. got, 'acquired_lock on a held lock')
      unlock (many(3)[1], stat=st)
      call check(st == stat_locked_other_image, 'unlocking a lock held by another image')
    end if
    sync all
    if (me == 1) unlock (many(3)[1])
    sync all
    if (me == 2) then
      lock (many(3)[1], acquired_lock=got)
      call check(got, 'acquired_lock on a free lock')
      unlock (many(3)[1])
    end if
  end if
  sync all

  ! Not coindexed (gfortran passes image index 0): this image's variable,
  ! the same one as lk[me].
  lock (lk)
  lock (lk[me], stat=st)
  call check(st == stat_locked, 'a local lock is this image''s')
  unlock (lk, stat=st)
  call check(st == 0, 'unlocking a local lock')
  lock (lk[me], acquired_lock=got)
  call check(got, 'a local unlock frees this image''s lock')
  unlock (lk[me])
  sync all
  if (me == 1) print '(a)', 'PASS locks'
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
