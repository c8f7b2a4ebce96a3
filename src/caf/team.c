/*
 * team.c - FORM TEAM, CHANGE TEAM, END TEAM, SYNC TEAM and TEAM_NUMBER.
 *
 * FORM TEAM is collective over the current team: an allgather of the team
 * numbers tells every image who shares its number, in the order of their
 * indices in the current team (gfortran 12 accepts no NEW_INDEX=). The
 * first member of each new team allocates the team's barrier and gather
 * areas in its local heap, and a second allgather hands that address to
 * the others. A team's collectives use the members' scratch slots with a
 * count of its own, so collectives in sibling teams never mix (see
 * collective.c). Inside CHANGE TEAM, image indices, SYNC ALL and
 * collectives refer to the new team.
 */
#include <stdlib.h>
#include <string.h>

#include "caf.h"

/* A team's shared block: the barrier, then the gather areas. */
#define GATHER_AT ((size_t)64)
_Static_assert(sizeof(caf_barrier_t) <= GATHER_AT, "the barrier fits before the gather areas");

typedef struct formed {
    int number;
    int new_index;
} formed_t;

CAF_EXPORT void _gfortran_caf_form_team(int team_number, caf_team_t *team, int new_index)
{
    caf_team_rt_t *parent = caf.team;
    int n = parent->size;
    formed_t mine = {team_number, new_index};
    formed_t *all = malloc((size_t)n * sizeof(*all));
    void **barriers = malloc((size_t)n * sizeof(*barriers));
    caf_team_rt_t *t = calloc(1, sizeof(*t));
    int *members = malloc((size_t)n * sizeof(int));
    if (NULL == all || NULL == barriers || NULL == t || NULL == members) {
        caf_fatal("FORM TEAM: out of memory");
    }
    caf_allgather(parent, &mine, all, sizeof(mine));
    int size = 0, index = 0;
    for (int i = 0; i < n; i++) {
        if (all[i].number == team_number) {
            members[size++] = parent->members[i];
            if (i + 1 == parent->index) {
                index = size;
            }
        }
    }
    /* With NEW_INDEX= on every member, members are ordered by it. */
    if (new_index > 0) {
        int *ordered = calloc((size_t)size, sizeof(int));
        if (NULL == ordered) {
            caf_fatal("FORM TEAM: out of memory");
        }
        for (int i = 0, k = 0; i < n; i++) {
            if (all[i].number != team_number) {
                continue;
            }
            int at = all[i].new_index;
            if (at < 1 || at > size || ordered[at - 1]) {
                caf_fatal("FORM TEAM: NEW_INDEX= %d is out of range or repeated", at);
            }
            ordered[at - 1] = members[k++] + 1;
        }
        for (int i = 0; i < size; i++) {
            members[i] = ordered[i] - 1;
        }
        index = new_index;
        free(ordered);
    }
    caf_barrier_t *barrier = NULL;
    if (1 == index) {
        barrier = caf_heap_alloc(&caf.local, GATHER_AT + CAF_GATHER_AREAS_BYTES);
        if (NULL == barrier) {
            caf_fatal("FORM TEAM: out of local heap memory");
        }
        memset(barrier, 0, sizeof(*barrier));
    }
    caf_allgather(parent, &barrier, barriers, sizeof(barrier));
    for (int i = 0; i < n; i++) {
        if (all[i].number == team_number && parent->members[i] == members[0]) {
            barrier = barriers[i];
        }
    }
    *t = (caf_team_rt_t){
        .parent = parent,
        .number = team_number,
        .size = size,
        .index = index,
        .members = members,
        .barrier = barrier,
        .gather = (char *)barrier + GATHER_AT,
    };
    free(all);
    free(barriers);
    *team = t;
}

CAF_EXPORT void _gfortran_caf_change_team(caf_team_t *team, int flags)
{
    caf_team_rt_t *t = *team;
    if (NULL == t || t->parent != caf.team) {
        caf_fatal("CHANGE TEAM: the team was not formed by the current team");
    }
    caf.team = t;
    caf_barrier(t);
}

CAF_EXPORT void _gfortran_caf_end_team(caf_team_t *team)
{
    caf_team_rt_t *t = caf.team;
    if (NULL == t->parent) {
        caf_fatal("END TEAM outside a CHANGE TEAM construct");
    }
    caf_barrier(t);
    caf.team = t->parent;
}

CAF_EXPORT void _gfortran_caf_sync_team(caf_team_t *team, int flags)
{
    caf_team_rt_t *t = team ? *team : caf.team;
    if (NULL == t) {
        caf_fatal("SYNC TEAM on a team that was never formed");
    }
    caf_barrier(t);
}

/* Unlike the other team calls, gfortran passes the team by value here. */
CAF_EXPORT int _gfortran_caf_team_number(caf_team_t team)
{
    caf_team_rt_t *t = team ? team : caf.team;
    return t ? t->number : -1;
}
