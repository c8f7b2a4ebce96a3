! byref.f90 - coindexed access through derived types: allocatable array and
! scalar components, fixed-size components, arrays of derived type,
! pointer components, is_present (ALLOCATED of a remote component),
! transfers between two remote images, conversion on the way, whole
! components with a stride (x[i]%c(::2), x[i]%c(::-1)).
program byref
  implicit none
  type :: inner
    integer :: fixed(4, 3)
    integer, allocatable :: arr(:, :)
    real, allocatable :: sc
    real :: r
  end type
  type :: nums
    integer(8), allocatable :: i8(:)
    real(4), allocatable :: r4(:)
    integer, allocatable :: m(:, :)
  end type
  type(inner), allocatable :: y(:)[:]
  type(inner) :: z[*]
  type(nums) :: q[*]
  integer :: v(4), w(3), i, j, me, n, right, left
  integer, allocatable :: got(:), got2(:, :)
  real(8) :: dv(3)
  integer(4) :: i4(5)
  real(8) :: r8(5)

  me = this_image()
  n = num_images()
  right = merge(1, me + 1, me == n)
  left = merge(n, me - 1, me == 1)

  allocate(y(5)[*])
  do i = 1, 5
    y(i)%r = 10 * me + i
    y(i)%fixed = reshape([(100 * me + j, j = 1, 12)], [4, 3])
    if (i /= 4) then
      allocate(y(i)%arr(3, 0:2))
      y(i)%arr = reshape([(1000 * me + 10 * i + j, j = 1, 9)], [3, 3])
    end if
  end do
  allocate(y(2)%sc)
  y(2)%sc = -me
  z%fixed = reshape([(-100 * me - j, j = 1, 12)], [4, 3])
  allocate(z%arr(2, 2))
  z%arr = me
  sync all

  v = z[right]%fixed(:, 2)
  call check(all(v == [(-100 * right - j, j = 5, 8)]), 'fixed component column')
  w = z[right]%fixed(2, :)
  call check(all(w == [-100 * right - 2, -100 * right - 6, -100 * right - 10]), 'fixed component row')
  w = y(2:4)[right]%r
  call check(all(w == [10 * right + 2, 10 * right + 3, 10 * right + 4]), 'component of array elements')
  v(1:3) = y(3)[right]%arr(1:3, 1)
  call check(all(v(1:3) == [(1000 * right + 30 + j, j = 4, 6)]), 'allocatable component section')
  v(1:3) = y(1)[right]%arr(2, :)
  call check(all(v(1:3) == 1000 * right + 10 + [2, 5, 8]), 'allocatable component row')
  call check(y(2)[right]%sc == -right, 'allocatable scalar component')
  got = y(5)[right]%arr(:, 2)
  call check(size(got) == 3 .and. all(got == [(1000 * right + 50 + j, j = 7, 9)]), &
      'get into a reallocatable array')
  got2 = z[right]%arr
  call check(all(shape(got2) == [2, 2]) .and. all(got2 == right), 'whole allocatable component')
  dv = y(1)[right]%arr(:, 0)
  call check(all(dv == [(1000.0d0 * right + 10 + j, j = 1, 3)]), 'component converted to real(8)')
  call check(allocated(y(1)[right]%arr), 'is_present of an allocated component')
  call check(.not. allocated(y(4)[right]%arr), 'is_present of an unallocated component')
  call check(allocated(y(2)[right]%sc) .and. .not. allocated(y(3)[right]%sc), 'is_present of scalars')
  sync all

  y(3)[right]%arr(2, :) = [-1, -2, -3]
  z[right]%fixed(3, 2:3) = 77
  y(1:5:2)[right]%r = 0.25
  y(2)[right]%sc = 2.5d0
  sync all
  call check(all(y(3)%arr(2, :) == [-1, -2, -3]), 'send to an allocatable component')
  call check(all(z%fixed(3, 2:3) == 77) .and. z%fixed(3, 1) == -100 * me - 3, 'send to a fixed component')
  call check(y(1)%r == 0.25 .and. y(3)%r == 0.25 .and. y(2)%r == 10 * me + 2, 'send to array elements')
  call check(y(2)%sc == 2.5, 'send to a scalar component with conversion')
  sync all

  if (me == 1) then
    y(1)[right]%arr(:, 2) = y(5)[left]%arr(:, 1)
  end if
  sync all
  if (me == right .or. n == 1) then
    if (me == merge(1, 2, n == 1)) call check(all(y(1)%arr(:, 2) == [(1000 * n + 50 + j, j = 4, 6)]), &
        'sendget between components')
  end if
  sync all

  ! A whole allocatable component with a stride: gfortran gives the stride
  ! alone; with kind conversion element by element.
  allocate(q%i8(5), q%r4(5), q%m(4, 3))
  q%i8 = [(100_8 * me + j, j = 1, 5)]
  q%r4 = [(real(10 * me + j, 4) + 0.5, j = 1, 5)]
  q%m = reshape([(1000 * me + j, j = 1, 12)], [4, 3])
  sync all
  i4 = -1
  i4(1:3) = q[right]%i8(::2)
  call check(all(i4 == [100 * right + 1, 100 * right + 3, 100 * right + 5, -1, -1]), &
      'strided integer(8) component into integer(4)')
  r8 = -1
  r8(4:5) = q[right]%r4(2::2)
  call check(all(r8(4:5) == [10 * right + 2.5d0, 10 * right + 4.5d0]), &
      'strided real(4) component into real(8)')
  r8 = q[right]%r4(::-1)
  call check(all(r8 == [(10 * right + j + 0.5d0, j = 5, 1, -1)]), 'reversed component')
  w(1:2) = q[right]%m(::2, 2)
  call check(all(w(1:2) == [1000 * right + 5, 1000 * right + 7]), 'strided 2-d component')
  got2 = q[right]%m(::3, ::2)
  call check(all(shape(got2) == [2, 2]), 'strided 2-d component: shape')
  call check(all(got2 == reshape(1000 * right + [1, 4, 9, 12], [2, 2])), 'strided 2-d component')
  sync all
  q[right]%i8(::2) = [7, 8, 9]
  q[right]%r4(::-2) = [1.5d0, 2.5d0, 3.5d0]
  sync all
  call check(all(q%i8 == [7_8, 100_8 * me + 2, 8_8, 100_8 * me + 4, 9_8]), &
      'strided integer(4) into an integer(8) component')
  call check(all(q%r4 == [3.5, 10 * me + 2.5, 2.5, 10 * me + 4.5, 1.5]), &
      'reversed real(8) into a real(4) component')
  sync all
  if (me == 1) print '(a)', 'PASS byref'
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
