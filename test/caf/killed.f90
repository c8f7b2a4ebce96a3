! killed.f90 - the last image kills itself with SIGKILL while the others
! wait for it in SYNC ALL, holding coarrays; killed.sh checks that the job
! ends at once with the signal's status and leaves nothing in /dev/shm.
program killed
  implicit none
  integer :: x(1024)[*]
  integer, allocatable :: y(:)[:]

  allocate(y(4096)[*])
  x = this_image()
  y = this_image()
  sync all
  if (this_image() == num_images()) call kill(getpid(), 9)
  sync all
  print '(a)', 'the killed image was waited for forever'
end program
