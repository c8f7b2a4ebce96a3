/*
 * mpi_pack.c - Open MPI's MPI_Pack + MPI_Unpack of the data types_bench.c
 * packs, as MPI derived datatypes (bench/types/run.sh runs both).
 * Prints "figure nanoseconds", the best of REPEAT rounds.
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_common.h"


static double round_trip(const void *src, void *dst, int count, MPI_Datatype type)
{
    int size;
    MPI_Pack_size(count, type, MPI_COMM_SELF, &size);
    char *buf = malloc((size_t)size);
    double best = 1e30;
    for (int r = 0; r < REPEAT; r++) {
        int pos = 0;
        double t0 = now();
        MPI_Pack(src, count, type, buf, size, &pos, MPI_COMM_SELF);
        pos = 0;
        MPI_Unpack(buf, size, &pos, dst, count, type, MPI_COMM_SELF);
        double t = now() - t0;
        best = t < best ? t : best;
    }
    free(buf);
    return best;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    size_t big = 2048;
    double *a = malloc(sizeof(double) * big * big), *b = calloc(big * big, sizeof(double));
    for (size_t i = 0; i < big * big; i++) {
        a[i] = (double)i;
    }
    printf("contig_mpi %.0f\n", round_trip(a, b, 1000000, MPI_DOUBLE));

    MPI_Datatype cell;
    int lens[] = {1, 50};
    MPI_Aint disps[] = {offsetof(cell_t, a), offsetof(cell_t, b)};
    MPI_Datatype types[] = {MPI_CHAR, MPI_INT};
    MPI_Type_create_struct(2, lens, disps, types, &cell);
    MPI_Type_commit(&cell);
    cell_t *cells = calloc(100000, sizeof(cell_t)), *out = calloc(100000, sizeof(cell_t));
    for (size_t i = 0; i < 100000; i++) {
        cells[i].a = (char)i;
        for (int k = 0; k < 50; k++) {
            cells[i].b[k / 10][k % 10] = (int)(i + k);
        }
    }
    printf("struct_mpi %.0f\n", round_trip(cells, out, 100000, cell));

    MPI_Datatype window;
    int sizes[] = {2048, 2048}, subsizes[] = {1024, 1024}, starts[] = {512, 512};
    MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &window);
    MPI_Type_commit(&window);
    printf("slice_mpi %.0f\n", round_trip(a, b, 1, window));
    MPI_Type_free(&cell);
    MPI_Type_free(&window);
    free(a);
    free(b);
    free(cells);
    free(out);
    MPI_Finalize();
    return 0;
}
