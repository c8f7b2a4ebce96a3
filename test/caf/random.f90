! random.f90 - RANDOM_INIT: REPEATABLE repeats within a run, IMAGE_DISTINCT
! makes images differ, and without it every image draws the same numbers.
program random
  implicit none
  real :: a(4), b(4), mine(4)[*]
  integer :: me, n, i
  logical :: same_everywhere

  me = this_image()
  n = num_images()

  call random_init(.true., .true.)
  call random_number(a)
  call random_init(.true., .true.)
  call random_number(b)
  call check(all(a == b), 'repeatable gives the same numbers twice')
  mine = a
  sync all
  if (n > 1) call check(any(mine(:)[merge(2, 1, me == 1)] /= a), 'image_distinct images differ')
  sync all

  call random_init(.true., .false.)
  call random_number(a)
  mine = a
  sync all
  same_everywhere = .true.
  do i = 1, n
    same_everywhere = same_everywhere .and. all(mine(:)[i] == a)
  end do
  call check(same_everywhere, 'without image_distinct every image draws the same')
  sync all

  call random_init(.false., .false.)
  call random_number(a)
  call random_init(.false., .false.)
  call random_number(b)
  call check(any(a /= b), 'not repeatable gives new numbers')
  mine = b
  sync all
  do i = 1, n
    call check(all(mine(:)[i] == b), 'not repeatable, not distinct: the same on every image')
  end do
  sync all
  call random_init(.false., .true.)
  call random_number(a)
  mine = a
  sync all
  if (n > 1) call check(any(mine(:)[merge(2, 1, me == 1)] /= a), 'not repeatable, distinct')
  sync all
  if (me == 1) print '(a)', 'PASS random'
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
