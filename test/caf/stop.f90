! stop.f90 - STOP of one image lets the others go on: syncs with it report
! STAT_STOPPED_IMAGE (and ERRMSG=), IMAGE_STATUS and STOPPED_IMAGES see it, and its
! coarrays stay readable until every image has finished.
program stopping
  use iso_fortran_env, only: stat_stopped_image
  implicit none
  integer :: me, n, st, x[*]
  integer, allocatable :: gone(:)
  character(len=60) :: msg

  me = this_image()
  n = num_images()
  x = 100 + me
  sync all
  if (n == 1) then
    print '(a)', 'PASS stop'
    stop
  end if
  if (me == n) stop
  sync all (stat=st)
  call check(st == stat_stopped_image, 'sync all reports the stopped image')
  sync images (n, stat=st)
  call check(st == stat_stopped_image, 'sync images reports the stopped image')
  ! gfortran 12 passes a SYNC statement's ERRMSG= as the address of a
  ! pointer to the buffer.
  msg = ''
  sync all (stat=st, errmsg=msg)
  call check(index(msg, 'stopped') > 0, 'sync all errmsg names the stopped image')
  msg = ''
  sync images ([me, n], stat=st, errmsg=msg)
  call check(index(msg, 'stopped') > 0, 'sync images errmsg names the stopped image')
  call check(image_status(n) == stat_stopped_image, 'image_status of the stopped image')
  call check(image_status(1) == 0, 'image_status of a running image')
  gone = stopped_images()
  call check(size(gone) == 1, 'stopped_images has one image')
  call check(gone(1) == n, 'stopped_images names it')
  call check(x[n] == 100 + n, 'a stopped image''s coarray stays readable')
  if (n > 2) then
    sync images (*, stat=st)
    call check(st == stat_stopped_image, 'sync images (*) reports the stopped image')
  end if
  ! An image that ends is a stopped image too: none ends before every
  ! image has looked at the others.
  sync all (stat=st)
  if (me == 1) print '(a)', 'PASS stop'
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
