/*
 * types_bench.c - pack + unpack of declared datatypes against the
 * hand-written registry path and memcpy (bench/types/run.sh runs it next
 * to mpi_pack.c, Open MPI's MPI_Pack/MPI_Unpack of the same data).
 *
 * Prints "figure nanoseconds" lines, the best of REPEAT rounds:
 *   contig_memcpy     8 MB copied twice (the floor for 10^6 doubles)
 *   contig_declared   10^6 doubles as one declared array element
 *   contig_registry   10^6 PMIX_DOUBLE through PMIx_Data_pack/unpack
 *   struct_declared   10^5 struct {char a; int b[5][10];}, declared
 *   struct_registry   the same through a C-registered record
 *   slice_declared    a 1024x1024 slice of a 2048x2048 double array
 *   slice_registry    the same, one PMIX_DOUBLE row at a time
 *   load_1000         loading a file of 1,000 types (check-only)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "drover.h"
#include "pmix.h"

#define NCONTIG 1000000
#define NSTRUCT 100000
#define BIG 2048
#define SLICE 1024

static void check(pmix_status_t rc, const char *what)
{
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "types_bench: %s: %s\n", what, PMIx_Error_string(rc));
        exit(1);
    }
}

/* Empty buf for the next round, keeping its memory: MPI_Pack is handed a
 * buffer the caller allocated once, so both sides time packing alone. */
static void rewind_buffer(pmix_data_buffer_t *buf)
{
    buf->bytes_used = 0;
    buf->pack_ptr = buf->unpack_ptr = buf->base_ptr;
}

/* Best time of pack then unpack of n elements of type from src to dst. */
static double round_trip(const void *src, void *dst, int32_t n, pmix_data_type_t type)
{
    double best = 1e30;
    pmix_data_buffer_t buf;
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    for (int r = 0; r < REPEAT; r++) {
        rewind_buffer(&buf);
        double t0 = now();
        check(PMIx_Data_pack(NULL, &buf, (void *)src, n, type), "pack");
        int32_t got = n;
        check(PMIx_Data_unpack(NULL, &buf, dst, &got, type), "unpack");
        double t = now() - t0;
        best = t < best ? t : best;
    }
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    return best;
}

/* The hand-written record of cell_t: what a C programmer registers. */
static pmix_status_t cell_pack(drover_writer_t *w, const void *elem)
{
    const cell_t *c = elem;
    pmix_status_t rc = drover_pack(w, &c->a, 1, PMIX_INT8);
    return PMIX_SUCCESS == rc ? drover_pack(w, c->b, 50, PMIX_INT32) : rc;
}

static pmix_status_t cell_unpack(drover_reader_t *r, void *elem)
{
    cell_t *c = elem;
    pmix_status_t rc = drover_unpack(r, &c->a, 1, PMIX_INT8);
    return PMIX_SUCCESS == rc ? drover_unpack(r, c->b, 50, PMIX_INT32) : rc;
}

static char *cell_print(const void *elem)
{
    return strdup(((const cell_t *)elem)->a ? "cell" : "empty cell");
}

static const drover_datatype_t cell_record = {
    .name = "BENCH_CELL", .id = 2000, .size = sizeof(cell_t), .min_wire = 201,
    .pack = cell_pack, .unpack = cell_unpack, .print = cell_print,
};

static double load_1000(void)
{
    size_t cap = 1 << 20, used = 0;
    char *text = malloc(cap);
    used += (size_t)snprintf(text + used, cap - used, "types:\n");
    for (int i = 0; i < 1000; i++) {
        used += (size_t)snprintf(text + used, cap - used,
                                 "  t%d: {type: struct, members: [{a: char}, {b: {type: array, "
                                 "subtype: %s, size: [5, %d]}}, {c: {type: pointer, subtype: %s}}]}\n",
                                 i, 0 == i ? "int" : "double", i % 7 + 1, 0 == i ? "int" : "t0");
    }
    double best = 1e30;
    for (int r = 0; r < REPEAT; r++) {
        char *errors = NULL;
        double t0 = now();
        check(drover_types_load_string("bench.yml", text, used, DROVER_TYPES_CHECK_ONLY, &errors),
              "load");
        double t = now() - t0;
        best = t < best ? t : best;
        free(errors);
    }
    free(text);
    return best;
}

int main(void)
{
    static const char *spec =
        "types:\n"
        "  contig: {type: array, subtype: double, size: 1000000}\n"
        "  cell: {type: struct, members: [{a: char}, {b: {type: array, subtype: int, size: [5, 10]}}]}\n"
        "  window: {type: array, subtype: double, size: [2048, 2048], start: [512, 512], "
        "subsize: [1024, 1024]}\n";
    check(drover_types_load_string("bench", spec, strlen(spec), 0, NULL), "declare");
    check(drover_register_datatype(&cell_record), "register");
    pmix_data_type_t contig, cell, window;
    check(drover_type_lookup("contig", &contig), "contig");
    check(drover_type_lookup("cell", &cell), "cell");
    check(drover_type_lookup("window", &window), "window");

    double *a = malloc(sizeof(double) * BIG * BIG), *b = calloc(BIG * BIG, sizeof(double));
    for (size_t i = 0; i < (size_t)BIG * BIG; i++) {
        a[i] = (double)i;
    }
    double best = 1e30;
    char *tmp = malloc(sizeof(double) * NCONTIG);
    for (int r = 0; r < REPEAT; r++) {
        double t0 = now();
        memcpy(tmp, a, sizeof(double) * NCONTIG);
        memcpy(b, tmp, sizeof(double) * NCONTIG);
        double t = now() - t0;
        best = t < best ? t : best;
    }
    free(tmp);
    printf("contig_memcpy %.0f\n", best);
    printf("contig_declared %.0f\n", round_trip(a, b, 1, contig));
    printf("contig_registry %.0f\n", round_trip(a, b, NCONTIG, PMIX_DOUBLE));

    cell_t *cells = calloc(NSTRUCT, sizeof(cell_t)), *out = calloc(NSTRUCT, sizeof(cell_t));
    for (size_t i = 0; i < NSTRUCT; i++) {
        cells[i].a = (char)i;
        for (int k = 0; k < 50; k++) {
            cells[i].b[k / 10][k % 10] = (int)(i + k);
        }
    }
    printf("struct_declared %.0f\n", round_trip(cells, out, NSTRUCT, cell));
    printf("struct_registry %.0f\n", round_trip(cells, out, NSTRUCT, 2000));

    printf("slice_declared %.0f\n", round_trip(a, b, 1, window));
    best = 1e30;
    pmix_data_buffer_t buf;
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    for (int r = 0; r < REPEAT; r++) {
        rewind_buffer(&buf);
        double t0 = now();
        for (size_t row = 512; row < 512 + SLICE; row++) {
            check(PMIx_Data_pack(NULL, &buf, a + row * BIG + 512, SLICE, PMIX_DOUBLE), "row");
        }
        for (size_t row = 512; row < 512 + SLICE; row++) {
            int32_t n = SLICE;
            check(PMIx_Data_unpack(NULL, &buf, b + row * BIG + 512, &n, PMIX_DOUBLE), "row");
        }
        double t = now() - t0;
        best = t < best ? t : best;
    }
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    printf("slice_registry %.0f\n", best);
    printf("load_1000 %.0f\n", load_1000());
    free(a);
    free(b);
    free(cells);
    free(out);
    return 0;
}
