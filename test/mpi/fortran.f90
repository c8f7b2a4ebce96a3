! fortran.f90 - an Open MPI program in Fortran (mpi_f08): every rank adds
! its rank with MPI_Allreduce and passes a token round the ring; image 0
! prints one PASS line when both results are right on every rank.
program fortran
  use mpi_f08
  implicit none
  integer :: rank, size, total, token, bad, allbad
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  bad = 0
  if (total /= size * (size - 1) / 2) bad = 1
  token = 0
  if (size > 1) then
    if (rank == 0) then
      token = 1
      call MPI_Send(token, 1, MPI_INTEGER, 1, 0, MPI_COMM_WORLD)
      call MPI_Recv(token, 1, MPI_INTEGER, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
      if (token /= size) bad = 1
    else
      call MPI_Recv(token, 1, MPI_INTEGER, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
      token = token + 1
      call MPI_Send(token, 1, MPI_INTEGER, mod(rank + 1, size), 0, MPI_COMM_WORLD)
    end if
  end if
  call MPI_Allreduce(bad, allbad, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0 .and. allbad == 0) print '(a,i0,a)', 'PASS fortran on ', size, ' ranks'
  call MPI_Finalize()
  if (allbad /= 0) error stop 1
end program fortran
