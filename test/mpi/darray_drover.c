/*
 * darray_drover.c - drover_type_create_darray for every rank of the cases
 * of darray_cases.h, in darray_mpi.c's format.
 */
#include <stdio.h>

#include "darray_cases.h"
#include "drover.h"

int main(void)
{
    static const int dist[] = {DROVER_DISTRIBUTE_BLOCK, DROVER_DISTRIBUTE_CYCLIC,
                               DROVER_DISTRIBUTE_NONE};
    for (size_t k = 0; k < DARRAY_NCASES; k++) {
        const darray_case_t *c = &darray_cases[k];
        int d[3], darg[3];
        for (int i = 0; i < c->ndims; i++) {
            d[i] = dist[c->distribs[i]];
            darg[i] = DFLT == c->dargs[i] ? DROVER_DISTRIBUTE_DFLT_DARG : c->dargs[i];
        }
        for (int rank = 0; rank < c->size; rank++) {
            pmix_data_type_t t, old, basics[DARRAY_MAX_ELEMS];
            pmix_status_t rc = drover_type_create_darray(
                NULL, c->size, rank, c->ndims, c->gsizes, d, darg, c->psizes,
                ORD_C == c->order ? DROVER_ORDER_C : DROVER_ORDER_FORTRAN, PMIX_INT32, &t);
            printf("case %zu rank %d:", k, rank);
            size_t size, n;
            intptr_t lb, extent, tlb, textent, disp[DARRAY_MAX_ELEMS];
            int ni, na, nd, combiner, ints[16];
            if (PMIX_SUCCESS != rc || PMIX_SUCCESS != drover_type_size(t, &size) ||
                PMIX_SUCCESS != drover_type_get_extent(t, &lb, &extent) ||
                PMIX_SUCCESS != drover_type_get_true_extent(t, &tlb, &textent) ||
                PMIX_SUCCESS != drover_type_get_envelope(t, &ni, &na, &nd, &combiner) ||
                PMIX_SUCCESS != drover_type_get_contents(t, 16, 0, 1, ints, NULL, &old) ||
                PMIX_SUCCESS != drover_type_get_typemap(t, DARRAY_MAX_ELEMS, basics, disp, &n)) {
                printf(" failed (%d)\n", rc);
                return 1;
            }
            if (0 == size) {
                printf(" empty\n");
                continue;
            }
            printf(" size %zu lb %ld extent %ld true %ld %ld darray %d ints", size, (long)lb,
                   (long)extent, (long)tlb, (long)textent, DROVER_COMBINER_DARRAY == combiner);
            for (int i = 0; i < ni; i++) {
                printf(" %d", ints[i]);
            }
            printf(" map");
            for (size_t i = 0; i < n; i++) {
                printf(" %ld", (long)(disp[i] / 4));
            }
            printf("\n");
        }
    }
    return 0;
}
