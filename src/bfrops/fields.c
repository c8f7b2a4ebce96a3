/*
 * fields.c - the record functions of structs described as tables of
 * fields (fields.h).
 *
 * Design notes:
 *  - Every member goes through the registry, so a struct travels as its
 *    members' wire forms in table order, and no family file re-implements
 *    how a string or an integer is moved. Only the shapes the registry has
 *    no type for are handled here: keys, argv arrays, counted arrays and
 *    optional pointers.
 *  - An argv and an optional pointer travel as counted arrays (an optional
 *    pointer has a count of 0 or 1), which keeps one code path for all
 *    three pointer shapes.
 *  - Storage is zeroed before an unpack or a copy fills it, and a failure
 *    releases the struct as far as it got, which is safe because release
 *    skips members that are still zero. A failed call thus leaves the
 *    struct zeroed with nothing allocated.
 *  - An argv with a NULL string inside would end early and leak what
 *    follows it, so the unpack refuses one.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"

/* ---- Member access ------------------------------------------------------ */

static const void *member(const void *elem, const fields_field_t *f)
{
    return (const char *)elem + f->offset;
}

static void *member_mut(void *elem, const fields_field_t *f)
{
    return (char *)elem + f->offset;
}

static size_t argv_count(char *const *argv)
{
    size_t n = 0;

    if (NULL != argv) {
        while (NULL != argv[n]) {
            n++;
        }
    }
    return n;
}

/* The block an ARGV, ARRAY or OPTIONAL member points to. */
static void *field_block(const void *elem, const fields_field_t *f)
{
    return *(void *const *)member(elem, f);
}

/* How many elements that block holds. */
static size_t field_count(const void *elem, const fields_field_t *f)
{
    void *block = field_block(elem, f);

    if (NULL == block) {
        return 0;
    }
    switch (f->kind) {
    case FIELDS_ARGV:
        return argv_count(block);
    case FIELDS_ARRAY:
        return *(const size_t *)((const char *)elem + f->count_offset);
    default:
        return 1;
    }
}

static void set_block(void *elem, const fields_field_t *f, void *block, size_t n)
{
    *(void **)member_mut(elem, f) = block;
    if (FIELDS_ARRAY == f->kind) {
        *(size_t *)((char *)elem + f->count_offset) = n;
    }
}

pmix_value_cmp_t fields_order(size_t a, size_t b)
{
    if (a > b) {
        return PMIX_VALUE1_GREATER;
    }
    if (a < b) {
        return PMIX_VALUE2_GREATER;
    }
    return PMIX_EQUAL;
}

/* ---- Counted arrays ----------------------------------------------------- */

pmix_status_t fields_put_array(drover_writer_t *w, const void *array, size_t n,
                               pmix_data_type_t type)
{
    pmix_status_t rc;

    if (NULL == array) {
        n = 0;
    }
    rc = wire_put_count(w, n);
    if (PMIX_SUCCESS != rc || 0 == n) {
        return rc;
    }
    return drover_pack(w, array, n, type);
}

/* Reads the count and allocates room for it plus extra zeroed slots (an
 * argv's terminator), then unpacks the elements. */
static pmix_status_t get_block(drover_reader_t *r, void **array, size_t *n,
                               pmix_data_type_t type, size_t extra)
{
    const drover_datatype_t *rec = bfrops_lookup(type);
    drover_tma_t *tma = drover_reader_tma(r);
    pmix_status_t rc;
    size_t count;
    void *block;

    rc = wire_get_count(r, NULL == rec ? 1 : rec->min_wire, &count);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (0 == count) {
        *array = NULL;
        *n = 0;
        return PMIX_SUCCESS;
    }
    if (NULL == rec) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    block = drover_tma_calloc(tma, count + extra, rec->size);
    if (NULL == block) {
        return PMIX_ERR_NOMEM;
    }
    rc = drover_unpack(r, block, count, type);
    if (PMIX_SUCCESS != rc) {
        drover_tma_free(tma, block);
        return rc;
    }
    *array = block;
    *n = count;
    return PMIX_SUCCESS;
}

pmix_status_t fields_get_array(drover_reader_t *r, void **array, size_t *n,
                               pmix_data_type_t type)
{
    return get_block(r, array, n, type, 0);
}

static pmix_status_t get_argv(drover_reader_t *r, char ***argv)
{
    void *block;
    size_t n, i;
    pmix_status_t rc;

    rc = get_block(r, &block, &n, PMIX_STRING, 1);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    for (i = 0; i < n; i++) {
        if (NULL == ((char **)block)[i]) {
            fields_free_array(block, n, PMIX_STRING, drover_reader_tma(r));
            return PMIX_ERR_UNPACK_FAILURE;
        }
    }
    *argv = block;
    return PMIX_SUCCESS;
}

static pmix_status_t copy_block(void **dest, const void *src, size_t n, pmix_data_type_t type,
                                size_t extra, drover_tma_t *tma)
{
    const drover_datatype_t *rec;
    pmix_status_t rc;
    void *block;

    *dest = NULL;
    if (NULL == src || 0 == n) {
        return PMIX_SUCCESS;
    }
    rec = bfrops_lookup(type);
    if (NULL == rec) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    block = drover_tma_calloc(tma, n + extra, rec->size);
    if (NULL == block) {
        return PMIX_ERR_NOMEM;
    }
    rc = bfrops_copy(block, src, n, type, tma);
    if (PMIX_SUCCESS != rc) {
        drover_tma_free(tma, block);
        return rc;
    }
    *dest = block;
    return PMIX_SUCCESS;
}

pmix_status_t fields_copy_array(void **dest, const void *src, size_t n, pmix_data_type_t type,
                                drover_tma_t *tma)
{
    return copy_block(dest, src, n, type, 0, tma);
}

pmix_value_cmp_t fields_compare_array(const void *a, size_t na, const void *b, size_t nb,
                                      pmix_data_type_t type)
{
    pmix_value_cmp_t c;

    c = fields_order(NULL == a ? 0 : na, NULL == b ? 0 : nb);
    if (PMIX_EQUAL != c || NULL == a || 0 == na) {
        return c;
    }
    return bfrops_compare(a, b, na, type);
}

void fields_free_array(void *array, size_t n, pmix_data_type_t type, drover_tma_t *tma)
{
    if (NULL == array) {
        return;
    }
    bfrops_release(array, n, type, tma);
    drover_tma_free(tma, array);
}

/* ---- Keys --------------------------------------------------------------- */

/* A key travels like a string, [u32 length][bytes], and is refused when
 * longer than a pmix_key_t holds or when it has a NUL inside. */
static pmix_status_t put_key(drover_writer_t *w, const char *key)
{
    size_t len = strnlen(key, PMIX_MAX_KEYLEN);
    pmix_status_t rc;

    rc = wire_put_u32(w, (uint32_t)len);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    return wire_put(w, key, len);
}

static pmix_status_t get_key(drover_reader_t *r, char *key)
{
    uint32_t len;
    pmix_status_t rc;

    rc = wire_get_u32(r, &len);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (len > PMIX_MAX_KEYLEN) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    rc = wire_get(r, key, len);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (NULL != memchr(key, '\0', len)) {
        memset(key, 0, len);
        return PMIX_ERR_UNPACK_FAILURE;
    }
    key[len] = '\0';
    return PMIX_SUCCESS;
}

/* ---- The six record functions -------------------------------------------- */

pmix_status_t fields_pack(drover_writer_t *w, const void *elem, const fields_layout_t *layout)
{
    pmix_status_t rc = PMIX_SUCCESS;
    size_t i;

    for (i = 0; i < layout->nfields && PMIX_SUCCESS == rc; i++) {
        const fields_field_t *f = &layout->fields[i];

        switch (f->kind) {
        case FIELDS_ELEM:
            rc = drover_pack(w, member(elem, f), 1, f->type);
            break;
        case FIELDS_KEY:
            rc = put_key(w, member(elem, f));
            break;
        default:
            rc = fields_put_array(w, field_block(elem, f), field_count(elem, f), f->type);
            break;
        }
    }
    return rc;
}

static pmix_status_t unpack_field(drover_reader_t *r, void *elem, const fields_field_t *f)
{
    void *block = NULL;
    size_t n = 0;
    pmix_status_t rc;

    switch (f->kind) {
    case FIELDS_ELEM:
        return drover_unpack(r, member_mut(elem, f), 1, f->type);
    case FIELDS_KEY:
        return get_key(r, member_mut(elem, f));
    case FIELDS_ARGV:
        return get_argv(r, (char ***)member_mut(elem, f));
    default:
        rc = fields_get_array(r, &block, &n, f->type);
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
        if (FIELDS_OPTIONAL == f->kind && n > 1) {
            fields_free_array(block, n, f->type, drover_reader_tma(r));
            return PMIX_ERR_UNPACK_FAILURE;
        }
        set_block(elem, f, block, n);
        return PMIX_SUCCESS;
    }
}

pmix_status_t fields_unpack(drover_reader_t *r, void *elem, const fields_layout_t *layout)
{
    pmix_status_t rc = PMIX_SUCCESS;
    size_t i;

    for (i = 0; i < layout->nfields && PMIX_SUCCESS == rc; i++) {
        rc = unpack_field(r, elem, &layout->fields[i]);
    }
    if (PMIX_SUCCESS != rc) {
        fields_release(elem, layout, drover_reader_tma(r));
    }
    return rc;
}

static pmix_status_t copy_field(void *dest, const void *src, const fields_field_t *f,
                                drover_tma_t *tma)
{
    void *block;
    size_t n;
    pmix_status_t rc;

    switch (f->kind) {
    case FIELDS_ELEM:
        return bfrops_copy(member_mut(dest, f), member(src, f), 1, f->type, tma);
    case FIELDS_KEY:
        memcpy(member_mut(dest, f), member(src, f), strnlen(member(src, f), PMIX_MAX_KEYLEN));
        return PMIX_SUCCESS;
    default:
        n = field_count(src, f);
        /* An argv gets one more zeroed slot, its terminator. */
        rc = copy_block(&block, field_block(src, f), n, f->type, FIELDS_ARGV == f->kind ? 1 : 0,
                        tma);
        if (PMIX_SUCCESS == rc) {
            set_block(dest, f, block, NULL == block ? 0 : n);
        }
        return rc;
    }
}

pmix_status_t fields_copy(void *dest, const void *src, const fields_layout_t *layout,
                          drover_tma_t *tma)
{
    pmix_status_t rc = PMIX_SUCCESS;
    size_t i;

    memset(dest, 0, layout->size);
    for (i = 0; i < layout->nfields && PMIX_SUCCESS == rc; i++) {
        rc = copy_field(dest, src, &layout->fields[i], tma);
    }
    if (PMIX_SUCCESS != rc) {
        fields_release(dest, layout, tma);
    }
    return rc;
}

static pmix_value_cmp_t compare_field(const void *a, const void *b, const fields_field_t *f)
{
    int c;

    switch (f->kind) {
    case FIELDS_ELEM:
        return bfrops_compare(member(a, f), member(b, f), 1, f->type);
    case FIELDS_KEY:
        c = strncmp(member(a, f), member(b, f), PMIX_MAX_KEYLEN);
        return fields_order(c > 0, c < 0);
    default:
        return fields_compare_array(field_block(a, f), field_count(a, f), field_block(b, f),
                                    field_count(b, f), f->type);
    }
}

pmix_value_cmp_t fields_compare(const void *a, const void *b, const fields_layout_t *layout)
{
    pmix_value_cmp_t c;
    size_t i;

    /* Identity members first: when they differ, how the rest compares
     * means nothing. */
    for (i = 0; i < layout->nfields; i++) {
        if (layout->fields[i].identity
            && PMIX_EQUAL != compare_field(a, b, &layout->fields[i])) {
            return PMIX_VALUE_INCOMPATIBLE_OBJECTS;
        }
    }
    for (i = 0; i < layout->nfields; i++) {
        if (!layout->fields[i].identity) {
            c = compare_field(a, b, &layout->fields[i]);
            if (PMIX_EQUAL != c) {
                return c;
            }
        }
    }
    return PMIX_EQUAL;
}

char *fields_print(const void *elem, const fields_layout_t *layout)
{
    const char *key;
    fields_text_t t;
    size_t i;

    fields_text_open(&t);
    fields_text_printf(&t, "{");
    for (i = 0; i < layout->nfields; i++) {
        const fields_field_t *f = &layout->fields[i];

        fields_text_printf(&t, "%s%s=", 0 == i ? "" : ", ", f->name);
        switch (f->kind) {
        case FIELDS_ELEM:
            fields_text_elem(&t, member(elem, f), f->type);
            break;
        case FIELDS_KEY:
            /* Printed as a string would be, quoted and escaped. */
            key = member(elem, f);
            fields_text_elem(&t, &key, PMIX_STRING);
            break;
        default:
            fields_text_array(&t, field_block(elem, f), field_count(elem, f), f->type);
            break;
        }
    }
    fields_text_printf(&t, "}");
    return fields_text_close(&t);
}

void fields_release(void *elem, const fields_layout_t *layout, drover_tma_t *tma)
{
    size_t i;

    for (i = 0; i < layout->nfields; i++) {
        const fields_field_t *f = &layout->fields[i];

        switch (f->kind) {
        case FIELDS_ELEM:
            bfrops_release(member_mut(elem, f), 1, f->type, tma);
            break;
        case FIELDS_KEY:
            break;
        default:
            fields_free_array(field_block(elem, f), field_count(elem, f), f->type, tma);
            break;
        }
    }
    memset(elem, 0, layout->size);
}

/* ---- Text ----------------------------------------------------------------- */

void fields_text_open(fields_text_t *t)
{
    t->buf = NULL;
    t->len = 0;
    t->out = open_memstream(&t->buf, &t->len);
    t->ok = NULL != t->out;
}

void fields_text_printf(fields_text_t *t, const char *fmt, ...)
{
    va_list ap;

    if (!t->ok) {
        return;
    }
    va_start(ap, fmt);
    t->ok = vfprintf(t->out, fmt, ap) >= 0;
    va_end(ap);
}

void fields_text_elem(fields_text_t *t, const void *elem, pmix_data_type_t type)
{
    char *s;

    if (!t->ok) {
        return;
    }
    s = bfrops_print(elem, type);
    if (NULL == s) {
        t->ok = false;
        return;
    }
    fields_text_printf(t, "%s", s);
    free(s);
}

void fields_text_array(fields_text_t *t, const void *array, size_t n, pmix_data_type_t type)
{
    const drover_datatype_t *rec = bfrops_lookup(type);
    size_t i;

    if (NULL == array) {
        n = 0;
    }
    if (n > 0 && NULL == rec) {
        t->ok = false;
        return;
    }
    fields_text_printf(t, "[");
    for (i = 0; i < n; i++) {
        fields_text_printf(t, "%s", 0 == i ? "" : ", ");
        fields_text_elem(t, (const char *)array + i * rec->size, type);
    }
    fields_text_printf(t, "]");
}

char *fields_text_close(fields_text_t *t)
{
    if (NULL == t->out) {
        return NULL;
    }
    if (0 != fclose(t->out) || !t->ok) {
        free(t->buf);
        return NULL;
    }
    return t->buf;
}
