/*
 * collective.c - CO_BROADCAST, CO_SUM, CO_MIN, CO_MAX and CO_REDUCE.
 *
 * Every image has two scratch slots in its segment. A round of a collective
 * writes this image's contribution into one slot, passes the team barrier,
 * and reads the slots of the others directly. Successive rounds of a team
 * alternate between the two slots, so nobody overwrites a slot that someone
 * may still read: to write the same slot again an image must first pass the
 * next round's barrier, which every reader of the previous round reaches
 * only after reading. A collective is therefore one barrier per slot-sized
 * chunk. Each image that wants the result combines all contributions in
 * team order, so every image computes the same value, bit for bit.
 *
 * Small reductions (a result of at most CAF_RESULT_BYTES) take a shorter
 * path: every member writes its contribution next to the others' in the
 * team's gather area, and the image that completes the barrier
 * combines them once into the result area, which the others then copy.
 * With more images than cores this saves each image from reading every
 * other image's slot.
 */
#include <complex.h>
#include <stdlib.h>
#include <string.h>

#include "caf.h"

enum { OP_SUM, OP_MIN, OP_MAX, OP_USER };

/* complex(16): a pair of __float128 (what quadmath.h calls __complex128). */
typedef _Complex float __attribute__((mode(TC))) complex128_t;

typedef struct reduction {
    int op;
    caf_elem_t elem;
    void *user;    /* CO_REDUCE's function */
    int flags;     /* CO_REDUCE's opr_flags */
    size_t length; /* characters per element */
} reduction_t;

static char *slot(int rank, unsigned parity)
{
    return caf_segment(rank) + caf.slot_offset + (size_t)parity * CAF_SLOT_BYTES;
}

/* Publishes `bytes` of `mine` (may be NULL) and waits for the team. */
static unsigned round_begin(caf_team_rt_t *team, const void *mine, size_t bytes, int *code)
{
    unsigned parity = team->coll_seq++ & 1;
    if (mine) {
        memcpy(slot(caf.me, parity), mine, bytes);
    }
    int rc = caf_barrier(team);
    if (rc && CAF_STAT_FAILED_IMAGE != *code) {
        *code = rc;
    }
    return parity;
}

void caf_allgather(caf_team_rt_t *team, const void *mine, void *out, size_t size)
{
    int code = 0;
    unsigned parity = round_begin(team, mine, size, &code);
    for (int i = 0; i < team->size; i++) {
        memcpy((char *)out + (size_t)i * size, slot(team->members[i], parity), size);
    }
}

/* Element-wise arithmetic on native types; one function per type. */
#define NUMERIC_COMBINE(name, ctype, ordered)                                   \
    static void name(int op, char *acc, const char *in, size_t n)               \
    {                                                                           \
        for (size_t i = 0; i < n; i++) {                                        \
            ctype a, b;                                                         \
            memcpy(&a, acc + i * sizeof(ctype), sizeof(ctype));                 \
            memcpy(&b, in + i * sizeof(ctype), sizeof(ctype));                  \
            if (OP_SUM == op) {                                                 \
                a = a + b;                                                      \
            } else if (ordered && OP_MIN == op) {                               \
                a = compare_lt(b, a) ? b : a;                                   \
            } else if (ordered) {                                               \
                a = compare_lt(a, b) ? b : a;                                   \
            }                                                                   \
            memcpy(acc + i * sizeof(ctype), &a, sizeof(ctype));                 \
        }                                                                       \
    }

#define compare_lt(x, y) ((x) < (y))
NUMERIC_COMBINE(combine_i1, int8_t, true)
NUMERIC_COMBINE(combine_i2, int16_t, true)
NUMERIC_COMBINE(combine_i4, int32_t, true)
NUMERIC_COMBINE(combine_i8, int64_t, true)
NUMERIC_COMBINE(combine_i16, __int128, true)
NUMERIC_COMBINE(combine_r4, float, true)
NUMERIC_COMBINE(combine_r8, double, true)
NUMERIC_COMBINE(combine_r10, long double, true)
NUMERIC_COMBINE(combine_r16, __float128, true)
#undef compare_lt
#define compare_lt(x, y) false
NUMERIC_COMBINE(combine_c4, float _Complex, false)
NUMERIC_COMBINE(combine_c8, double _Complex, false)
NUMERIC_COMBINE(combine_c10, long double _Complex, false)
NUMERIC_COMBINE(combine_c16, complex128_t, false)
#undef compare_lt

typedef void (*combine_fn_t)(int op, char *acc, const char *in, size_t n);

static combine_fn_t numeric_combiner(caf_elem_t t)
{
    switch (t.type) {
    case CAF_BT_INTEGER:
        switch (t.kind) {
        case 1: return combine_i1;
        case 2: return combine_i2;
        case 4: return combine_i4;
        case 8: return combine_i8;
        case 16: return combine_i16;
        }
        break;
    case CAF_BT_REAL:
        switch (t.kind) {
        case 4: return combine_r4;
        case 8: return combine_r8;
        case 10: return combine_r10;
        case 16: return combine_r16;
        }
        break;
    case CAF_BT_COMPLEX:
        switch (t.kind) {
        case 4: return combine_c4;
        case 8: return combine_c8;
        case 10: return combine_c10;
        case 16: return combine_c16;
        }
        break;
    }
    return NULL;
}

static int compare_chars(const char *a, const char *b, size_t len, int kind)
{
    if (1 == kind) {
        return memcmp(a, b, len);
    }
    for (size_t i = 0; i < len; i++) {
        uint32_t x, y;
        memcpy(&x, a + 4 * i, 4);
        memcpy(&y, b + 4 * i, 4);
        if (x != y) {
            return x < y ? -1 : 1;
        }
    }
    return 0;
}

/* Calls CO_REDUCE's function on one pair: res = op(a, b). */
static int call_user(const reduction_t *r, char *res, const char *a, const char *b)
{
    void *f = r->user;
    caf_elem_t t = r->elem;
    bool value = r->flags & CAF_OP_ARG_VALUE;
    if (CAF_BT_CHARACTER == t.type || (r->flags & CAF_OP_BYREF)) {
        if (CAF_BT_CHARACTER == t.type || (r->flags & CAF_OP_HIDDENLEN)) {
            ((void (*)(char *, size_t, const char *, const char *, size_t, size_t))f)(
                res, r->length, a, b, r->length, r->length);
        } else {
            ((void (*)(char *, const char *, const char *))f)(res, a, b);
        }
        return 0;
    }
#define CALL(ctype)                                                                     \
    do {                                                                                \
        ctype x, y, z;                                                                  \
        memcpy(&x, a, sizeof(x));                                                       \
        memcpy(&y, b, sizeof(y));                                                       \
        z = value ? ((ctype(*)(ctype, ctype))f)(x, y)                                   \
                  : ((ctype(*)(const ctype *, const ctype *))f)(&x, &y);                \
        memcpy(res, &z, sizeof(z));                                                     \
    } while (0)
    switch (t.type) {
    case CAF_BT_INTEGER:
    case CAF_BT_LOGICAL:
        switch (t.kind) {
        case 1: CALL(int8_t); return 0;
        case 2: CALL(int16_t); return 0;
        case 4: CALL(int32_t); return 0;
        case 8: CALL(int64_t); return 0;
        case 16: CALL(__int128); return 0;
        }
        break;
    case CAF_BT_REAL:
        if (16 == t.kind && !value) {
            return caf_call_wide_real(f, res, a, b) < 0 ? -1 : 0;
        }
        switch (t.kind) {
        case 4: CALL(float); return 0;
        case 8: CALL(double); return 0;
        case 10: CALL(long double); return 0;
        case 16: CALL(__float128); return 0;
        }
        break;
    case CAF_BT_COMPLEX:
        switch (t.kind) {
        case 4: CALL(float _Complex); return 0;
        case 8: CALL(double _Complex); return 0;
        case 10: CALL(long double _Complex); return 0;
        case 16: CALL(complex128_t); return 0;
        }
        break;
    case CAF_BT_DERIVED:
        /* Results bigger than 16 bytes come back through a hidden pointer
         * passed first; smaller ones in registers (small_result.c). */
        if (value) {
            break;
        }
        if (t.size > 16) {
            ((void (*)(char *, const char *, const char *))f)(res, a, b);
            return 0;
        }
        return caf_call_small(f, res, a, b, t.size);
    }
#undef CALL
    return -1;
}

/* acc[i] = acc[i] op in[i] for n elements. */
static int combine(const reduction_t *r, char *acc, const char *in, size_t n, char *scratch)
{
    size_t size = r->elem.size;
    if (OP_USER == r->op) {
        for (size_t i = 0; i < n; i++) {
            if (0 != call_user(r, scratch, acc + i * size, in + i * size)) {
                return -1;
            }
            memcpy(acc + i * size, scratch, size);
        }
        return 0;
    }
    if (CAF_BT_CHARACTER == r->elem.type) {
        for (size_t i = 0; i < n; i++) {
            int c = compare_chars(in + i * size, acc + i * size, r->length, r->elem.kind);
            if ((OP_MIN == r->op && c < 0) || (OP_MAX == r->op && c > 0)) {
                memcpy(acc + i * size, in + i * size, size);
            }
        }
        return 0;
    }
    combine_fn_t fn = numeric_combiner(r->elem);
    if (NULL == fn) {
        return -1;
    }
    fn(r->op, acc, in, n);
    return 0;
}

static bool supported(const reduction_t *r)
{
    if (OP_USER == r->op) {
        /* Derived types passed by value would need the register
         * assignment of the arguments as well. */
        return r->elem.type != CAF_BT_DERIVED || (r->flags & CAF_OP_BYREF) ||
               !(r->flags & CAF_OP_ARG_VALUE);
    }
    if (CAF_BT_CHARACTER == r->elem.type) {
        return OP_SUM != r->op && (1 == r->elem.kind || 4 == r->elem.kind);
    }
    if (CAF_BT_COMPLEX == r->elem.type && OP_SUM != r->op) {
        return false;
    }
    return NULL != numeric_combiner(r->elem);
}

/* Whether `a` is contiguous; counts its elements either way. */
static bool contiguous(const caf_desc_t *a, size_t *count)
{
    ptrdiff_t expect = 1;
    bool dense = true;
    for (int d = 0; d < a->dtype.rank; d++) {
        ptrdiff_t extent = a->dim[d].ubound - a->dim[d].lbound + 1;
        if (extent > 1 && a->dim[d].stride != expect) {
            dense = false;
        }
        expect *= extent > 0 ? extent : 0;
    }
    *count = (size_t)expect;
    return dense;
}

/* The elements of `a` in one contiguous block: `a` itself when it is
 * contiguous, else a packed copy (released by unpack). */
static char *pack(caf_desc_t *a, caf_elem_t t, size_t *count)
{
    if (contiguous(a, count)) {
        return a->base_addr;
    }
    caf_view_t view, flat;
    caf_view_desc(&view, a, a->base_addr, NULL);
    char *buf = malloc(*count ? *count * t.size : 1);
    if (NULL != buf) {
        caf_view_flat(&flat, buf, *count, t.size);
        caf_copy(&flat, t, &view, t, false);
    }
    return buf;
}

/* Copies a packed block back into `a` (when `write`) and releases it. */
static void unpack(caf_desc_t *a, caf_elem_t t, char *buf, size_t count, bool write)
{
    if (buf == a->base_addr) {
        return;
    }
    if (write) {
        caf_view_t view, flat;
        caf_view_desc(&view, a, a->base_addr, NULL);
        caf_view_flat(&flat, buf, count, t.size);
        caf_copy(&view, t, &flat, t, false);
    }
    free(buf);
}

static char *gather_area(const caf_team_rt_t *team, unsigned parity)
{
    return team->gather + (size_t)parity * (CAF_GATHER_BYTES + CAF_RESULT_BYTES);
}

typedef struct small_job {
    const reduction_t *r;
    const caf_team_rt_t *team;
    char *gather;
    size_t count, bytes;
} small_job_t;

/* Run by the image completing the barrier: result = all contributions
 * combined in team order. */
static void combine_gathered(void *arg)
{
    small_job_t *job = arg;
    char *result = job->gather + CAF_GATHER_BYTES;
    memcpy(result, job->gather, job->bytes);
    for (int m = 1; m < job->team->size; m++) {
        combine(job->r, result, job->gather + (size_t)m * job->bytes, job->count, NULL);
    }
}

static bool small_reduction(const reduction_t *r, const caf_team_rt_t *team, size_t count)
{
    size_t bytes = count * r->elem.size;
    return OP_USER != r->op && bytes <= CAF_RESULT_BYTES &&
           (size_t)team->size * bytes <= CAF_GATHER_BYTES;
}

static void finish(int code, int *stat, char *errmsg, size_t errmsg_len, const char *what)
{
    if (CAF_STAT_FAILED_IMAGE == code) {
        caf_error(stat, errmsg, errmsg_len, code, "%s: an image of the team has failed", what);
    } else if (code) {
        caf_error(stat, errmsg, errmsg_len, code, "%s: an image of the team has stopped", what);
    }
}

static void reduce(const char *what, reduction_t *r, caf_desc_t *a, int result_image, int *stat,
                   char *errmsg, size_t errmsg_len)
{
    caf_ok(stat);
    caf_team_rt_t *team = caf.team;
    if (result_image < 0 || result_image > team->size) {
        caf_error(stat, errmsg, errmsg_len, 1, "%s: result image %d is out of range", what,
                  result_image);
        return;
    }
    if (!supported(r) || r->elem.size > CAF_SLOT_BYTES || 0 == r->elem.size) {
        caf_error(stat, errmsg, errmsg_len, 1, "%s: unsupported type %d kind %d (%zu bytes)",
                  what, r->elem.type, r->elem.kind, r->elem.size);
        return;
    }
    size_t count, size = r->elem.size;
    char small[64];
    char *buf = pack(a, r->elem, &count);
    size_t chunk = CAF_SLOT_BYTES / size;
    char *scratch = OP_USER != r->op ? NULL : size <= sizeof(small) ? small : malloc(size);
    if (NULL == buf || (OP_USER == r->op && NULL == scratch)) {
        unpack(a, r->elem, buf, count, false);
        caf_error(stat, errmsg, errmsg_len, 1, "%s: out of memory", what);
        return;
    }
    bool wanted = 0 == result_image || team->index == result_image;
    int code = 0, bad = 0;
    if (small_reduction(r, team, count)) {
        small_job_t job = {.r = r, .team = team, .count = count, .bytes = count * size};
        job.gather = gather_area(team, team->coll_seq++ & 1);
        memcpy(job.gather + (size_t)(team->index - 1) * job.bytes, buf, job.bytes);
        code = caf_barrier_with(team, combine_gathered, &job);
        if (wanted) {
            memcpy(buf, job.gather + CAF_GATHER_BYTES, job.bytes);
        }
        chunk = count; /* done: the loop below does not run */
    }
    for (size_t lo = small_reduction(r, team, count) ? count : 0; lo < count; lo += chunk) {
        size_t n = count - lo < chunk ? count - lo : chunk;
        char *mine = buf + lo * size;
        unsigned parity = round_begin(team, mine, n * size, &code);
        if (!wanted) {
            continue;
        }
        /* Combine in team order from member 1's contribution on. */
        memcpy(mine, slot(team->members[0], parity), n * size);
        for (int m = 1; m < team->size && !bad; m++) {
            bad = combine(r, mine, slot(team->members[m], parity), n, scratch);
        }
    }
    /* Images that do not want the result keep their own contribution. */
    if (!wanted && buf == a->base_addr) {
        buf = NULL;
    }
    if (NULL != buf) {
        unpack(a, r->elem, buf, count, wanted && !bad);
    }
    if (scratch != small) {
        free(scratch);
    }
    if (bad && CAF_BT_DERIVED == r->elem.type && size <= 16) {
        caf_error(stat, errmsg, errmsg_len, 1,
                  "%s: cannot tell which registers carry the operator's result (a derived type "
                  "of %zu bytes); a type of more than 16 bytes works", what, size);
        return;
    }
    if (bad) {
        caf_error(stat, errmsg, errmsg_len, 1, "%s: the operation cannot be applied", what);
        return;
    }
    finish(code, stat, errmsg, errmsg_len, what);
}

static caf_elem_t elem_of(const caf_desc_t *a)
{
    /* Collectives carry no kind argument: for numbers the element size is
     * the kind (complex: half of it), except real(10). */
    caf_elem_t t = {.type = a->dtype.type, .size = a->dtype.elem_len};
    switch (t.type) {
    case CAF_BT_REAL: t.kind = 16 == t.size ? 16 : (int)t.size; break;
    case CAF_BT_COMPLEX: t.kind = 32 == t.size ? 16 : (int)t.size / 2; break;
    default: t.kind = (int)t.size; break;
    }
    return t;
}

static caf_elem_t char_elem(const caf_desc_t *a, int a_len, size_t *length)
{
    caf_elem_t t = elem_of(a);
    if (CAF_BT_CHARACTER == t.type) {
        *length = a_len > 0 ? (size_t)a_len : t.size;
        t.kind = *length ? (int)(t.size / *length) : 1;
    }
    return t;
}

CAF_EXPORT void _gfortran_caf_co_sum(caf_desc_t *a, int result_image, int *stat, char *errmsg,
                                     size_t errmsg_len)
{
    reduction_t r = {.op = OP_SUM, .elem = elem_of(a)};
    reduce("CO_SUM", &r, a, result_image, stat, errmsg, errmsg_len);
}

CAF_EXPORT void _gfortran_caf_co_min(caf_desc_t *a, int result_image, int *stat, char *errmsg,
                                     int a_len, size_t errmsg_len)
{
    reduction_t r = {.op = OP_MIN};
    r.elem = char_elem(a, a_len, &r.length);
    reduce("CO_MIN", &r, a, result_image, stat, errmsg, errmsg_len);
}

CAF_EXPORT void _gfortran_caf_co_max(caf_desc_t *a, int result_image, int *stat, char *errmsg,
                                     int a_len, size_t errmsg_len)
{
    reduction_t r = {.op = OP_MAX};
    r.elem = char_elem(a, a_len, &r.length);
    reduce("CO_MAX", &r, a, result_image, stat, errmsg, errmsg_len);
}

CAF_EXPORT void _gfortran_caf_co_reduce(caf_desc_t *a, void *(*opr)(void *, void *),
                                        int opr_flags, int result_image, int *stat, char *errmsg,
                                        int a_len, size_t errmsg_len)
{
    reduction_t r = {.op = OP_USER, .user = (void *)opr, .flags = opr_flags};
    r.elem = char_elem(a, a_len, &r.length);
    reduce("CO_REDUCE", &r, a, result_image, stat, errmsg, errmsg_len);
}

/* What the source of a CO_BROADCAST announces in its first round, before
 * its data: every image then runs the source's number of rounds, whatever
 * its own argument looks like, so a mismatch is an error and not a hang.
 * The team and round say that the source wrote it for this broadcast: a
 * source that stopped before the call leaves an older one in its slot (it
 * cannot stop during the call, and the first round's barrier completes
 * only once the source has arrived or stopped). */
typedef struct bcast_head {
    const caf_barrier_t *team; /* the team's barrier: the same in every image */
    uint64_t bytes;            /* the data that follows */
    uint32_t round;            /* the team's coll_seq */
    uint32_t allocated;        /* the argument has memory */
} bcast_head_t;

#define BCAST_HEAD_BYTES sizeof(bcast_head_t)

/* Runs the rounds of a broadcast from team member `source` (1-based) of
 * `bytes` at `buf` (NULL when unallocated here); fills *head with the
 * source's announcement. Returns 0, a stopped or failed status, or -1 when
 * this image's argument does not match the source's (then its data is left
 * alone). */
static int bcast_rounds(caf_team_rt_t *team, int source, char *buf, size_t bytes,
                        bcast_head_t *head)
{
    bool sending = team->index == source;
    *head = (bcast_head_t){.team = team->barrier, .bytes = bytes, .round = team->coll_seq,
                           .allocated = NULL != buf};
    bool match = true;
    int code = 0;
    for (size_t lo = 0;;) {
        size_t skip = 0 == lo ? BCAST_HEAD_BYTES : 0;
        size_t room = CAF_SLOT_BYTES - skip;
        char *out = slot(caf.me, team->coll_seq & 1);
        if (sending) {
            if (skip) {
                memcpy(out, head, skip);
            }
            if (bytes > lo) {
                memcpy(out + skip, buf + lo, bytes - lo < room ? bytes - lo : room);
            }
        }
        const char *in = slot(team->members[source - 1], round_begin(team, NULL, 0, &code));
        if (!sending && skip) {
            bcast_head_t mine = *head;
            memcpy(head, in, skip);
            if (head->team != mine.team || head->round != mine.round) {
                return code ? code : CAF_STAT_STOPPED_IMAGE;
            }
            match = head->bytes == mine.bytes && head->allocated == mine.allocated;
        }
        size_t n = head->bytes - lo < room ? head->bytes - lo : room;
        if (!sending && match && n) {
            memcpy(buf + lo, in + skip, n);
        }
        lo += n;
        if (lo >= head->bytes) {
            return match ? code : -1;
        }
    }
}

CAF_EXPORT void _gfortran_caf_co_broadcast(caf_desc_t *a, int source_image, int *stat,
                                           char *errmsg, size_t errmsg_len)
{
    caf_ok(stat);
    caf_team_rt_t *team = caf.team;
    if (source_image < 1 || source_image > team->size) {
        caf_error(stat, errmsg, errmsg_len, 1, "CO_BROADCAST: source image %d is out of range",
                  source_image);
        return;
    }
    /* For an allocatable scalar component gfortran 12 also passes the
     * hidden token beside it; a token is this image's own business. */
    if (CAF_BT_VOID == a->dtype.type) {
        return;
    }
    /* gfortran 12 passes each allocatable component of a derived type as a
     * copy of its descriptor: an unallocated one comes without memory (and
     * with stale bounds), and cannot be allocated from here. */
    caf_elem_t t = elem_of(a);
    size_t count = 0;
    char *buf = NULL;
    if (NULL != a->base_addr && NULL == (buf = pack(a, t, &count))) {
        caf_error(stat, errmsg, errmsg_len, 1, "CO_BROADCAST: out of memory");
        return;
    }
    bcast_head_t src;
    int code = bcast_rounds(team, source_image, buf, count * t.size, &src);
    bool here = NULL != buf;
    if (here) {
        /* Unless the source's data arrived, buf still holds our own. */
        unpack(a, t, buf, count, team->index != source_image);
    }
    if (code < 0 && here != (bool)src.allocated) {
        caf_error(stat, errmsg, errmsg_len, 1,
                  "CO_BROADCAST: the argument or an allocatable component of it is %sallocated "
                  "here but %sallocated on source image %d (gfortran 12 leaves the runtime no "
                  "way to allocate it: allocate it as on the source before the call)",
                  here ? "" : "not ", src.allocated ? "" : "not ", source_image);
    } else if (code < 0) {
        caf_error(stat, errmsg, errmsg_len, 1,
                  "CO_BROADCAST: the argument or an allocatable component of it has %zu bytes "
                  "here but %llu on source image %d", count * t.size,
                  (unsigned long long)src.bytes, source_image);
    } else {
        finish(code, stat, errmsg, errmsg_len, "CO_BROADCAST");
    }
}
