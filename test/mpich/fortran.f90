! fortran.f90 - an MPICH Fortran program (mpif90.mpich, the mpi module):
! init, a sum over every rank, finalize. Rank 0 prints one PASS line.
program fortran
  use mpi
  implicit none
  integer :: ierr, rank, nranks, total

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (total == nranks * (nranks - 1) / 2) then
      write (*, '(a, i0, a)') 'PASS fortran on ', nranks, ' ranks'
    else
      write (*, '(a)') 'FAIL fortran'
    end if
  end if
  call MPI_Finalize(ierr)
end program fortran
