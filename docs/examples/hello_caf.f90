! hello_caf.f90 - coarray Fortran through libcaf_drover: each image writes
! its number into its right-hand neighbour's coarray, then reports it.
!
!     drover caf hello_caf.f90 -o hello_caf && drover run -n 4 ./hello_caf
program hello_caf
  implicit none
  integer :: from_left[*], me, n

  me = this_image()
  n = num_images()
  from_left[modulo(me, n) + 1] = me
  sync all
  write (*, '(a,i0,a,i0,a,i0,a)') 'image ', me, ' of ', n, ': image ', from_left, ' wrote here'
end program hello_caf
