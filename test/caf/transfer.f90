! transfer.f90 - get, send and sendget: whole arrays, strides, vector
! subscripts, multi-dimensional sections, scalar to array, numeric type and
! kind conversion, character kind conversion and blank padding, overlapping
! access on the same image, and transfers between two other images.
program transfer
  use iso_fortran_env, only: int8, int64, real64
  implicit none
  integer :: a(20)[*], m(6, 5)[*], idx(4), rows(3), loc(20), loc2(3, 2), i
  integer(int64) :: big(5)[*]
  real :: r(5)
  real(real64) :: d(5)[*]
  complex :: z(2)[*]
  character(len=6) :: s[*]
  character(len=3) :: short
  character(len=9) :: long
  character(kind=4, len=6) :: wide[*]
  character(kind=4, len=8) :: wlong
  integer :: me, n, right, left

  me = this_image()
  n = num_images()
  right = merge(1, me + 1, me == n)
  left = merge(n, me - 1, me == 1)

  a = [(100 * me + i, i = 1, 20)]
  m = reshape([(1000 * me + i, i = 1, 30)], [6, 5])
  big = [(int(me, int64) * 2_int64**40 + i, i = 1, 5)]
  d = [(me + i / 4.0_real64, i = 1, 5)]
  z = [cmplx(me, 1), cmplx(me, 2)]
  s = 'img' // achar(48 + mod(me, 10))
  wide = 4_'wide' // char(48 + mod(me, 10), kind=4)
  sync all

  ! get: whole array, strided section, vector subscript
  loc = a(:)[right]
  call check(all(loc == [(100 * right + i, i = 1, 20)]), 'get whole array')
  loc(1:5) = a(2:20:4)[right]
  call check(all(loc(1:5) == [(100 * right + i, i = 2, 20, 4)]), 'get strided')
  idx = [7, 3, 19, 3]
  loc(1:4) = a(idx)[right]
  call check(all(loc(1:4) == 100 * right + idx), 'get vector subscript')
  loc2 = m(2:6:2, 4:5)[right]
  call check(all(loc2 == reshape([1000 * right + 20, 1000 * right + 22, &
      1000 * right + 24, 1000 * right + 26, 1000 * right + 28, 1000 * right + 30], [3, 2])), &
      'get 2-d section')
  rows = [5, 1, 3]
  loc2 = m(rows, 2:3)[right]
  call check(all(loc2 == reshape([(1000 * right + 6 + rows, i = 1, 1), &
      (1000 * right + 12 + rows, i = 1, 1)], [3, 2])), 'get 2-d vector subscript')

  ! conversions on get: integer(8) -> real(4), real(8) -> integer, complex -> real
  r = big(:)[right]
  call check(all(abs(r - real([(real(right, real64) * 2.0_real64**40 + i, i = 1, 5)])) &
      <= 1e-6 * abs(r)), 'get integer(8) into real(4)')
  loc(1:5) = d(:)[right]
  call check(all(loc(1:5) == [(int(right + i / 4.0_real64), i = 1, 5)]), 'get real(8) into integer')
  r(1:2) = z(:)[right]
  call check(all(r(1:2) == real(right)), 'get complex into real')

  ! character padding, truncation and kind conversion
  long = s[right]
  call check(long == 'img' // achar(48 + mod(right, 10)) // '     ', 'get character with padding')
  short = s[right]
  call check(short == 'img', 'get character truncated')
  wlong = wide[right]
  call check(wlong == 4_'wide' // char(48 + mod(right, 10), kind=4) // 4_'   ', 'get kind-4 character')
  wlong = s[right]
  call check(wlong == 4_'img' // char(48 + mod(right, 10), kind=4) // 4_'    ', &
      'get kind-1 character into kind 4')
  sync all

  ! send: strided, vector subscript, scalar to array, conversion
  a(1:20:3)[right] = -me
  sync all
  call check(all(a(1:20:3) == -left) .and. a(2) == 100 * me + 2, 'send strided')
  sync all
  a([20, 4, 11])[right] = [1, 2, 3] * me
  sync all
  call check(a(20) == left .and. a(4) == 2 * left .and. a(11) == 3 * left, 'send vector subscript')
  sync all
  d(:)[right] = 7_int8
  big(2:4)[right] = [1.9, -2.9, 3.2]
  sync all
  call check(all(d == 7.0_real64), 'send integer(1) into real(8), scalar to array')
  call check(all(big(2:4) == [1_int64, -2_int64, 3_int64]), 'send real into integer(8)')
  sync all
  s[right] = 'xy'
  wide[right] = 'abcdefgh'
  sync all
  call check(s == 'xy    ', 'send character padded')
  call check(wide == 4_'abcdef', 'send kind-1 character into kind 4, truncated')
  sync all

  ! overlapping on this image
  a = [(i, i = 1, 20)]
  sync all
  a(2:20)[me] = a(1:19)[me]
  call check(all(a == [1, (i, i = 1, 19)]), 'overlapping send on the same image')
  a = [(i, i = 1, 20)]
  a(1:19)[me] = a(2:20)[me]
  call check(all(a == [(i, i = 2, 20), 20]), 'overlapping send, other direction')
  sync all

  ! sendget: between two images other than (possibly) this one
  a = [(100 * me + i, i = 1, 20)]
  sync all
  if (me == 1) then
    a(1:10)[right] = a(11:20)[left]
    m(1, :)[left] = m(:5, 2)[right]
  end if
  sync all
  if (me == merge(1, 2, n == 1)) call check(all(a(1:10) == [(100 * n + i, i = 11, 20)]), 'sendget')
  if (me == n) call check(all(m(1, :) == [(1000 * merge(1, 2, n == 1) + 6 + i, i = 1, 5)]), &
      'sendget of sections')
  sync all
  if (me == 1) print '(a)', 'PASS transfer'
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
