/*
 * info.c - `drover info`: what this drover provides.
 *
 * Prints the version, every registered datatype and every known PMIx
 * attribute. It uses only the public API and drover.h, so what it shows is
 * what a program linked against libpmix.so.2 sees.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "drover.h"
#include "pmix.h"

static void print_datatypes(void)
{
    /* Builtin ids sit below PMIX_DATA_TYPE_MAX; programs register theirs
     * in the user range, which a fresh process has none of unless
     * --types declared some. */
    printf("datatypes:\n");
    for (unsigned id = 0; id <= DROVER_DATATYPE_USER_MAX; id++) {
        const drover_datatype_t *type = drover_datatype_lookup((pmix_data_type_t)id);
        if (NULL != type) {
            printf("  %3u  %-28s %zu bytes%s\n", id, type->name, type->size,
                   id >= DROVER_DECLARED_ID_MIN ? " (declared)" : "");
        }
    }
}

static void print_attributes(void)
{
    const drover_attribute_t *attr;
    printf("attributes:\n");
    for (size_t i = 0; NULL != (attr = drover_attribute_at(i)); i++) {
        printf("  %-36s %-28s %-22s %s%s\n", attr->name, attr->key,
               PMIx_Data_type_string(attr->type), attr->deprecated ? "(deprecated) " : "",
               attr->description);
    }
}

static int run(int argc, char **argv)
{
    /* --types FILE declares FILE's types first, so they are listed too. */
    if (argc > 2 && 0 == strcmp(argv[argc - 2], "--types")) {
        char *errors = NULL;
        pmix_status_t rc = drover_types_load_file(argv[argc - 1], 0, &errors);
        if (NULL != errors) {
            fputs(errors, stderr);
            free(errors);
        }
        if (PMIX_SUCCESS != rc) {
            return 1;
        }
        argc -= 2;
    }
    const char *section = argc > 1 ? argv[1] : "all";
    if (0 != strcmp(section, "all") && 0 != strcmp(section, "datatypes") &&
        0 != strcmp(section, "attributes") && 0 != strcmp(section, "version")) {
        fprintf(stderr, "drover info: unknown section '%s' "
                        "(expected version, datatypes, attributes or all)\n", section);
        return 2;
    }
    int all = 0 == strcmp(section, "all");
    if (all || 0 == strcmp(section, "version")) {
        printf("version: %s\n", PMIx_Get_version());
    }
    if (all || 0 == strcmp(section, "datatypes")) {
        print_datatypes();
    }
    if (all || 0 == strcmp(section, "attributes")) {
        print_attributes();
    }
    return 0;
}

const drover_command_t command_info = {
    .name = "info",
    .usage = "[version|datatypes|attributes] [--types FILE]",
    .summary = "show the version, datatypes and attributes this drover provides",
    .run = run,
};
