! teams.f90 - FORM TEAM, CHANGE TEAM, END TEAM, SYNC TEAM, TEAM_NUMBER:
! image indices, SYNC ALL, coindexed access and collectives inside a team.
program teams
  use iso_fortran_env, only: team_type
  implicit none
  type(team_type) :: halves, sub
  integer :: me, n, my_team, sum_in_team, x[*], expect_size, i, right

  me = this_image()
  n = num_images()
  my_team = 2 - mod(me, 2)            ! odd images: team 1, even: team 2
  x = me
  call check(team_number() == -1, 'team_number of the initial team')
  form team (my_team, halves)
  call check(team_number(halves) == my_team, 'team_number of a formed team')
  expect_size = merge((n + 1) / 2, n / 2, my_team == 1)

  change team (halves)
    call check(team_number() == my_team, 'team_number inside the team')
    call check(num_images() == expect_size, 'num_images inside the team')
    call check(this_image() == (me + 1) / 2, 'this_image inside the team')
    ! image indices are those of the team: image k is initial image 2k-1 or 2k
    right = merge(1, this_image() + 1, this_image() == num_images())
    sync all
    call check(x[right] == 2 * right - 2 + my_team, 'coindexed read inside the team')
    sum_in_team = me
    call co_sum(sum_in_team)
    call check(sum_in_team == sum([(i, i = my_team, n, 2)]), 'co_sum inside the team')
    ! a nested team of one image each
    form team (this_image(), sub)
    change team (sub)
      call check(num_images() == 1 .and. this_image() == 1, 'nested team of one')
      sync all
    end team
    sync all
  end team

  call check(num_images() == n .and. this_image() == me, 'back in the initial team')
  sum_in_team = 1
  call co_sum(sum_in_team)
  call check(sum_in_team == n, 'co_sum after end team')
  sync team (halves)
  change team (halves)
    sync all
  end team
  sync all
  if (me == 1) print '(a)', 'PASS teams'
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
