! sync.f90 - SYNC ALL, SYNC IMAGES (lists, *, this image) and SYNC MEMORY
! order the coarray accesses of the segments they separate; an image set
! that names an image twice is an error.
program sync
  use iso_fortran_env, only: stat_stopped_image, stat_failed_image
  implicit none
  integer :: box[*], round, me, n, right, left, st, i
  integer, allocatable :: everyone(:), neighbours(:)
  character(len=80) :: msg

  me = this_image()
  n = num_images()
  right = merge(1, me + 1, me == n)
  left = merge(n, me - 1, me == 1)

  ! SYNC ALL: a value written before is seen after, round after round.
  do round = 1, 200
    box[right] = round * 1000 + me
    sync all (stat=st)
    call check(st == 0, 'sync all stat')
    call check(box == round * 1000 + left, 'sync all orders a put')
    sync all
  end do

  ! SYNC IMAGES with the two neighbours (one when they are the same image,
  ! this image when alone): a ring of puts.
  neighbours = [right, left]
  if (n < 3) neighbours = [right]
  do round = 1, 200
    box[right] = -round
    sync images (neighbours)
    call check(box == -round, 'sync images with neighbours')
    sync images (neighbours(size(neighbours):1:-1))
  end do

  ! An image named twice: an error at once, reported through STAT= and
  ! ERRMSG= (3, OpenCoarrays' value), instead of waiting for a second SYNC
  ! IMAGES from that image which never comes.
  if (me == 1) then
    msg = ''
    sync images ([n, 1, n], stat=st, errmsg=msg)
    call check(st == 3, 'sync images with a repeated image: stat')
    call check(st /= stat_stopped_image .and. st /= stat_failed_image, &
               'a repeated image is neither stopped nor failed')
    call check(index(msg, 'more than once') > 0, 'sync images with a repeated image: errmsg')
  end if
  sync all

  ! SYNC IMAGES (*) against image 1 only: a star.
  do round = 1, 50
    if (me == 1) then
      box = 0
      sync images (*)
      sync images (*)
      call check(box == n - 1, 'sync images (*) collects every put')
    else
      sync images (1)
      call atomic_add(box[1], 1)
      sync images (1)
    end if
  end do

  ! SYNC MEMORY with an atomic flag as the hand-over.
  box = 0
  sync all
  if (n > 1) then
    if (me == 1) then
      everyone = [(i, i = 1, n)]
      box[2] = 42
      sync memory
      sync images (everyone(2:2))
    else if (me == 2) then
      sync images (1)
      sync memory
      call check(box == 42, 'sync memory')
    end if
  end if
  sync all
  if (me == 1) print '(a)', 'PASS sync'
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
