/*
 * value.c - the key/value datatypes: PMIX_VALUE, PMIX_INFO, PMIX_PDATA and
 * PMIX_KVAL.
 *
 * Design notes:
 *  - A pmix_value_t travels as [u16 type][element], the element in the
 *    wire form of its type. Where a value keeps its element (inside data or
 *    behind data.ptr) is the registry's business, through
 *    bfrops_value_elem and DROVER_DATATYPE_VALUE_INLINE: nothing here
 *    knows which union member a type uses. PMIX_UNDEF has no element.
 *  - A value of a pointer-held type whose data.ptr is NULL (what
 *    PMIx_Value_load leaves when handed no data) packs as a zeroed
 *    element, so the receiver gets an empty element rather than an error.
 *  - An info marked PMIX_INFO_PERSISTENT does not own its value, and its
 *    release leaves the value alone. A copy or an unpacked info owns its
 *    value, so it drops the flag; compare ignores the flag, which says who
 *    owns the value rather than what it is.
 *  - Everything but the value itself is a table of members (fields.h).
 */
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "kval.h"

/* ---- PMIX_VALUE ------------------------------------------------------------ */

static pmix_status_t value_pack(drover_writer_t *w, const void *elem)
{
    const pmix_value_t *v = elem;
    const drover_datatype_t *rec;
    const void *data;
    void *zeroed;
    pmix_status_t rc;

    if (PMIX_UNDEF != v->type && NULL == bfrops_lookup(v->type)) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    rc = wire_put_u16(w, v->type);
    if (PMIX_SUCCESS != rc || PMIX_UNDEF == v->type) {
        return rc;
    }
    data = bfrops_value_elem(v);
    if (NULL != data) {
        return drover_pack(w, data, 1, v->type);
    }
    rec = bfrops_lookup(v->type);
    zeroed = calloc(1, rec->size);
    if (NULL == zeroed) {
        return PMIX_ERR_NOMEM;
    }
    rc = drover_pack(w, zeroed, 1, v->type);
    free(zeroed);
    return rc;
}

static pmix_status_t value_unpack(drover_reader_t *r, void *elem)
{
    pmix_value_t *v = elem;
    drover_tma_t *tma = drover_reader_tma(r);
    const drover_datatype_t *rec;
    pmix_data_type_t type;
    pmix_status_t rc;
    void *data;

    rc = wire_get_u16(r, &type);
    if (PMIX_SUCCESS != rc || PMIX_UNDEF == type) {
        return rc;
    }
    rec = bfrops_lookup(type);
    if (NULL == rec) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    if (rec->flags & DROVER_DATATYPE_VALUE_INLINE) {
        rc = drover_unpack(r, &v->data, 1, type);
    } else {
        data = drover_tma_calloc(tma, 1, rec->size);
        if (NULL == data) {
            return PMIX_ERR_NOMEM;
        }
        rc = drover_unpack(r, data, 1, type);
        if (PMIX_SUCCESS == rc) {
            v->data.ptr = data;
        } else {
            drover_tma_free(tma, data);
        }
    }
    if (PMIX_SUCCESS == rc) {
        v->type = type;
    }
    return rc;
}

static pmix_status_t value_copy(void *dest, const void *src, drover_tma_t *tma)
{
    pmix_value_t *d = dest;
    const pmix_value_t *s = src;
    const drover_datatype_t *rec;
    const void *data;
    void *copy;
    pmix_status_t rc;

    memset(d, 0, sizeof(*d));
    if (PMIX_UNDEF == s->type) {
        return PMIX_SUCCESS;
    }
    rec = bfrops_lookup(s->type);
    if (NULL == rec) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    data = bfrops_value_elem(s);
    if (rec->flags & DROVER_DATATYPE_VALUE_INLINE) {
        rc = bfrops_copy(&d->data, data, 1, s->type, tma);
    } else if (NULL == data) {
        rc = PMIX_SUCCESS;
    } else {
        copy = drover_tma_malloc(tma, rec->size);
        if (NULL == copy) {
            return PMIX_ERR_NOMEM;
        }
        rc = bfrops_copy(copy, data, 1, s->type, tma);
        if (PMIX_SUCCESS == rc) {
            d->data.ptr = copy;
        } else {
            drover_tma_free(tma, copy);
        }
    }
    if (PMIX_SUCCESS == rc) {
        d->type = s->type;
    } else {
        memset(d, 0, sizeof(*d));
    }
    return rc;
}

static pmix_value_cmp_t value_compare(const void *a, const void *b)
{
    const pmix_value_t *va = a, *vb = b;
    const void *da, *db;

    if (va->type != vb->type) {
        return PMIX_VALUE_TYPE_DIFFERENT;
    }
    if (PMIX_UNDEF == va->type) {
        return PMIX_EQUAL;
    }
    if (NULL == bfrops_lookup(va->type)) {
        return PMIX_VALUE_COMPARISON_NOT_AVAIL;
    }
    da = bfrops_value_elem(va);
    db = bfrops_value_elem(vb);
    if (NULL == da || NULL == db) {
        /* Only pointer-held elements can be missing; none sorts first. */
        return fields_order(NULL != da, NULL != db);
    }
    return bfrops_compare(da, db, 1, va->type);
}

static char *value_print(const void *elem)
{
    const pmix_value_t *v = elem;
    const drover_datatype_t *rec = bfrops_lookup(v->type);
    const void *data = bfrops_value_elem(v);
    fields_text_t t;

    fields_text_open(&t);
    if (PMIX_UNDEF == v->type) {
        fields_text_printf(&t, "PMIX_UNDEF");
    } else if (NULL == rec) {
        fields_text_printf(&t, "unknown type %u", (unsigned)v->type);
    } else if (NULL == data) {
        fields_text_printf(&t, "%s: NULL", rec->name);
    } else {
        fields_text_printf(&t, "%s: ", rec->name);
        fields_text_elem(&t, data, v->type);
    }
    return fields_text_close(&t);
}

static void value_release(void *elem, drover_tma_t *tma)
{
    pmix_value_t *v = elem;
    const drover_datatype_t *rec = bfrops_lookup(v->type);
    void *data = bfrops_value_elem(v);

    /* A type nobody registered cannot be freed; leave it as it is rather
     * than guess. */
    if (PMIX_UNDEF != v->type && NULL == rec) {
        return;
    }
    if (NULL != rec && NULL != data) {
        bfrops_release(data, 1, v->type, tma);
        if (!(rec->flags & DROVER_DATATYPE_VALUE_INLINE)) {
            drover_tma_free(tma, data);
        }
    }
    memset(v, 0, sizeof(*v));
}

const drover_datatype_t bfrops_type_value = {
    .name = "PMIX_VALUE",
    .id = PMIX_VALUE,
    .size = sizeof(pmix_value_t),
    .min_wire = 2,
    .pack = value_pack,
    .unpack = value_unpack,
    .copy = value_copy,
    .compare = value_compare,
    .print = value_print,
    .release = value_release,
};

/* ---- PMIX_INFO ------------------------------------------------------------- */

/* flags last, so the first two members alone are what compare looks at. */
static const fields_field_t info_fields[] = {
    FIELDS_KEY_MEMBER(pmix_info_t, key),
    FIELDS_MEMBER(pmix_info_t, value, PMIX_VALUE),
    FIELDS_MEMBER(pmix_info_t, flags, PMIX_INFO_DIRECTIVES),
};
static const fields_layout_t info_layout = FIELDS_LAYOUT(pmix_info_t, info_fields);
static const fields_layout_t info_content = {
    .size = sizeof(pmix_info_t), .fields = info_fields, .nfields = 2};

static pmix_status_t info_pack(drover_writer_t *w, const void *elem)
{
    return fields_pack(w, elem, &info_layout);
}

static pmix_status_t info_unpack(drover_reader_t *r, void *elem)
{
    pmix_info_t *info = elem;
    pmix_status_t rc = fields_unpack(r, elem, &info_layout);

    info->flags &= ~PMIX_INFO_PERSISTENT;
    return rc;
}

static pmix_status_t info_copy(void *dest, const void *src, drover_tma_t *tma)
{
    pmix_info_t *info = dest;
    pmix_status_t rc = fields_copy(dest, src, &info_layout, tma);

    info->flags &= ~PMIX_INFO_PERSISTENT;
    return rc;
}

static pmix_value_cmp_t info_compare(const void *a, const void *b)
{
    const pmix_info_t *ia = a, *ib = b;
    pmix_value_cmp_t c = fields_compare(a, b, &info_content);

    if (PMIX_EQUAL != c) {
        return c;
    }
    return fields_order(ia->flags & ~PMIX_INFO_PERSISTENT, ib->flags & ~PMIX_INFO_PERSISTENT);
}

static char *info_print(const void *elem)
{
    return fields_print(elem, &info_layout);
}

static void info_release(void *elem, drover_tma_t *tma)
{
    pmix_info_t *info = elem;

    if (info->flags & PMIX_INFO_PERSISTENT) {
        memset(info, 0, sizeof(*info));
    } else {
        fields_release(elem, &info_layout, tma);
    }
}

const drover_datatype_t bfrops_type_info = {
    .name = "PMIX_INFO",
    .id = PMIX_INFO,
    .size = sizeof(pmix_info_t),
    .min_wire = 10,
    .pack = info_pack,
    .unpack = info_unpack,
    .copy = info_copy,
    .compare = info_compare,
    .print = info_print,
    .release = info_release,
};

/* ---- PMIX_PDATA, PMIX_KVAL --------------------------------------------------- */

static const fields_field_t pdata_fields[] = {
    FIELDS_MEMBER(pmix_pdata_t, proc, PMIX_PROC),
    FIELDS_KEY_MEMBER(pmix_pdata_t, key),
    FIELDS_MEMBER(pmix_pdata_t, value, PMIX_VALUE),
};
static const fields_layout_t pdata_layout = FIELDS_LAYOUT(pmix_pdata_t, pdata_fields);
FIELDS_DATATYPE(pdata, PMIX_PDATA, pmix_pdata_t, 14, 0, pdata_layout)

static const fields_field_t kval_fields[] = {
    FIELDS_MEMBER(bfrops_kval_t, key, PMIX_STRING),
    FIELDS_OPTIONAL_MEMBER(bfrops_kval_t, value, PMIX_VALUE),
};
static const fields_layout_t kval_layout = FIELDS_LAYOUT(bfrops_kval_t, kval_fields);
FIELDS_DATATYPE(kval, PMIX_KVAL, bfrops_kval_t, 8, 0, kval_layout)
