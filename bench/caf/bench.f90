! bench.f90 - coarray micro-benchmarks, built both with OpenCoarrays' caf
! and with drover caf (bench/caf/run.sh runs them side by side).
!
! Every image works at once on its right-hand neighbour; image 1 times each
! loop, closed by a SYNC ALL so that all images' work is inside the time,
! and prints one line per figure: name, value, unit. The last figure is the
! processor time images burn while they wait a second for image 1.
program bench
  use iso_fortran_env, only: int64, real64
  implicit none
  integer, parameter :: mib = 131072          ! doubles in 1 MiB
  real(real64), allocatable :: big(:)[:], strided(:)[:], alloc(:)[:]
  real(real64) :: scalar[*], local_big(mib), v, s, busy
  real :: cpu0, cpu1
  integer :: me, n, right, i, iters
  integer(int64) :: t0, t1, rate

  me = this_image()
  n = num_images()
  right = merge(1, me + 1, me == n)
  allocate(big(mib)[*], strided(2048)[*])
  big = me
  local_big = me
  strided = 0
  scalar = me
  call system_clock(count_rate=rate)

  iters = 2000
  call start()
  do i = 1, iters
    sync all
  end do
  call report('sync_all', 'us')

  iters = 20000
  v = 0
  call start()
  do i = 1, iters
    v = v + scalar[right]
  end do
  call report('scalar_get', 'us')
  if (v /= real(iters, real64) * right) error stop 'scalar get returned wrong data'

  call start()
  do i = 1, iters
    scalar[right] = real(i, real64)
  end do
  call report('scalar_put', 'us')

  iters = 500
  call start()
  do i = 1, iters
    big(:)[right] = local_big
  end do
  call bandwidth('put_1MiB')

  call start()
  do i = 1, iters
    local_big = big(:)[right]
  end do
  call bandwidth('get_1MiB')
  if (any(local_big /= me)) error stop '1 MiB get returned wrong data'

  iters = 2000
  call start()
  do i = 1, iters
    s = 1
    call co_sum(s)
  end do
  call report('co_sum_double', 'us')
  if (s /= n) error stop 'co_sum returned a wrong sum'

  iters = 200
  call start()
  do i = 1, iters
    strided(1:2048:2)[right] = local_big(1:1024)
  end do
  call report('strided_put_1024', 'us')

  iters = 500
  call start()
  do i = 1, iters
    allocate(alloc(1024)[*])
    deallocate(alloc)
  end do
  call report('alloc_dealloc', 'us')

  ! Waiting should cost nothing: image 1 sleeps a second while the others
  ! wait for it in SYNC ALL; the figure is the processor time all of them
  ! used meanwhile.
  sync all
  call cpu_time(cpu0)
  if (me == 1) call sleep(1)
  sync all
  call cpu_time(cpu1)
  busy = cpu1 - cpu0
  call co_sum(busy)
  if (me == 1) print '(a, 1x, f0.3, 1x, a)', 'wait_1s_cpu', busy * 1e3_real64, 'ms'

contains

  subroutine start()
    sync all
    call system_clock(t0)
  end subroutine

  subroutine finish()
    sync all
    call system_clock(t1)
  end subroutine

  subroutine report(name, unit)
    character(*), intent(in) :: name, unit
    call finish()
    if (me == 1) print '(a, 1x, f0.3, 1x, a)', name, &
        real(t1 - t0, real64) / real(rate, real64) / iters * 1e6_real64, unit
  end subroutine

  subroutine bandwidth(name)
    character(*), intent(in) :: name
    call finish()
    if (me == 1) print '(a, 1x, f0.3, 1x, a)', name, &
        8.0_real64 * mib * iters / (real(t1 - t0, real64) / real(rate, real64)) / 1e9_real64, 'GB/s'
  end subroutine
end program
