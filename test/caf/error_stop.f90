! error_stop.f90 - ERROR STOP on one image ends every image with its code,
! including images blocked in a synchronization that can never complete.
! The test passes when the job exits with status 7 and does not hang.
program error_stopping
  implicit none
  integer :: me, n

  me = this_image()
  n = num_images()
  sync all
  if (me == n) then
    error stop 7
  end if
  sync all
  print '(a)', 'FAIL: an image went past a sync all with an image that ended in error stop'
end program
