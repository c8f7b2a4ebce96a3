! collectives.f90 - CO_SUM, CO_MIN, CO_MAX, CO_REDUCE and CO_BROADCAST:
! scalars and arrays, strided sections, every numeric kind, RESULT_IMAGE,
! character data, derived types, arrays larger than one scratch slot.
! The operators for CO_REDUCE live in a module: internal procedures passed
! as arguments would need an executable stack.
module collective_ops
  use iso_fortran_env, only: real64
  implicit none
  type :: pair
    integer :: id
    real(real64) :: weight
    character(len=3) :: tag
  end type
  type :: wide_pair
    real(real64) :: a, b, c
  end type
  ! Allocatable components: gfortran broadcasts each one on its own. (It
  ! also copies components of derived type byte for byte, descriptors
  ! included, so those must not have allocatable components themselves.)
  type :: holder
    integer :: n
    real(real64), allocatable :: v(:)
    character(len=4), allocatable :: names(:)
    type(pair), allocatable :: pairs(:)
    integer, allocatable :: one
  end type
contains
  pure integer function multiply(a, b)
    integer, value :: a, b
    multiply = a * b
  end function
  pure real(real64) function larger(a, b)
    real(real64), intent(in) :: a, b
    larger = max(a, b)
  end function
  pure logical function either(a, b)
    logical, intent(in) :: a, b
    either = a .or. b
  end function
  pure character(len=5) function later(a, b)
    character(len=5), intent(in) :: a, b
    later = a
    if (b > a) later = b
  end function
  pure type(wide_pair) function add_wide(x, y)
    type(wide_pair), intent(in) :: x, y
    add_wide = wide_pair(x%a + y%a, x%b + y%b, max(x%c, y%c))
  end function
end module

program collectives
  use iso_fortran_env, only: int8, int16, int64, real32, real64
  use collective_ops
  implicit none
  integer :: me, n, i, st, expect
  integer :: iv, arr(10), big(50000)
  integer(int8) :: i1
  integer(int16) :: i2
  integer(int64) :: i8
  real(real32) :: r4(3)
  real(real64) :: r8, mat(4, 4)
  complex(real64) :: c8
  character(len=5) :: word
  character(kind=4, len=2) :: wword
  type(pair) :: p
  type(wide_pair) :: wp
  type(holder) :: h
  logical :: lg

  me = this_image()
  n = num_images()

  iv = me
  call co_sum(iv)
  call check(iv == n * (n + 1) / 2, 'co_sum of a default integer')
  i1 = int(me, int8)
  i2 = int(me, int16)
  i8 = int(me, int64) * 2_int64**33
  call co_sum(i1)
  call co_max(i2)
  call co_sum(i8)
  call check(i1 == n * (n + 1) / 2, 'co_sum integer(1)')
  call check(i2 == n, 'co_max integer(2)')
  call check(i8 == int(n * (n + 1) / 2, int64) * 2_int64**33, 'co_sum integer(8)')
  r4 = [real(me), -real(me), 0.5]
  call co_min(r4)
  call check(all(r4 == [1.0, -real(n), 0.5]), 'co_min real(4) array')
  r8 = me * 0.25_real64
  call co_max(r8)
  call check(r8 == n * 0.25_real64, 'co_max real(8)')
  c8 = cmplx(me, -me, real64)
  call co_sum(c8)
  call check(c8 == cmplx(n * (n + 1) / 2, -n * (n + 1) / 2, real64), 'co_sum complex(8)')

  ! result_image: only that image gets the result
  arr = [(me * i, i = 1, 10)]
  call co_sum(arr, result_image=n, stat=st)
  call check(st == 0, 'co_sum stat')
  if (me == n) then
    call check(all(arr == [(i * n * (n + 1) / 2, i = 1, 10)]), 'co_sum with result_image')
  else
    call check(all(arr == [(me * i, i = 1, 10)]), 'co_sum leaves other images alone')
  end if

  ! a strided section and a section of a 2-d array
  arr = me
  call co_max(arr(1:10:3))
  call check(all(arr(1:10:3) == n) .and. all(arr(2:10:3) == me), 'co_max of a strided section')
  mat = me
  call co_sum(mat(2:3, 1:4:2))
  call check(all(mat(2:3, 1:4:2) == n * (n + 1) / 2) .and. mat(1, 1) == me .and. mat(2, 2) == me, &
      'co_sum of a 2-d section')

  ! larger than one scratch slot
  big = [(i + me, i = 1, 50000)]
  call co_sum(big)
  expect = n * (n + 1) / 2
  call check(all(big == [(n * i + expect, i = 1, 50000)]), 'co_sum of 200 kB')

  ! characters
  word = 'img' // achar(64 + me)
  call co_max(word)
  call check(word == 'img' // achar(64 + n), 'co_max character')
  word = 'img' // achar(64 + me)
  call co_min(word, result_image=1)
  if (me == 1) call check(word == 'imgA', 'co_min character to image 1')
  wword = char(1000 + me, kind=4) // 4_'z'
  call co_max(wword)
  call check(wword == char(1000 + n, kind=4) // 4_'z', 'co_max character(kind=4)')

  ! co_reduce: integer by value, real, logical, character, big derived type
  iv = me
  call co_reduce(iv, multiply)
  call check(iv == product([(i, i = 1, n)]), 'co_reduce integer (value arguments)')
  r8 = me
  call co_reduce(r8, larger, result_image=1)
  if (me == 1) call check(r8 == n, 'co_reduce real(8) with result_image')
  lg = me == n
  call co_reduce(lg, either)
  call check(lg, 'co_reduce logical')
  word = repeat(achar(96 + me), 5)
  call co_reduce(word, later)
  call check(word == repeat(achar(96 + n), 5), 'co_reduce character')
  wp = wide_pair(me, -me, 1)
  call co_reduce(wp, add_wide)
  call check(wp%a == n * (n + 1) / 2 .and. wp%b == -n * (n + 1) / 2 .and. wp%c == 1, &
      'co_reduce derived type')

  ! co_broadcast: scalar, derived type, allocatable components, array, character
  p = pair(me, me * 1.5_real64, 'x' // achar(48 + me))
  call co_broadcast(p, source_image=n)
  call check(p%id == n .and. p%weight == n * 1.5_real64 .and. p%tag == 'x' // achar(48 + n), &
      'co_broadcast derived type')
  allocate(h%v(3), h%names(2), h%pairs(2), h%one)
  h%n = me
  h%v = me
  h%names = 'img' // achar(48 + me)
  h%pairs = pair(me, -me, 'p' // achar(48 + me))
  h%one = -me
  call co_broadcast(h, n)
  call check(h%n == n .and. all(h%v == n) .and. all(h%names == 'img' // achar(48 + n)) .and. &
             all(h%pairs%id == n) .and. all(h%pairs%weight == -n) .and. &
             all(h%pairs%tag == 'p' // achar(48 + n)) .and. h%one == -n, &
             'co_broadcast of allocatable components')
  big = me
  call co_broadcast(big, 1)
  call check(all(big == 1), 'co_broadcast of 200 kB')
  word = 'from' // achar(48 + me)
  call co_broadcast(word, 1)
  call check(word == 'from1', 'co_broadcast character')
  arr = me
  call co_broadcast(arr(2:10:2), n)
  call check(all(arr(2:10:2) == n) .and. all(arr(1:9:2) == me), 'co_broadcast strided')
  sync all
  if (me == 1) print '(a)', 'PASS collectives'
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
