/*
 * dropin_scalar.c - fixed-size values through PMIx_Data_pack and unpack.
 *
 * Every sample is a short array of values chosen at the edges of the type
 * (minimum, maximum, a recognisable bit pattern). A sample passes when the
 * unpacked array is bit-for-bit the packed one, which for floating point
 * means the exact IEEE value, sign of zero included: OpenPMIx 4.2.2 sends
 * float and double as "%f" text, so 1e-300 comes back as 0 and pi as
 * 3.141593, and those samples are marked as its known defect. Each float
 * and double value is its own sample so the report says which values
 * OpenPMIx happens to get right. PMIX_DATA_TYPE is the other sample it
 * mangles.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <pmix.h>

#include "dropin.h"

struct sample {
    const char *what;
    pmix_data_type_t type;
    size_t size;           /* of one element in memory */
    int32_t n;
    const void *values;
    bool openpmix_defect;  /* OpenPMIx 4.2.2 is known to mangle it */
};

#define SAMPLE(what, type, ctype, ...)                                                           \
    {what, type, sizeof(ctype), sizeof((const ctype[]){__VA_ARGS__}) / sizeof(ctype),            \
     (const ctype[]){__VA_ARGS__}, false}
#define SAMPLE_DEFECT(what, type, ctype, ...)                                                        \
    {what, type, sizeof(ctype), sizeof((const ctype[]){__VA_ARGS__}) / sizeof(ctype),            \
     (const ctype[]){__VA_ARGS__}, true}

static const struct sample samples[] = {
    SAMPLE("PMIX_BOOL true, false, true", PMIX_BOOL, bool, true, false, true),
    SAMPLE("PMIX_BYTE 0x00, 0xa5, 0xff", PMIX_BYTE, uint8_t, 0x00, 0xa5, 0xff),
    SAMPLE("PMIX_INT INT_MIN, -1, 0, INT_MAX", PMIX_INT, int, INT_MIN, -1, 0, INT_MAX),
    SAMPLE("PMIX_INT8 -128, 0, 127", PMIX_INT8, int8_t, INT8_MIN, 0, INT8_MAX),
    SAMPLE("PMIX_INT16 -32768, 12345, 32767", PMIX_INT16, int16_t, INT16_MIN, 12345, INT16_MAX),
    SAMPLE("PMIX_INT32 INT32_MIN, 0x12345678, INT32_MAX", PMIX_INT32, int32_t, INT32_MIN,
           0x12345678, INT32_MAX),
    SAMPLE("PMIX_INT64 INT64_MIN, 0x123456789abcdef0, INT64_MAX", PMIX_INT64, int64_t,
           INT64_MIN, 0x123456789abcdef0LL, INT64_MAX),
    SAMPLE("PMIX_UINT 0, 7, UINT_MAX", PMIX_UINT, unsigned int, 0, 7, UINT_MAX),
    SAMPLE("PMIX_UINT8 0, 255", PMIX_UINT8, uint8_t, 0, UINT8_MAX),
    SAMPLE("PMIX_UINT16 0xbeef, 65535", PMIX_UINT16, uint16_t, 0xbeef, UINT16_MAX),
    SAMPLE("PMIX_UINT32 0xdeadbeef, UINT32_MAX", PMIX_UINT32, uint32_t, 0xdeadbeefU, UINT32_MAX),
    SAMPLE("PMIX_UINT64 0x0123456789abcdef, UINT64_MAX", PMIX_UINT64, uint64_t,
           0x0123456789abcdefULL, UINT64_MAX),
    SAMPLE("PMIX_SIZE 0, 4096, SIZE_MAX", PMIX_SIZE, size_t, 0, 4096, SIZE_MAX),
    SAMPLE("PMIX_PID 1, 32768, INT_MAX", PMIX_PID, pid_t, 1, 32768, INT_MAX),
    SAMPLE("PMIX_STATUS SUCCESS, ERR_NOT_FOUND, ERR_TIMEOUT", PMIX_STATUS, pmix_status_t,
           PMIX_SUCCESS, PMIX_ERR_NOT_FOUND, PMIX_ERR_TIMEOUT),
    SAMPLE("PMIX_PROC_RANK 0, 7, WILDCARD, UNDEF", PMIX_PROC_RANK, pmix_rank_t, 0, 7,
           PMIX_RANK_WILDCARD, PMIX_RANK_UNDEF),
    SAMPLE("PMIX_TIME 0, 1700000000", PMIX_TIME, time_t, 0, 1700000000),
    SAMPLE("PMIX_TIMEVAL {1700000000, 123456}, {0, 999999}", PMIX_TIMEVAL, struct timeval,
           {1700000000, 123456}, {0, 999999}),
    SAMPLE("PMIX_PERSIST SESSION", PMIX_PERSIST, pmix_persistence_t, PMIX_PERSIST_SESSION),
    SAMPLE("PMIX_SCOPE LOCAL, GLOBAL", PMIX_SCOPE, pmix_scope_t, PMIX_LOCAL, PMIX_GLOBAL),
    SAMPLE("PMIX_DATA_RANGE NAMESPACE", PMIX_DATA_RANGE, pmix_data_range_t,
           PMIX_RANGE_NAMESPACE),
    SAMPLE("PMIX_PROC_STATE RUNNING, TERMINATED", PMIX_PROC_STATE, pmix_proc_state_t,
           PMIX_PROC_STATE_RUNNING, PMIX_PROC_STATE_TERMINATED),
    /* OpenPMIx packs a data type as a plain varint and unpacks it as a
     * zigzag one, so 17 (PMIX_DOUBLE) comes back as -9. */
    SAMPLE_DEFECT("PMIX_DATA_TYPE DOUBLE, DATA_ARRAY", PMIX_DATA_TYPE, pmix_data_type_t,
                  PMIX_DOUBLE, PMIX_DATA_ARRAY),
    SAMPLE("PMIX_INFO_DIRECTIVES REQD|QUALIFIER", PMIX_INFO_DIRECTIVES, pmix_info_directives_t,
           PMIX_INFO_REQD | PMIX_INFO_QUALIFIER),
    SAMPLE("PMIX_ALLOC_DIRECTIVE EXTEND", PMIX_ALLOC_DIRECTIVE, pmix_alloc_directive_t,
           PMIX_ALLOC_EXTEND),
    SAMPLE("PMIX_IOF_CHANNEL STDOUT|STDERR", PMIX_IOF_CHANNEL, pmix_iof_channel_t,
           PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL),
    SAMPLE("PMIX_JOB_STATE RUNNING", PMIX_JOB_STATE, pmix_job_state_t, PMIX_JOB_STATE_RUNNING),
    SAMPLE("PMIX_LINK_STATE UP", PMIX_LINK_STATE, pmix_link_state_t, PMIX_LINK_UP),
    SAMPLE("PMIX_DEVTYPE GPU|NETWORK", PMIX_DEVTYPE, pmix_device_type_t,
           PMIX_DEVTYPE_GPU | PMIX_DEVTYPE_NETWORK),
    SAMPLE("PMIX_LOCTYPE SHARE_NODE", PMIX_LOCTYPE, pmix_locality_t, PMIX_LOCALITY_SHARE_NODE),
    SAMPLE("PMIX_STOR_MEDIUM SSD|NVME", PMIX_STOR_MEDIUM, pmix_storage_medium_t,
           PMIX_STORAGE_MEDIUM_SSD | PMIX_STORAGE_MEDIUM_NVME),

    /* OpenPMIx sends these as "%f" text. */
    SAMPLE_DEFECT("PMIX_FLOAT 0.1f", PMIX_FLOAT, float, 0.1f),
    SAMPLE_DEFECT("PMIX_FLOAT 1e-30f", PMIX_FLOAT, float, 1e-30f),
    SAMPLE_DEFECT("PMIX_FLOAT -0.0f", PMIX_FLOAT, float, -0.0f),
    SAMPLE_DEFECT("PMIX_FLOAT pi", PMIX_FLOAT, float, (float)M_PI),
    SAMPLE_DEFECT("PMIX_FLOAT FLT_MAX", PMIX_FLOAT, float, FLT_MAX),
    SAMPLE_DEFECT("PMIX_DOUBLE 0.1", PMIX_DOUBLE, double, 0.1),
    SAMPLE_DEFECT("PMIX_DOUBLE 1e-300", PMIX_DOUBLE, double, 1e-300),
    SAMPLE_DEFECT("PMIX_DOUBLE -0.0", PMIX_DOUBLE, double, -0.0),
    SAMPLE_DEFECT("PMIX_DOUBLE pi", PMIX_DOUBLE, double, M_PI),
    SAMPLE_DEFECT("PMIX_DOUBLE 2^-1074 (smallest subnormal)", PMIX_DOUBLE, double, 0x1p-1074),
    SAMPLE_DEFECT("PMIX_DOUBLE DBL_MAX", PMIX_DOUBLE, double, DBL_MAX),
    SAMPLE_DEFECT("PMIX_DOUBLE array 0.1, 1e-300, -0.0, pi", PMIX_DOUBLE, double, 0.1, 1e-300, -0.0,
              M_PI),
};

/* Print the bytes of element i of both arrays, for a failed sample. */
static void show_difference(const struct sample *s, const uint8_t *got)
{
    const uint8_t *want = s->values;
    char wtext[64], gtext[64];
    int32_t i;
    size_t b;

    for (i = 0; i < s->n; i++) {
        if (0 == memcmp(want + i * s->size, got + i * s->size, s->size)) {
            continue;
        }
        for (b = 0; b < s->size && b < 24; b++) {
            sprintf(wtext + 2 * b, "%02x", want[i * s->size + b]);
            sprintf(gtext + 2 * b, "%02x", got[i * s->size + b]);
        }
        dropin_diag("element %d: packed bytes %s, unpacked %s", (int)i, wtext, gtext);
        if (PMIX_DOUBLE == s->type) {
            double w, g;
            memcpy(&w, want + i * s->size, sizeof(w));
            memcpy(&g, got + i * s->size, sizeof(g));
            dropin_diag("element %d: packed %.17g, unpacked %.17g", (int)i, w, g);
        } else if (PMIX_FLOAT == s->type) {
            float w, g;
            memcpy(&w, want + i * s->size, sizeof(w));
            memcpy(&g, got + i * s->size, sizeof(g));
            dropin_diag("element %d: packed %.9g, unpacked %.9g", (int)i, (double)w, (double)g);
        }
        return;
    }
}

static void check_sample(const struct sample *s)
{
    uint8_t *got = calloc((size_t)s->n, s->size);
    bool ok;

    ok = NULL != got && dropin_roundtrip(s->what, (void *)s->values, got, s->n, s->type);
    if (ok && 0 != memcmp(got, s->values, (size_t)s->n * s->size)) {
        show_difference(s, got);
        ok = false;
    }
    if (s->openpmix_defect) {
        dropin_check_defect(ok, "%s round-trips bit-exactly through PMIx_Data_pack/unpack",
                            s->what);
    } else {
        dropin_check(ok, "%s round-trips through PMIx_Data_pack/unpack", s->what);
    }
    free(got);
}

/* Several types one after another in one buffer, read back in order. */
static void check_sequence(void)
{
    pmix_data_buffer_t buf;
    int32_t i32 = -42, i32_out = 0, n;
    uint64_t u64 = UINT64_MAX - 1, u64_out = 0;
    char *str = "between", *str_out = NULL;
    bool flag = true, flag_out = false;
    bool ok = true;

    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    ok = ok && PMIX_SUCCESS == PMIx_Data_pack(NULL, &buf, &i32, 1, PMIX_INT32);
    ok = ok && PMIX_SUCCESS == PMIx_Data_pack(NULL, &buf, &str, 1, PMIX_STRING);
    ok = ok && PMIX_SUCCESS == PMIx_Data_pack(NULL, &buf, &u64, 1, PMIX_UINT64);
    ok = ok && PMIX_SUCCESS == PMIx_Data_pack(NULL, &buf, &flag, 1, PMIX_BOOL);
    n = 1;
    ok = ok && PMIX_SUCCESS == PMIx_Data_unpack(NULL, &buf, &i32_out, &n, PMIX_INT32);
    n = 1;
    ok = ok && PMIX_SUCCESS == PMIx_Data_unpack(NULL, &buf, &str_out, &n, PMIX_STRING);
    n = 1;
    ok = ok && PMIX_SUCCESS == PMIx_Data_unpack(NULL, &buf, &u64_out, &n, PMIX_UINT64);
    n = 1;
    ok = ok && PMIX_SUCCESS == PMIx_Data_unpack(NULL, &buf, &flag_out, &n, PMIX_BOOL);
    ok = ok && -42 == i32_out && NULL != str_out && 0 == strcmp(str_out, "between") &&
         UINT64_MAX - 1 == u64_out && flag_out;
    dropin_check(ok, "int32, string, uint64 and bool packed in turn unpack in the same order");

    n = 1;
    dropin_check(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER ==
                     PMIx_Data_unpack(NULL, &buf, &i32_out, &n, PMIX_INT32),
                 "unpacking past the last value returns PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER");
    free(str_out);
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
}

/* Strings: ordinary, NULL and empty must stay distinct. */
static void check_strings(void)
{
    char *in[] = {"hello", NULL, "", "tab\tand spaces", "x"};
    char *out[5] = {NULL};
    bool ok;
    size_t i;

    ok = dropin_roundtrip("strings", in, out, 5, PMIX_STRING);
    ok = ok && 0 == strcmp(out[0], "hello") && NULL == out[1] && NULL != out[2] &&
         0 == strcmp(out[2], "") && 0 == strcmp(out[3], "tab\tand spaces") &&
         0 == strcmp(out[4], "x") && out[0] != in[0];
    dropin_check(ok, "PMIX_STRING \"hello\", NULL, \"\", \"tab\\tand spaces\" round-trip "
                     "with NULL and \"\" kept distinct");
    for (i = 0; i < 5; i++) {
        free(out[i]);
    }
}

/* Byte objects, including an empty one and embedded NUL bytes. */
static void check_byte_objects(void)
{
    pmix_byte_object_t in[2], out[2];
    bool ok;

    in[0].bytes = "a\0b\xff";
    in[0].size = 4;
    in[1].bytes = NULL;
    in[1].size = 0;
    memset(out, 0, sizeof(out));
    ok = dropin_roundtrip("byte objects", in, out, 2, PMIX_BYTE_OBJECT);
    ok = ok && 4 == out[0].size && NULL != out[0].bytes &&
         0 == memcmp(out[0].bytes, "a\0b\xff", 4) && 0 == out[1].size;
    dropin_check(ok, "PMIX_BYTE_OBJECT {\"a\\0b\\xff\", 4} and {NULL, 0} round-trip");
    PMIX_BYTE_OBJECT_DESTRUCT(&out[0]);
    PMIX_BYTE_OBJECT_DESTRUCT(&out[1]);
}

void dropin_scalar_checks(void)
{
    size_t i;

    for (i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
        check_sample(&samples[i]);
    }
    check_strings();
    check_byte_objects();
    check_sequence();
}
