/*
 * darray_mpi.c - Open MPI's MPI_Type_create_darray for every rank of the
 * cases of darray_cases.h, one line each: size, lb, extent, true lb and
 * extent, the get_contents integers, and the type map as indices into the
 * global array (the int indices MPI_Pack takes from it).
 * run_darray.sh compares the lines with darray_drover.c's.
 */
#include <mpi.h>
#include <stdio.h>

#include "darray_cases.h"

int main(int argc, char **argv)
{
    static const int dist[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE};
    static int index[DARRAY_MAX_ELEMS], packed[DARRAY_MAX_ELEMS];
    MPI_Init(&argc, &argv);
    for (int i = 0; i < DARRAY_MAX_ELEMS; i++) {
        index[i] = i;
    }
    for (size_t k = 0; k < DARRAY_NCASES; k++) {
        const darray_case_t *c = &darray_cases[k];
        int d[3], darg[3];
        for (int i = 0; i < c->ndims; i++) {
            d[i] = dist[c->distribs[i]];
            darg[i] = DFLT == c->dargs[i] ? MPI_DISTRIBUTE_DFLT_DARG : c->dargs[i];
        }
        for (int rank = 0; rank < c->size; rank++) {
            MPI_Datatype t;
            MPI_Type_create_darray(c->size, rank, c->ndims, c->gsizes, d, darg, c->psizes,
                                   ORD_C == c->order ? MPI_ORDER_C : MPI_ORDER_FORTRAN, MPI_INT,
                                   &t);
            MPI_Type_commit(&t);
            int size, ni, na, nd, combiner, ints[16], pos = 0;
            MPI_Aint lb, extent, tlb, textent;
            MPI_Datatype old;
            MPI_Type_size(t, &size);
            printf("case %zu rank %d:", k, rank);
            if (0 == size) {
                printf(" empty\n");
                MPI_Type_free(&t);
                continue;
            }
            MPI_Type_get_extent(t, &lb, &extent);
            MPI_Type_get_true_extent(t, &tlb, &textent);
            MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner);
            MPI_Type_get_contents(t, 16, 0, 1, ints, NULL, &old);
            printf(" size %d lb %ld extent %ld true %ld %ld darray %d ints", size, (long)lb,
                   (long)extent, (long)tlb, (long)textent, MPI_COMBINER_DARRAY == combiner);
            for (int i = 0; i < ni; i++) {
                printf(" %d", ints[i]);
            }
            MPI_Pack(index, 1, t, packed, sizeof(packed), &pos, MPI_COMM_SELF);
            printf(" map");
            for (int i = 0; i < size / 4; i++) {
                printf(" %d", packed[i]);
            }
            printf("\n");
            MPI_Type_free(&t);
        }
    }
    MPI_Finalize();
    return 0;
}
