/*
 * fuzz_seed.c - writes the seed corpus for fuzz_unpack.
 *
 *   fuzz_seed <dir>
 *
 * Each file is an input in fuzz_unpack's layout: the u16 id of a type,
 * little-endian, then bytes PMIx_Data_pack wrote for that type, so the
 * fuzzer starts from buffers that unpack and mutates its way out from
 * there. Two kinds of sample are written:
 *  - for every registered type, a zero-filled element packed once and
 *    three times (the all-zero element is a valid value of every type:
 *    NULL strings, empty arrays, PMIX_UNDEF values), which needs no list
 *    of types here and so covers a type the moment it is registered;
 *  - a few filled-in compound values (infos holding arrays, an app, a
 *    query, nested data arrays) whose shapes a zero element cannot show,
 *    and one compressed block for PMIx_Data_decompress (selector 0).
 * A type whose zero element does not pack is skipped.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bfrops.h"
#include "pmix.h"

static const char *corpus_dir;
static int written;

/* Write [selector][bytes] to <dir>/<name>. */
static void write_seed(const char *name, uint16_t selector, const void *bytes, size_t len)
{
    char path[4096];
    uint8_t head[2] = {(uint8_t)(selector & 0xff), (uint8_t)(selector >> 8)};
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", corpus_dir, name);
    f = fopen(path, "wb");
    if (NULL == f || 2 != fwrite(head, 1, 2, f) || (0 < len && len != fwrite(bytes, 1, len, f))) {
        fprintf(stderr, "fuzz_seed: cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
    fclose(f);
    ++written;
}

/* Pack n elements of type and write them as seed name; false if the pack
 * fails. */
static bool pack_seed(const char *name, void *elems, int32_t n, pmix_data_type_t type)
{
    pmix_data_buffer_t buf;
    bool ok;

    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    ok = PMIX_SUCCESS == PMIx_Data_pack(NULL, &buf, elems, n, type);
    if (ok) {
        write_seed(name, type, buf.base_ptr, buf.bytes_used);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    return ok;
}

static void zero_seeds(const drover_datatype_t *type, void *arg)
{
    void *zeros = calloc(3, type->size);
    char name[128];

    (void)arg;
    if (NULL == zeros) {
        exit(1);
    }
    snprintf(name, sizeof(name), "%s-zero", type->name);
    if (pack_seed(name, zeros, 1, type->id)) {
        snprintf(name, sizeof(name), "%s-zero-x3", type->name);
        (void)pack_seed(name, zeros, 3, type->id);
    }
    free(zeros);
}

/* Infos of several value shapes, the commonest thing on the wire. */
static void info_seeds(void)
{
    pmix_info_t *infos;
    pmix_data_array_t *procs;
    pmix_proc_t *p;
    int32_t size = 4;
    double pi = 3.141592653589793;

    PMIX_DATA_ARRAY_CREATE(procs, 2, PMIX_PROC);
    p = procs->array;
    PMIX_LOAD_PROCID(&p[0], "seed-ns", 0);
    PMIX_LOAD_PROCID(&p[1], "seed-ns", PMIX_RANK_WILDCARD);
    PMIX_INFO_CREATE(infos, 5);
    PMIX_INFO_LOAD(&infos[0], PMIX_JOB_SIZE, &size, PMIX_INT32);
    PMIX_INFO_LOAD(&infos[1], PMIX_NSPACE, "seed-ns", PMIX_STRING);
    PMIX_INFO_LOAD(&infos[2], PMIX_QUERY_PSET_MEMBERSHIP, procs, PMIX_DATA_ARRAY);
    PMIX_INFO_LOAD(&infos[3], "seed.double", &pi, PMIX_DOUBLE);
    PMIX_INFO_LOAD(&infos[4], "seed.flag", NULL, PMIX_BOOL);
    PMIX_INFO_REQUIRED(&infos[4]);
    pack_seed("info-mixed", infos, 5, PMIX_INFO);
    pack_seed("value-darray", &infos[2].value, 1, PMIX_VALUE);
    pack_seed("darray-procs", procs, 1, PMIX_DATA_ARRAY);

    PMIX_INFO_FREE(infos, 5);
    PMIX_DATA_ARRAY_FREE(procs);
}

/* An array of infos inside an array of values inside an info. */
static void nested_seeds(void)
{
    pmix_data_array_t *outer, *inner;
    pmix_info_t nest;

    PMIX_DATA_ARRAY_CREATE(inner, 1, PMIX_INFO);
    PMIX_INFO_LOAD((pmix_info_t *)inner->array, "seed.inner", "deep", PMIX_STRING);
    PMIX_DATA_ARRAY_CREATE(outer, 1, PMIX_VALUE);
    PMIx_Value_load(outer->array, inner, PMIX_DATA_ARRAY);
    PMIX_INFO_LOAD(&nest, "seed.nested", outer, PMIX_DATA_ARRAY);
    pack_seed("info-nested", &nest, 1, PMIX_INFO);
    pack_seed("darray-values", outer, 1, PMIX_DATA_ARRAY);
    PMIX_INFO_DESTRUCT(&nest);
    PMIX_DATA_ARRAY_FREE(outer);
    PMIX_DATA_ARRAY_FREE(inner);
}

static void struct_seeds(void)
{
    char *strings[] = {"seed", NULL, "", "a longer string with spaces"};
    pmix_byte_object_t bo = {"\x00\x01\xfe\xff", 4};
    pmix_app_t *app;
    pmix_query_t *query;
    pmix_envar_t envar = {"PATH", "/usr/bin", ':'};
    pmix_status_t rc;

    pack_seed("string-x4", strings, 4, PMIX_STRING);
    pack_seed("byte-object", &bo, 1, PMIX_BYTE_OBJECT);
    pack_seed("envar", &envar, 1, PMIX_ENVAR);

    PMIX_APP_CREATE(app, 1);
    app->cmd = strdup("/bin/true");
    PMIX_ARGV_APPEND(rc, app->argv, "true");
    PMIX_ARGV_APPEND(rc, app->argv, "--seed");
    PMIX_ARGV_APPEND(rc, app->env, "SEED=1");
    app->maxprocs = 2;
    PMIX_APP_INFO_CREATE(app, 1);
    PMIX_INFO_LOAD(&app->info[0], "seed.app", "yes", PMIX_STRING);
    pack_seed("app", app, 1, PMIX_APP);
    PMIX_APP_FREE(app, 1);

    PMIX_QUERY_CREATE(query, 1);
    PMIX_ARGV_APPEND(rc, query->keys, PMIX_QUERY_NAMESPACES);
    (void)rc;
    PMIX_QUERY_QUALIFIERS_CREATE(query, 1);
    PMIX_INFO_LOAD(&query->qualifiers[0], PMIX_NSPACE, "seed-ns", PMIX_STRING);
    pack_seed("query", query, 1, PMIX_QUERY);
    PMIX_QUERY_FREE(query, 1);
}

/* A compressed packed buffer, for the decompress path (selector 0). */
static void compressed_seed(void)
{
    pmix_data_buffer_t buf;
    uint8_t *zipped = NULL;
    size_t nzipped = 0;
    int32_t values[2048];
    size_t i;

    for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
        values[i] = (int32_t)(i % 7);
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    if (PMIX_SUCCESS == PMIx_Data_pack(NULL, &buf, values, 2048, PMIX_INT32) &&
        PMIx_Data_compress((uint8_t *)buf.base_ptr, buf.bytes_used, &zipped, &nzipped)) {
        write_seed("compressed-int32", PMIX_UNDEF, zipped, nzipped);
    }
    free(zipped);
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
}

int main(int argc, char **argv)
{
    if (2 != argc) {
        fprintf(stderr, "usage: %s <corpus-dir>\n", argv[0]);
        return 2;
    }
    corpus_dir = argv[1];
    bfrops_foreach(zero_seeds, NULL);
    info_seeds();
    nested_seeds();
    struct_seeds();
    compressed_seed();
    printf("fuzz_seed: wrote %d seeds to %s\n", written, corpus_dir);
    return 0;
}
