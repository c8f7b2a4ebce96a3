! events.f90 - EVENT POST, EVENT WAIT (with UNTIL_COUNT) and EVENT_QUERY,
! on coindexed and on local (not coindexed) event variables.
program events
  use iso_fortran_env, only: event_type
  implicit none
  type(event_type) :: ev[*], many(4)[*]
  integer :: me, n, right, left, i, count, data[*]

  me = this_image()
  n = num_images()
  right = merge(1, me + 1, me == n)
  left = merge(n, me - 1, me == 1)

  ! A ring hand-over: data sent before the post is there after the wait.
  do i = 1, 100
    data[right] = i * 100 + me
    event post (ev[right])
    event wait (ev)
    call check(data == i * 100 + left, 'event orders a put')
    sync all
  end do

  ! Everyone posts to image 1 three times; image 1 waits for all at once.
  do i = 1, 3
    event post (many(2)[1])
  end do
  if (me == 1) then
    event wait (many(2), until_count=3 * n)
    call event_query(many(2), count)
    call check(count == 0, 'until_count takes every post')
  end if
  sync all
  event post (many(4)[right])
  event post (many(4)[right])
  sync all
  call event_query(many(4), count)
  call check(count == 2, 'event_query counts posts')
  event wait (many(4))
  call event_query(many(4), count)
  call check(count == 1, 'event wait takes one post')
  event wait (many(4))
  sync all

  ! Not coindexed: the variable of the executing image (gfortran passes
  ! image index 0).
  event post (ev)
  event post (many(3), stat=i)
  call check(i == 0, 'event post to a local variable')
  call event_query(ev, count)
  call check(count == 1, 'event post to a local variable counts')
  event wait (ev)
  event wait (many(3))
  call event_query(many(3), count)
  call check(count == 0, 'event wait takes a local post')
  sync all
  if (me == 1) print '(a)', 'PASS events'
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
