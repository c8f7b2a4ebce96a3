! spread.f90 - prints the processors this image may run on (the
! Cpus_allowed_list line of /proc/self/status); spread.sh judges them.
program spread
  implicit none
  character(len=256) :: line
  integer :: u, ios

  open(newunit=u, file='/proc/self/status', action='read', status='old')
  do
    read(u, '(a)', iostat=ios) line
    if (ios /= 0) exit
    if (index(line, 'Cpus_allowed_list:') == 1) print '(a, i0, 1x, a)', 'image ', this_image(), trim(line)
  end do
  close(u)
  sync all
end program
