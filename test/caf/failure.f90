! failure.f90 - FAIL IMAGE: syncs report STAT_FAILED_IMAGE, IMAGE_STATUS,
! FAILED_IMAGES and NUM_IMAGES(FAILED=) see the failed image, EVENT POST to
! it reports it, and the other images finish normally. With an image that
! stopped beside it, each query tells the two apart.
program failure
  use iso_fortran_env, only: stat_failed_image, stat_stopped_image, event_type
  implicit none
  integer :: me, n, st
  integer, allocatable :: gone(:)
  integer(8), allocatable :: stopped(:)
  type(event_type) :: ev[*]

  me = this_image()
  n = num_images()
  if (n == 1) then
    print '(a)', 'PASS failure'
    stop
  end if
  sync all
  if (me == n) fail image
  if (n > 2 .and. me == n - 1) stop
  sync all (stat=st)
  call check(st == stat_failed_image, 'sync all reports the failed image')
  if (n > 2) then
    stopped = stopped_images(kind=8)
    call check(size(stopped) == 1, 'stopped_images has the stopped image only')
    call check(stopped(1) == n - 1, 'stopped_images names it')
    call check(image_status(n - 1) == stat_stopped_image, 'image_status of the stopped image')
  end if
  call check(image_status(n) == stat_failed_image, 'image_status of the failed image')
  gone = failed_images()
  call check(size(gone) == 1, 'failed_images has one image')
  call check(gone(1) == n, 'failed_images names it')
  call check(num_images(failed=.true.) == 1, 'num_images(failed=.true.)')
  call check(num_images(failed=.false.) == n - 1, 'num_images(failed=.false.)')
  event post (ev[n], stat=st)
  call check(st == stat_failed_image, 'event post to a failed image')
  sync images (n, stat=st)
  call check(st == stat_failed_image, 'sync images with a failed image')
  sync all (stat=st)
  if (me == 1) print '(a)', 'PASS failure'
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
