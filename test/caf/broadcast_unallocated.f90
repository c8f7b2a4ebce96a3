! broadcast_unallocated.f90 - CO_BROADCAST of a derived type whose
! allocatable component is allocated on the source only: gfortran 12 gives
! the runtime no way to allocate it on the receivers, which end the program
! with a message saying so (run-caf.sh looks for it) instead of writing
! through a null pointer.
program broadcast_unallocated
  implicit none
  type :: msg
    integer, allocatable :: v(:)
  end type
  type(msg) :: m

  if (this_image() == 1) m%v = [1, 2, 3]
  call co_broadcast(m, 1)
  sync all
  print '(a)', 'FAIL broadcast_unallocated: the program went on'
end program
