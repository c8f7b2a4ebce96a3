/*
 * strings_match.c - the text drover's enum-to-string functions return,
 * compared with OpenPMIx's for every value.
 *
 * Programs print these strings and scripts grep for them, so drover must
 * say exactly what OpenPMIx 4.2 says. Both libraries are loaded into this
 * one process by path (RTLD_LOCAL keeps their symbols apart) and every
 * function is called with every value in a range wide enough to cover all
 * codes either library knows and some on each side, unknown values
 * included. The answers both give PMIx_Query_info before PMIx_Init (the
 * ABI versions) are compared too. Built with OpenPMIx's headers only.
 * Usage: strings_match <openpmix libpmix.so.2> <drover's>.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmix.h>

typedef const char *(*int_string_fn)(int);
typedef const char *(*u8_string_fn)(uint8_t);
typedef const char *(*u16_string_fn)(uint16_t);
typedef const char *(*u64_string_fn)(uint64_t);
typedef char *(*dirs_string_fn)(uint32_t);
typedef int (*init_fn)(void *, void *, size_t);

static int tests, failures;

/* One TAP line per function: the values that differ are listed first. */
static void report(const char *fn, int mismatches, long checked)
{
    tests++;
    if (0 != mismatches) {
        failures++;
    }
    printf("%s %d - %s matches OpenPMIx for all %ld values (%d differ)\n",
           0 == mismatches ? "ok" : "not ok", tests, fn, checked, mismatches);
}

static bool differ(const char *fn, long value, const char *theirs, const char *ours)
{
    if (NULL != theirs && NULL != ours && 0 == strcmp(theirs, ours)) {
        return false;
    }

    printf("# %s(%ld): OpenPMIx \"%s\", drover \"%s\"\n", fn, value,
           NULL == theirs ? "(null)" : theirs, NULL == ours ? "(null)" : ours);
    return true;
}

static void *both(void *lib[2], const char *name, void **ours)
{
    void *theirs = dlsym(lib[0], name);
    *ours = dlsym(lib[1], name);
    if (NULL == theirs || NULL == *ours) {
        printf("Bail out! %s missing from a library\n", name);
        return NULL;
    }
    return theirs;
}

/* The enum types are of several widths: each compare_* covers one. */
#define COMPARE(suffix, fntype, argtype)                                                      \
    static void compare_##suffix(void *lib[2], const char *name, long lo, long hi)            \
    {                                                                                         \
        void *o;                                                                              \
        fntype theirs = (fntype)both(lib, name, &o), ours = (fntype)o;                       \
        int bad = 0;                                                                          \
        if (NULL == theirs) {                                                                 \
            failures++;                                                                       \
            return;                                                                           \
        }                                                                                     \
        for (long v = lo; v <= hi; v++) {                                                     \
            bad += differ(name, v, theirs((argtype)v), ours((argtype)v));                     \
        }                                                                                     \
        report(name, bad, hi - lo + 1);                                                       \
    }
COMPARE(int, int_string_fn, int)
COMPARE(u8, u8_string_fn, uint8_t)
COMPARE(u16, u16_string_fn, uint16_t)
COMPARE(u64, u64_string_fn, uint64_t)

/* PMIx_Info_directives_string returns a string the caller frees, for a
 * bit mask: every single bit and some combinations. */
static void compare_directives(void *lib[2])
{
    void *o;
    dirs_string_fn theirs = (dirs_string_fn)both(lib, "PMIx_Info_directives_string", &o);
    dirs_string_fn ours = (dirs_string_fn)o;
    int bad = 0;
    long n = 0;

    if (NULL == theirs) {
        failures++;
        return;
    }
    for (int i = -1; i < 32; i++) {
        for (int j = i; j < 32; j++) {
            uint32_t v = (i < 0 ? 0 : 1u << i) | (j < 0 ? 0 : 1u << j);
            char *a = theirs(v), *b = ours(v);
            bad += differ("PMIx_Info_directives_string", (long)v, a, b);
            free(a);
            free(b);
            n++;
        }
    }
    report("PMIx_Info_directives_string", bad, n);
}

/* Remove PMIX_* variables, so that OpenPMIx's PMIx_Init finds no server
 * of a job this test may run in. */
static void forget_servers(void)
{
    extern char **environ;
    char name[256];

    for (char **e = environ; NULL != *e;) {
        size_t len = strcspn(*e, "=");
        if (0 != strncmp(*e, "PMIX_", 5) || len >= sizeof(name)) {
            e++;
            continue;
        }
        memcpy(name, *e, len);
        name[len] = '\0';
        unsetenv(name);
    }
}

/* Attribute names and keys, both ways, for every attribute drover knows
 * (its drover_attribute_at lists them). */
static void compare_attributes(void *lib[2])
{
    typedef const char *(*str_fn)(const char *);
    typedef const struct {
        const char *name, *key;
    } *(*at_fn)(size_t);
    void *o;
    str_fn theirs_string = (str_fn)both(lib, "PMIx_Get_attribute_string", &o);
    str_fn ours_string = (str_fn)o;
    str_fn theirs_name = (str_fn)both(lib, "PMIx_Get_attribute_name", &o);
    str_fn ours_name = (str_fn)o;
    at_fn at = (at_fn)dlsym(lib[1], "drover_attribute_at");
    int bad = 0;
    long n = 0;

    if (NULL == theirs_string || NULL == theirs_name || NULL == at) {
        printf("Bail out! attribute functions missing\n");
        failures++;
        return;
    }
    for (size_t i = 0; NULL != at(i); i++, n++) {
        bad += differ("PMIx_Get_attribute_string", (long)i, theirs_string(at(i)->name),
                      ours_string(at(i)->name));
        bad += differ("PMIx_Get_attribute_name", (long)i, theirs_name(at(i)->key),
                      ours_name(at(i)->key));
    }
    report("PMIx_Get_attribute_string and _name", bad, n);
}

/* The ABI versions PMIx_Query_info answers before PMIx_Init. */
static void compare_abi_query(void *lib[2])
{
    typedef pmix_status_t (*query_fn)(pmix_query_t *, size_t, pmix_info_t **, size_t *);
    typedef void (*destruct_fn)(pmix_value_t *);
    /* One key per query: OpenPMIx 4.2 answers before PMIx_Init only when
     * the queries are as many as the keys (it compares the two counts),
     * while drover answers any mix of these keys. */
    char *stable[] = {PMIX_QUERY_STABLE_ABI_VERSION, NULL};
    char *provisional[] = {PMIX_QUERY_PROVISIONAL_ABI_VERSION, NULL};
    pmix_query_t q[2] = {{.keys = stable}, {.keys = provisional}};
    pmix_info_t *res[2] = {NULL, NULL};
    size_t n[2] = {0, 0};
    pmix_status_t rc[2];
    int bad = 0;
    void *o;

    if (NULL == both(lib, "PMIx_Query_info", &o) || NULL == both(lib, "PMIx_Value_destruct", &o)) {
        failures++;
        return;
    }
    for (int i = 0; i < 2; i++) {
        rc[i] = ((query_fn)dlsym(lib[i], "PMIx_Query_info"))(q, 2, &res[i], &n[i]);
    }
    bad += rc[0] != rc[1] || n[0] != n[1] || 2 != n[0];
    for (size_t k = 0; 0 == bad && k < n[0]; k++) {
        bad += differ("PMIx_Query_info key", (long)k, res[0][k].key, res[1][k].key);
        bad += differ("PMIx_Query_info value", (long)k, res[0][k].value.data.string,
                      res[1][k].value.data.string);
    }
    if (rc[0] != rc[1] || n[0] != n[1]) {
        printf("# PMIx_Query_info: OpenPMIx %d with %zu results, drover %d with %zu\n", rc[0],
               n[0], rc[1], n[1]);
    }
    /* Each library releases its own results. */
    for (int i = 0; i < 2; i++) {
        for (size_t k = 0; NULL != res[i] && k < n[i]; k++) {
            ((destruct_fn)dlsym(lib[i], "PMIx_Value_destruct"))(&res[i][k].value);
        }
        free(res[i]);
    }
    report("PMIx_Query_info of the ABI versions before PMIx_Init", bad, 2);
}

int main(int argc, char **argv)
{
    void *lib[2];

    if (3 != argc) {
        fprintf(stderr, "usage: %s OPENPMIX_LIBPMIX DROVER_LIBPMIX\n", argv[0]);
        return 2;
    }
    for (int i = 0; i < 2; i++) {
        if (NULL == (lib[i] = dlopen(argv[1 + i], RTLD_NOW | RTLD_LOCAL))) {
            printf("Bail out! %s\n", dlerror());
            return 1;
        }
    }
    if (dlsym(lib[0], "PMIx_Init") == dlsym(lib[1], "PMIx_Init")) {
        printf("Bail out! both paths loaded the same library\n");
        return 1;
    }
    compare_abi_query(lib);
    /* Status codes run from about -2000 (the last error constants) to a
     * few positive ones; the rest are "not found" in both. */
    compare_int(lib, "PMIx_Error_string", -3000, 1000);
    compare_u8(lib, "PMIx_Proc_state_string", 0, 255);
    compare_u8(lib, "PMIx_Scope_string", 0, 255);
    compare_u8(lib, "PMIx_Persistence_string", 0, 255);
    compare_u8(lib, "PMIx_Data_range_string", 0, 255);
    compare_u8(lib, "PMIx_Alloc_directive_string", 0, 255);
    compare_u16(lib, "PMIx_IOF_channel_string", 0, 65535);
    compare_u8(lib, "PMIx_Job_state_string", 0, 255);
    compare_u8(lib, "PMIx_Link_state_string", 0, 255);
    compare_u64(lib, "PMIx_Device_type_string", 0, 256);
    compare_int(lib, "PMIx_Value_comparison_string", -8, 64);
    compare_directives(lib);
    compare_attributes(lib);
    /* OpenPMIx names most datatypes only once its datatype registry is set
     * up, which its PMIx_Init does first, even when it then finds no server
     * (and fails: without a server URI in the environment it finds none). */
    void *init;
    if (NULL == both(lib, "PMIx_Init", &init)) {
        return 1;
    }
    forget_servers();
    ((init_fn)dlsym(lib[0], "PMIx_Init"))(NULL, NULL, 0);
    compare_u16(lib, "PMIx_Data_type_string", 0, 65535);
    printf("1..%d\n", tests);
    return 0 == failures ? 0 : 1;
}
