! sync_repeated.f90 - SYNC IMAGES naming an image twice, without STAT=, is
! error termination of the whole program with a message (run-caf.sh looks
! for it), not a wait for the other images.
program sync_repeated
  implicit none
  integer :: n

  n = num_images()
  sync all
  if (this_image() == 1) sync images ([n, n])
  sync all
  print '(a)', 'FAIL sync_repeated: the program went on'
end program
