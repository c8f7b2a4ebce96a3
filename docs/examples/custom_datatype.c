/*
 * custom_datatype.c - register a datatype at run time and use it through
 * the standard PMIx data calls. docs/adding-a-datatype.md walks through it.
 *
 * Build against an installed drover:
 *
 *     cc custom_datatype.c $(pkg-config --cflags --libs drover)
 *
 * The type is a temperature reading: a sensor name the reading owns, a
 * double and a count. Its pack and unpack are written in terms of types
 * drover already knows (drover_pack / drover_unpack), so they never touch
 * bytes directly and inherit their checks: a truncated or forged buffer
 * is refused by the string and number unpacks underneath.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drover.h>
#include <pmix.h>

/* Any id in [DROVER_DATATYPE_USER_MIN, DROVER_DATATYPE_USER_MAX] that no
 * other part of the program registers. */
#define READING_TYPE ((pmix_data_type_t)1100)

typedef struct reading {
    char *sensor;     /* owned: allocated through the tma it was made with */
    double celsius;
    uint32_t samples;
} reading_t;

static pmix_status_t reading_pack(drover_writer_t *w, const void *elem)
{
    const reading_t *r = elem;
    pmix_status_t rc = drover_pack(w, &r->sensor, 1, PMIX_STRING);
    if (PMIX_SUCCESS == rc) {
        rc = drover_pack(w, &r->celsius, 1, PMIX_DOUBLE);
    }
    if (PMIX_SUCCESS == rc) {
        rc = drover_pack(w, &r->samples, 1, PMIX_UINT32);
    }
    return rc;
}

/* The element arrives zeroed. On failure, free what was allocated and
 * leave it zeroed again: drover cleans up the elements before it. */
static pmix_status_t reading_unpack(drover_reader_t *rd, void *elem)
{
    reading_t *r = elem;
    pmix_status_t rc = drover_unpack(rd, &r->sensor, 1, PMIX_STRING);
    if (PMIX_SUCCESS == rc) {
        rc = drover_unpack(rd, &r->celsius, 1, PMIX_DOUBLE);
    }
    if (PMIX_SUCCESS == rc) {
        rc = drover_unpack(rd, &r->samples, 1, PMIX_UINT32);
    }
    if (PMIX_SUCCESS != rc) {
        drover_tma_free(drover_reader_tma(rd), r->sensor);
        memset(r, 0, sizeof(*r));
    }
    return rc;
}

/* dest is uninitialised storage; allocate through tma. */
static pmix_status_t reading_copy(void *dest, const void *src, drover_tma_t *tma)
{
    const reading_t *from = src;
    reading_t *to = dest;
    char *sensor = NULL;
    if (NULL != from->sensor && NULL == (sensor = drover_tma_strdup(tma, from->sensor))) {
        return PMIX_ERR_NOMEM;
    }
    *to = *from;
    to->sensor = sensor;
    return PMIX_SUCCESS;
}

static pmix_value_cmp_t reading_compare(const void *a, const void *b)
{
    const reading_t *x = a, *y = b;
    int c = strcmp(NULL == x->sensor ? "" : x->sensor, NULL == y->sensor ? "" : y->sensor);
    if (0 == c) {
        c = (x->celsius > y->celsius) - (x->celsius < y->celsius);
    }
    if (0 == c) {
        c = (x->samples > y->samples) - (x->samples < y->samples);
    }
    return 0 == c ? PMIX_EQUAL : c > 0 ? PMIX_VALUE1_GREATER : PMIX_VALUE2_GREATER;
}

/* The caller frees the text with free(). */
static char *reading_print(const void *elem)
{
    const reading_t *r = elem;
    char *text;
    if (asprintf(&text, "%s: %.2f C over %u samples", NULL == r->sensor ? "?" : r->sensor,
                 r->celsius, r->samples) < 0) {
        return NULL;
    }
    return text;
}

/* Free what the element owns, not the element. */
static void reading_release(void *elem, drover_tma_t *tma)
{
    reading_t *r = elem;
    drover_tma_free(tma, r->sensor);
    r->sensor = NULL;
}

static const drover_datatype_t reading_type = {
    .name = "EXAMPLE_READING",
    .id = READING_TYPE,
    .size = sizeof(reading_t),
    .min_wire = 4 + 8 + 4,   /* the shortest packed reading: NULL name, double, count */
    .flags = 0,              /* held behind data.ptr in a pmix_value_t */
    .pack = reading_pack,
    .unpack = reading_unpack,
    .copy = reading_copy,
    .compare = reading_compare,
    .print = reading_print,
    .release = reading_release,
};

static int fail(const char *what, pmix_status_t rc)
{
    fprintf(stderr, "custom_datatype: %s failed: %s\n", what, PMIx_Error_string(rc));
    return EXIT_FAILURE;
}

int main(void)
{
    pmix_status_t rc = drover_register_datatype(&reading_type);
    if (PMIX_SUCCESS != rc) {
        return fail("drover_register_datatype", rc);
    }
    printf("registered %s as datatype %u\n", PMIx_Data_type_string(READING_TYPE),
           (unsigned)READING_TYPE);

    /* Pack two readings, then unpack them as a peer would. */
    reading_t in[2] = {{"rack-3/inlet", 21.5, 60}, {"rack-3/outlet", 34.25, 60}};
    pmix_data_buffer_t buf;
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    rc = PMIx_Data_pack(NULL, &buf, in, 2, READING_TYPE);
    if (PMIX_SUCCESS != rc) {
        return fail("PMIx_Data_pack", rc);
    }
    reading_t out[2];
    int32_t n = 2;
    rc = PMIx_Data_unpack(NULL, &buf, out, &n, READING_TYPE);
    if (PMIX_SUCCESS != rc) {
        return fail("PMIx_Data_unpack", rc);
    }
    printf("unpacked %d readings\n", n);
    for (int32_t i = 0; i < n; i++) {
        char *text;
        if (PMIX_SUCCESS == PMIx_Data_print(&text, "", &out[i], READING_TYPE)) {
            printf("%s\n", text);
            free(text);
        }
    }

    /* Copies and values work as for any standard type. */
    reading_t *copy;
    rc = PMIx_Data_copy((void **)&copy, &out[1], READING_TYPE);
    if (PMIX_SUCCESS != rc) {
        return fail("PMIx_Data_copy", rc);
    }
    pmix_value_t original, copied;
    PMIx_Value_load(&original, &in[1], READING_TYPE);
    PMIx_Value_load(&copied, copy, READING_TYPE);
    printf("the copy %s the original\n",
           PMIX_EQUAL == PMIx_Value_compare(&original, &copied) ? "equals" : "differs from");

    /* Unpacked and copied readings own heap memory (no tma was given). */
    PMIx_Value_destruct(&original);
    PMIx_Value_destruct(&copied);
    reading_release(copy, NULL);
    free(copy);
    for (int32_t i = 0; i < n; i++) {
        reading_release(&out[i], NULL);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    return EXIT_SUCCESS;
}
