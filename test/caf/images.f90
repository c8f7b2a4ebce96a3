! images.f90 - init, this_image, num_images, and coarray access to every
! image. Also run without a launcher, where it is a single image.
program images
  implicit none
  integer :: me, n, i, total
  integer :: id[*]

  me = this_image()
  n = num_images()
  call check(me >= 1 .and. me <= n, 'this_image out of range')
  call check(num_images() == n, 'num_images changed')
  id = me * 10
  sync all
  total = 0
  do i = 1, n
    total = total + id[i]
  end do
  call check(total == 10 * n * (n + 1) / 2, 'sum of every image''s id')
  sync all
  if (me == 1) print '(a,i0,a)', 'PASS images (', n, ' images)'
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
