! reduce_small.f90 - CO_REDUCE with derived types of 16 bytes or less,
! whose results come back in registers chosen by the component types:
! integers only, reals only, one byte, a lone real(10), arrays of them with
! RESULT_IMAGE; and the one layout that is refused (reals in one eightbyte,
! integers in the other), with STAT=. Also operators on real(10) and
! real(16), which gfortran describes alike.
module small_ops
  use iso_fortran_env, only: int8, int64, real32, real64
  implicit none
  type :: ints
    integer :: a, b
  end type
  type :: reals
    real(real32) :: x, y
  end type
  type :: two_reals
    real(real64) :: x, y
  end type
  type :: real_int
    real(real64) :: x
    integer :: k
  end type
  type :: int_real
    integer(int64) :: k
    real(real64) :: x
  end type
  type :: tiny
    integer(int8) :: c
  end type
  type :: extended
    real(10) :: x
  end type
contains
  ! real(10) and real(16) have the same descriptor; their results come
  ! back in different registers.
  pure real(10) function add10(p, q)
    real(10), intent(in) :: p, q
    add10 = p + q
  end function
  pure real(16) function add16(p, q)
    real(16), intent(in) :: p, q
    add16 = p + q
  end function
  pure type(ints) function add_ints(p, q)
    type(ints), intent(in) :: p, q
    add_ints = ints(p%a + q%a, max(p%b, q%b))
  end function
  pure type(reals) function add_reals(p, q)
    type(reals), intent(in) :: p, q
    add_reals = reals(p%x + q%x, min(p%y, q%y))
  end function
  pure type(two_reals) function add_two_reals(p, q)
    type(two_reals), intent(in) :: p, q
    add_two_reals = two_reals(p%x + q%x, p%y * q%y)
  end function
  pure type(real_int) function add_real_int(p, q)
    type(real_int), intent(in) :: p, q
    add_real_int = real_int(p%x + q%x, p%k + q%k)
  end function
  pure type(int_real) function add_int_real(p, q)
    type(int_real), intent(in) :: p, q
    add_int_real = int_real(p%k + q%k, max(p%x, q%x))
  end function
  pure type(tiny) function add_tiny(p, q)
    type(tiny), intent(in) :: p, q
    add_tiny = tiny(p%c + q%c)
  end function
  pure type(extended) function add_extended(p, q)
    type(extended), intent(in) :: p, q
    add_extended = extended(p%x + q%x)
  end function
end module

program reduce_small
  use small_ops
  implicit none
  type(ints) :: i2, iarr(3)
  type(reals) :: r2
  type(two_reals) :: d2
  type(real_int) :: ri
  type(int_real) :: ir
  type(tiny) :: t1
  type(extended) :: e1
  real(10) :: x10
  real(16) :: x16
  integer :: me, n, k, total, st
  logical :: ok

  me = this_image()
  n = num_images()
  total = n * (n + 1) / 2
  ok = .true.

  i2 = ints(me, -me)
  call co_reduce(i2, add_ints)
  call check(i2%a == total .and. i2%b == -1, 'integers only')
  r2 = reals(real(me), real(me))
  call co_reduce(r2, add_reals)
  call check(r2%x == total .and. r2%y == 1, 'two real(4)')
  d2 = two_reals(me, 2)
  call co_reduce(d2, add_two_reals)
  call check(d2%x == total .and. d2%y == 2.0_real64 ** n, 'two real(8)')
  ! Reals in one eightbyte and integers in the other come back in the same
  ! two registers in either order: refused, never guessed (one image has
  ! nothing to combine). No ERRMSG=: gfortran 12 passes it by value.
  ri = real_int(0.5_real64 * me, 10 * me)
  call co_reduce(ri, add_real_int, stat=st)
  call check((st /= 0) .eqv. (n > 1), 'real(8) then integer refused')
  ir = int_real(int(me, int64) * 2_int64**40, -me)
  call co_reduce(ir, add_int_real, stat=st)
  call check((st /= 0) .eqv. (n > 1), 'integer(8) then real(8) refused')
  t1 = tiny(int(me, int8))
  call co_reduce(t1, add_tiny)
  call check(t1%c == total, 'one byte')
  e1 = extended(me)
  call co_reduce(e1, add_extended)
  call check(e1%x == total, 'a lone real(10)')
  x10 = real(me, 10) / 3
  call co_reduce(x10, add10)
  call check(abs(x10 - real(total, 10) / 3) < 1e-17_10, 'real(10), told from real(16)')
  x16 = real(me, 16) / 3
  call co_reduce(x16, add16)
  call check(abs(x16 - real(total, 16) / 3) < 1e-31_16, 'real(16), told from real(10)')
  iarr = [(ints(me * k, me), k = 1, 3)]
  call co_reduce(iarr, add_ints, result_image=n)
  if (me == n) then
    call check(all(iarr%a == [(total * k, k = 1, 3)]) .and. all(iarr%b == n), &
               'array with result_image')
  else
    call check(all(iarr%a == [(me * k, k = 1, 3)]), 'other images keep their array')
  end if

  sync all
  if (ok .and. me == 1) print '(a, i0, a)', 'PASS reduce_small (', n, ' images)'
  if (.not. ok) error stop 1

contains

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(*), intent(in) :: what
    if (.not. cond) then
      print '(a, i0, 2a)', 'FAIL on image ', me, ': co_reduce ', what
      ok = .false.
    end if
  end subroutine
end program
