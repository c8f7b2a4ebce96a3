/*
 * dropin_strings.c - the functions that turn PMIx values into text.
 *
 * Exact wording is not part of the ABI, so most checks ask only for what a
 * program can rely on: a non-NULL, non-empty string that names the value
 * (case aside) and differs between different values, and a non-NULL answer
 * for a value the library does not know. Exact text is required only where
 * it is an interface fact: type names are the macro names, and attribute
 * names and keys map onto each other as the headers define them.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmix.h>

#include "dropin.h"

static bool nonempty(const char *s)
{
    return NULL != s && '\0' != s[0];
}

/* Case-insensitive dropin_contains. */
static bool mentions(const char *s, const char *word)
{
    size_t i, n = strlen(word);

    for (; NULL != s && '\0' != *s; s++) {
        for (i = 0; i < n && '\0' != s[i] &&
                    tolower((unsigned char)s[i]) == tolower((unsigned char)word[i]);
             i++) {
        }
        if (i == n) {
            return true;
        }
    }
    return false;
}

static bool differ(const char *a, const char *b)
{
    return nonempty(a) && nonempty(b) && 0 != strcmp(a, b);
}

static void check_type_names(void)
{
    static const struct {
        pmix_data_type_t type;
        const char *name;
    } names[] = {
        {PMIX_BOOL, "PMIX_BOOL"},   {PMIX_STRING, "PMIX_STRING"},
        {PMIX_INT32, "PMIX_INT32"}, {PMIX_DOUBLE, "PMIX_DOUBLE"},
        {PMIX_INFO, "PMIX_INFO"},   {PMIX_DATA_ARRAY, "PMIX_DATA_ARRAY"},
        {PMIX_PROC, "PMIX_PROC"},   {PMIX_BYTE_OBJECT, "PMIX_BYTE_OBJECT"},
    };
    size_t i;
    const char *s;

    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        s = PMIx_Data_type_string(names[i].type);
        dropin_check(NULL != s && 0 == strcmp(s, names[i].name),
                     "PMIx_Data_type_string(%d) is \"%s\" (got \"%s\")", (int)names[i].type,
                     names[i].name, s ? s : "(null)");
    }
    dropin_check(nonempty(PMIx_Data_type_string(4000)),
                 "PMIx_Data_type_string of an unknown type is non-empty");
}

static void check_enum_strings(void)
{
    const char *s;

    s = PMIx_Error_string(PMIX_ERR_NOT_FOUND);
    dropin_check(mentions(s, "NOT") && mentions(s, "FOUND"),
                 "PMIx_Error_string(PMIX_ERR_NOT_FOUND) names it (\"%s\")", s ? s : "(null)");
    dropin_check(differ(PMIx_Error_string(PMIX_SUCCESS), PMIx_Error_string(PMIX_ERR_BAD_PARAM)),
                 "PMIx_Error_string tells PMIX_SUCCESS from PMIX_ERR_BAD_PARAM");
    dropin_check(nonempty(PMIx_Error_string(-12345)),
                 "PMIx_Error_string of an unknown status is non-empty");

    dropin_check(differ(PMIx_Proc_state_string(PMIX_PROC_STATE_RUNNING),
                        PMIx_Proc_state_string(PMIX_PROC_STATE_TERMINATED)),
                 "PMIx_Proc_state_string tells RUNNING from TERMINATED");
    dropin_check(nonempty(PMIx_Proc_state_string(200)),
                 "PMIx_Proc_state_string of an unknown state is non-empty");
    dropin_check(differ(PMIx_Scope_string(PMIX_LOCAL), PMIx_Scope_string(PMIX_GLOBAL)),
                 "PMIx_Scope_string tells PMIX_LOCAL from PMIX_GLOBAL");
    dropin_check(differ(PMIx_Persistence_string(PMIX_PERSIST_SESSION),
                        PMIx_Persistence_string(PMIX_PERSIST_PROC)),
                 "PMIx_Persistence_string tells SESSION from PROC");
    dropin_check(differ(PMIx_Data_range_string(PMIX_RANGE_NAMESPACE),
                        PMIx_Data_range_string(PMIX_RANGE_GLOBAL)),
                 "PMIx_Data_range_string tells NAMESPACE from GLOBAL");
    dropin_check(mentions(PMIx_Alloc_directive_string(PMIX_ALLOC_EXTEND), "EXTEND"),
                 "PMIx_Alloc_directive_string(PMIX_ALLOC_EXTEND) mentions EXTEND");
    s = PMIx_IOF_channel_string(PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL);
    dropin_check(mentions(s, "STDOUT") && mentions(s, "STDERR"),
                 "PMIx_IOF_channel_string(STDOUT|STDERR) mentions both");
    dropin_check(mentions(PMIx_Job_state_string(PMIX_JOB_STATE_RUNNING), "RUNNING"),
                 "PMIx_Job_state_string(PMIX_JOB_STATE_RUNNING) mentions RUNNING");
    dropin_check(differ(PMIx_Link_state_string(PMIX_LINK_UP),
                        PMIx_Link_state_string(PMIX_LINK_DOWN)),
                 "PMIx_Link_state_string tells PMIX_LINK_UP from PMIX_LINK_DOWN");
    dropin_check(mentions(PMIx_Device_type_string(PMIX_DEVTYPE_GPU), "GPU"),
                 "PMIx_Device_type_string(PMIX_DEVTYPE_GPU) mentions GPU");
    dropin_check(mentions(PMIx_Value_comparison_string(PMIX_EQUAL), "EQUAL") &&
                     differ(PMIx_Value_comparison_string(PMIX_VALUE1_GREATER),
                            PMIx_Value_comparison_string(PMIX_VALUE2_GREATER)),
                 "PMIx_Value_comparison_string names PMIX_EQUAL and tells the GREATERs apart");
}

static void check_allocated_strings(void)
{
    pmix_info_t info;
    uint32_t sixteen = 16;
    char *s;

    s = PMIx_Info_directives_string(PMIX_INFO_REQD);
    dropin_check(mentions(s, "REQUIRED"), "PMIx_Info_directives_string(PMIX_INFO_REQD) "
                                          "mentions REQUIRED (\"%s\")", s ? s : "(null)");
    free(s);
    s = PMIx_Info_directives_string(PMIX_INFO_QUALIFIER);
    dropin_check(mentions(s, "QUALIFIER"), "PMIx_Info_directives_string(PMIX_INFO_QUALIFIER) "
                                           "mentions QUALIFIER");
    free(s);

    PMIX_INFO_LOAD(&info, PMIX_JOB_SIZE, &sixteen, PMIX_UINT32);
    s = PMIx_Info_string(&info);
    dropin_check(nonempty(s) && dropin_contains(s, "16") &&
                     (dropin_contains(s, PMIX_JOB_SIZE) || dropin_contains(s, "PMIX_JOB_SIZE")),
                 "PMIx_Info_string of {pmix.job.size: uint32 16} names the key and 16");
    free(s);
    s = PMIx_Value_string(&info.value);
    dropin_check(nonempty(s) && dropin_contains(s, "16"),
                 "PMIx_Value_string of uint32 16 mentions 16");
    free(s);
    PMIX_INFO_DESTRUCT(&info);
}

static void check_attribute_names(void)
{
    static const struct {
        const char *name;
        const char *key;
    } attrs[] = {
        {"PMIX_JOB_SIZE", PMIX_JOB_SIZE},
        {"PMIX_NSPACE", PMIX_NSPACE},
        {"PMIX_LOCAL_RANK", PMIX_LOCAL_RANK},
        {"PMIX_QUERY_NAMESPACES", PMIX_QUERY_NAMESPACES},
    };
    const char *s;
    size_t i;

    for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
        s = PMIx_Get_attribute_string(attrs[i].name);
        dropin_check(NULL != s && 0 == strcmp(s, attrs[i].key),
                     "PMIx_Get_attribute_string(\"%s\") is \"%s\"", attrs[i].name, attrs[i].key);
        s = PMIx_Get_attribute_name(attrs[i].key);
        dropin_check(NULL != s && 0 == strcmp(s, attrs[i].name),
                     "PMIx_Get_attribute_name(\"%s\") is \"%s\"", attrs[i].key, attrs[i].name);
    }
    dropin_check(NULL != PMIx_Get_attribute_string("PMIX_NO_SUCH_ATTRIBUTE") &&
                     NULL != PMIx_Get_attribute_name("drover.no.such.key"),
                 "PMIx_Get_attribute_string/name answer (non-NULL) for unknown names");
}

void dropin_string_checks(void)
{
    check_type_names();
    check_enum_strings();
    check_allocated_strings();
    check_attribute_names();
}
