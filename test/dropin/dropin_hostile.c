/*
 * dropin_hostile.c - PMIx_Data_unpack on input it must refuse.
 *
 * A receiver cannot trust what arrives, so unpack has to fail cleanly on a
 * buffer that is cut short, on lengths and counts the bytes cannot back,
 * and on a type other than the one packed. Each sweep runs in a child
 * process (dropin_isolated) so that a crash is reported as a failed check.
 *
 * Truncation is tried two ways. Cutting bytes_used short is how a program
 * hands over part of a buffer; OpenPMIx 4.2.2 reads up to pack_ptr instead
 * and ignores it, its known defect. Loading a shortened copy with
 * PMIx_Data_load moves both ends, which OpenPMIx honours.
 *
 * Forged lengths cannot be produced through the API, so they are written
 * byte by byte in the wire format of the library under test: drover's
 * (docs/protocol.md: little-endian [u16 type][u32 count], strings and blobs
 * as a u32 length and the bytes) or OpenPMIx 4.2.2's (an undescribed buffer:
 * the count as a zigzag base-128 varint, string lengths likewise, byte
 * object sizes as a plain base-128 varint).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmix.h>

#include "dropin.h"

/* Room for the largest element type tried here. */
#define MAX_ELEMS 16
union elem {
    int64_t i64;
    char *str;
    pmix_byte_object_t bo;
    pmix_info_t info;
    pmix_value_t value;
    pmix_data_array_t darray;
    pmix_app_t app;
};

/* Free what n unpacked elements of type own. Only called when an unpack
 * that should have failed succeeded, so its output is not leaked. */
static void release(union elem *e, int32_t n, pmix_data_type_t type)
{
    int32_t i;

    for (i = 0; i < n; i++) {
        if (PMIX_STRING == type) {
            free(e[i].str);
        } else if (PMIX_BYTE_OBJECT == type) {
            PMIX_BYTE_OBJECT_DESTRUCT(&e[i].bo);
        } else if (PMIX_INFO == type) {
            PMIX_INFO_DESTRUCT(&e[i].info);
        } else if (PMIX_VALUE == type) {
            PMIX_VALUE_DESTRUCT(&e[i].value);
        } else if (PMIX_DATA_ARRAY == type) {
            PMIx_Data_array_destruct(&e[i].darray);
        } else if (PMIX_APP == type) {
            PMIX_APP_DESTRUCT(&e[i].app);
        }
    }
}

/* One packed sample for the truncation sweeps. */
struct packed {
    const char *what;
    pmix_data_type_t type;
    int32_t n;
    pmix_data_buffer_t *buf;
    /* Ends in a multi-byte integer, which OpenPMIx decodes even when it is
     * cut short (its varint reader takes the last byte it is given as the
     * final one), so even a shortened copy unpacks. */
    bool openpmix_varint_tail;
};

/* Unpack from buf, expecting failure. False (with a diagnostic) if the
 * unpack succeeded. */
static bool refused(const struct packed *p, pmix_data_buffer_t *buf, size_t cut)
{
    union elem out[MAX_ELEMS];
    int32_t n = p->n;
    pmix_status_t rc;

    memset(out, 0, sizeof(out));
    rc = PMIx_Data_unpack(NULL, buf, out, &n, p->type);
    if (PMIX_SUCCESS == rc) {
        dropin_diag("%s cut to %zu of %zu bytes: unpack succeeded", p->what, cut,
                    p->buf->bytes_used);
        release(out, n, p->type);
        return false;
    }
    return true;
}

/* Every length short of the whole, by lowering bytes_used only. */
static bool sweep_bytes_used(void *arg)
{
    const struct packed *p = arg;
    pmix_data_buffer_t view = *p->buf;
    size_t cut;
    bool ok = true;

    for (cut = 0; cut < p->buf->bytes_used; cut++) {
        view.unpack_ptr = view.base_ptr;
        view.bytes_used = cut;
        ok = refused(p, &view, cut) && ok;
    }
    return ok;
}

/* Every length short of the whole, as a shorter payload loaded afresh. */
static bool sweep_loaded_copy(void *arg)
{
    const struct packed *p = arg;
    pmix_byte_object_t payload;
    pmix_data_buffer_t buf;
    size_t cut;
    bool ok = true;

    for (cut = 0; cut < p->buf->bytes_used; cut++) {
        payload.size = cut;
        payload.bytes = malloc(cut + 1);
        if (NULL == payload.bytes) {
            return false;
        }
        memcpy(payload.bytes, p->buf->base_ptr, cut);
        PMIX_DATA_BUFFER_CONSTRUCT(&buf);
        if (PMIX_SUCCESS != PMIx_Data_load(&buf, &payload)) {
            PMIX_BYTE_OBJECT_DESTRUCT(&payload);
            return false;
        }
        ok = refused(p, &buf, cut) && ok;
        PMIX_DATA_BUFFER_DESTRUCT(&buf);
    }
    return ok;
}

/* After a failed unpack the read position must not have moved, so the
 * caller can still see what was there. The buffer loses its last byte at
 * both ends (bytes_used and pack_ptr), so the unpack gets as far as it can
 * before failing. */
static bool failure_changes_nothing(void *arg)
{
    const struct packed *p = arg;
    pmix_data_buffer_t view = *p->buf;

    view.unpack_ptr = view.base_ptr;
    view.bytes_used = p->buf->bytes_used - 1;
    view.pack_ptr = view.base_ptr + view.bytes_used;
    return refused(p, &view, view.bytes_used) && view.unpack_ptr == view.base_ptr;
}

static void check_truncation(void)
{
    int64_t ints[3] = {1, -1, INT64_MAX};
    char *strs[2] = {"truncate me", ""};
    pmix_byte_object_t bo = {"0123456789", 10};
    pmix_info_t infos[2];
    pmix_value_t value;
    pmix_proc_t proc;
    pmix_data_array_t *darray;
    pmix_app_t *app;
    pmix_status_t rc;
    struct packed samples[7];
    int32_t twelve = 12;
    size_t i, n = 0;
    bool ok;

    PMIX_INFO_LOAD(&infos[0], "drover.cut.int", &twelve, PMIX_INT32);
    PMIX_INFO_LOAD(&infos[1], "drover.cut.str", "twelve", PMIX_STRING);
    PMIX_LOAD_PROCID(&proc, "ns-cut", 1);
    PMIX_VALUE_LOAD(&value, &proc, PMIX_PROC);
    PMIX_DATA_ARRAY_CREATE(darray, 2, PMIX_INFO);
    PMIX_INFO_LOAD(&((pmix_info_t *)darray->array)[0], "drover.a", &twelve, PMIX_INT32);
    PMIX_INFO_LOAD(&((pmix_info_t *)darray->array)[1], "drover.b", "bee", PMIX_STRING);
    PMIX_APP_CREATE(app, 1);
    app->cmd = strdup("/bin/echo");
    PMIX_ARGV_APPEND(rc, app->argv, "echo");
    (void)rc;
    app->maxprocs = 2;

    samples[n++] = (struct packed){"int64 x3", PMIX_INT64, 3, dropin_packed(ints, 3, PMIX_INT64),
                                   true};
    samples[n++] = (struct packed){"string x2", PMIX_STRING, 2,
                                   dropin_packed(strs, 2, PMIX_STRING)};
    samples[n++] = (struct packed){"byte object", PMIX_BYTE_OBJECT, 1,
                                   dropin_packed(&bo, 1, PMIX_BYTE_OBJECT)};
    samples[n++] = (struct packed){"info x2", PMIX_INFO, 2, dropin_packed(infos, 2, PMIX_INFO)};
    samples[n++] = (struct packed){"value (proc)", PMIX_VALUE, 1,
                                   dropin_packed(&value, 1, PMIX_VALUE)};
    samples[n++] = (struct packed){"data array of infos", PMIX_DATA_ARRAY, 1,
                                   dropin_packed(darray, 1, PMIX_DATA_ARRAY)};
    samples[n++] = (struct packed){"app", PMIX_APP, 1, dropin_packed(app, 1, PMIX_APP)};

    for (i = 0; i < n; i++) {
        if (NULL == samples[i].buf) {
            dropin_check(false, "%s packs (needed for the truncation checks)", samples[i].what);
            continue;
        }
        dropin_check_defect(dropin_isolated(samples[i].what, sweep_bytes_used, &samples[i]),
                            "%s: unpack fails at every bytes_used short of the %zu packed",
                            samples[i].what, samples[i].buf->bytes_used);
        ok = dropin_isolated(samples[i].what, sweep_loaded_copy, &samples[i]);
        if (samples[i].openpmix_varint_tail) {
            dropin_check_defect(ok, "%s: unpack fails on every shorter copy loaded with "
                                    "PMIx_Data_load", samples[i].what);
        } else {
            dropin_check(ok, "%s: unpack fails on every shorter copy loaded with PMIx_Data_load",
                         samples[i].what);
        }
    }
    if (NULL != samples[3].buf) {
        dropin_check_defect(dropin_isolated("info x2", failure_changes_nothing, &samples[3]),
                            "a failed unpack leaves unpack_ptr where it was");
    }

    for (i = 0; i < n; i++) {
        if (NULL != samples[i].buf) {
            PMIX_DATA_BUFFER_RELEASE(samples[i].buf);
        }
    }
    PMIX_APP_FREE(app, 1);
    PMIX_DATA_ARRAY_FREE(darray);
    PMIX_VALUE_DESTRUCT(&value);
    PMIX_INFO_DESTRUCT(&infos[0]);
    PMIX_INFO_DESTRUCT(&infos[1]);
}

/* Bytes written by hand, and their length. */
struct bytes {
    const uint8_t *p;
    size_t n;
};
#define BYTES(...) {(const uint8_t[]){__VA_ARGS__}, sizeof((const uint8_t[]){__VA_ARGS__})}

/* A forged buffer, with an honest twin differing only in the forged length
 * or count: the twin must unpack, which shows the forgery is refused for
 * its length and not for a mistake in writing the format by hand. */
struct forged {
    const char *what;
    pmix_data_type_t type;
    int32_t max;                    /* max_num_values passed to unpack */
    struct bytes drover, drover_honest;
    struct bytes openpmix, openpmix_honest;
    bool openpmix_defect;
};

static const struct forged forgeries[] = {
    {"a byte object claiming 4 GiB (drover) / 1 TiB (OpenPMIx) with 4 bytes behind it",
     PMIX_BYTE_OBJECT, 1,
     BYTES(0x1b, 0x00, 0x01, 0x00, 0x00, 0x00, 0xfe, 0xff, 0xff, 0xff, 'a', 'b', 'c', 'd'),
     BYTES(0x1b, 0x00, 0x01, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 'a', 'b', 'c', 'd'),
     BYTES(0x02, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 'a', 'b', 'c', 'd'),
     BYTES(0x02, 0x04, 'a', 'b', 'c', 'd'), true},
    {"a string claiming 2^31-1 bytes with 4 behind it", PMIX_STRING, 1,
     BYTES(0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0x7f, 'a', 'b', 'c', 'd'),
     BYTES(0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 'a', 'b', 'c', 'd'),
     BYTES(0x02, 0xfe, 0xff, 0xff, 0xff, 0x0f, 'a', 'b', 'c', 'd'),
     BYTES(0x02, 0x0a, 'a', 'b', 'c', 'd', 0), false},
    {"an int32 count of 2^31-1 with 8 bytes behind it", PMIX_INT32, INT32_MAX,
     BYTES(0x09, 0x00, 0xff, 0xff, 0xff, 0x7f, 2, 2, 2, 2, 2, 2, 2, 2),
     BYTES(0x09, 0x00, 0x02, 0x00, 0x00, 0x00, 2, 2, 2, 2, 2, 2, 2, 2),
     BYTES(0xfe, 0xff, 0xff, 0xff, 0x0f, 2, 2, 2, 2, 2, 2, 2, 2),
     BYTES(0x10, 2, 2, 2, 2, 2, 2, 2, 2), false},
    {"an info count of 2^31-1 with 3 bytes behind it", PMIX_INFO, INT32_MAX,
     BYTES(0x18, 0x00, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0),
     BYTES(0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0, 0, 0),
     BYTES(0xfe, 0xff, 0xff, 0xff, 0x0f, 0, 0, 0),
     BYTES(0x00, 0, 0, 0), false},
    {"a data array of infos claiming 2^31-1 elements with 3 bytes behind it",
     PMIX_DATA_ARRAY, 1,
     BYTES(0x27, 0x00, 0x01, 0x00, 0x00, 0x00, 0x18, 0x00, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0),
     BYTES(0x27, 0x00, 0x01, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0, 0, 0),
     BYTES(0x02, 0x18, 0xff, 0xff, 0xff, 0xff, 0x07, 0, 0, 0),
     BYTES(0x02, 0x18, 0x00, 0, 0, 0), false},
};

/* Unpack the bytes of b as up to max elements of type; *n gets the count.
 * On success the caller releases out[0..*n). */
static pmix_status_t unpack_bytes(const struct bytes *b, pmix_data_type_t type, int32_t max,
                                  union elem *out, int32_t *n)
{
    pmix_byte_object_t payload;
    pmix_data_buffer_t buf;
    pmix_status_t rc;

    payload.size = b->n;
    payload.bytes = malloc(b->n);
    if (NULL == payload.bytes) {
        return PMIX_ERR_NOMEM;
    }
    memcpy(payload.bytes, b->p, b->n);
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    (void)PMIx_Data_load(&buf, &payload);
    memset(out, 0, MAX_ELEMS * sizeof(*out));
    *n = max;
    rc = PMIx_Data_unpack(NULL, &buf, out, n, type);
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    if (*n > MAX_ELEMS) {
        *n = MAX_ELEMS;
    }
    return rc;
}

static bool forged_refused(void *arg)
{
    const struct forged *f = arg;
    bool drover = DROPIN_DROVER == dropin_target;
    union elem out[MAX_ELEMS];
    pmix_status_t rc;
    int32_t n;

    rc = unpack_bytes(drover ? &f->drover_honest : &f->openpmix_honest, f->type, f->max, out,
                      &n);
    if (PMIX_SUCCESS != rc) {
        dropin_diag("the honest twin was refused too (%d): the forgery proves nothing", (int)rc);
        return false;
    }
    release(out, n, f->type);
    rc = unpack_bytes(drover ? &f->drover : &f->openpmix, f->type, f->max, out, &n);
    if (PMIX_SUCCESS == rc) {
        if (PMIX_BYTE_OBJECT == f->type) {
            dropin_diag("unpack succeeded: byte object of size %zu at %p", out[0].bo.size,
                        (void *)out[0].bo.bytes);
        } else {
            dropin_diag("unpack succeeded with %d elements", (int)n);
        }
        release(out, n, f->type);
        return false;
    }
    return true;
}

static void check_forgeries(void)
{
    size_t i;

    for (i = 0; i < sizeof(forgeries) / sizeof(forgeries[0]); i++) {
        const struct forged *f = &forgeries[i];
        bool ok = dropin_isolated(f->what, forged_refused, (void *)f);

        if (f->openpmix_defect) {
            dropin_check_defect(ok, "unpack refuses %s", f->what);
        } else {
            dropin_check(ok, "unpack refuses %s", f->what);
        }
    }
}

static void check_type_and_count(void)
{
    pmix_data_buffer_t *buf;
    int64_t five = 5;
    int32_t three[3] = {1, 2, 3}, out[3] = {0}, n;
    pmix_status_t rc;

    /* OpenPMIx's PMIx_Data_pack writes no type tag, so it cannot notice. */
    buf = dropin_packed(&five, 1, PMIX_INT64);
    n = 1;
    rc = NULL != buf ? PMIx_Data_unpack(NULL, buf, out, &n, PMIX_INT32) : PMIX_SUCCESS;
    dropin_check_defect(PMIX_SUCCESS != rc, "unpacking a packed int64 as PMIX_INT32 fails");
    if (NULL != buf) {
        PMIX_DATA_BUFFER_RELEASE(buf);
    }

    buf = dropin_packed(three, 3, PMIX_INT32);
    n = 2;
    rc = NULL != buf ? PMIx_Data_unpack(NULL, buf, out, &n, PMIX_INT32) : PMIX_SUCCESS;
    dropin_check(PMIX_ERR_UNPACK_INADEQUATE_SPACE == rc,
                 "unpacking 3 packed int32 with room for 2 returns "
                 "PMIX_ERR_UNPACK_INADEQUATE_SPACE (got %d)", (int)rc);
    if (NULL != buf) {
        PMIX_DATA_BUFFER_RELEASE(buf);
    }

    PMIX_DATA_BUFFER_CREATE(buf);
    dropin_check(PMIX_SUCCESS != PMIx_Data_pack(NULL, buf, three, 1, 4000),
                 "packing an unregistered type 4000 fails");
    PMIX_DATA_BUFFER_RELEASE(buf);
    buf = dropin_packed(three, 3, PMIX_INT32);
    n = 3;
    rc = NULL != buf ? PMIx_Data_unpack(NULL, buf, out, &n, 4000) : PMIX_SUCCESS;
    dropin_check(PMIX_SUCCESS != rc, "unpacking packed int32 as an unregistered type 4000 fails");
    if (NULL != buf) {
        PMIX_DATA_BUFFER_RELEASE(buf);
    }
}

void dropin_hostile_checks(void)
{
    check_truncation();
    check_forgeries();
    check_type_and_count();
}
