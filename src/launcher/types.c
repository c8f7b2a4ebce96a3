/*
 * types.c - `drover types`: check and show YAML datatype declarations
 * (docs/datatypes.md).
 *
 *   drover types check [--lenient] FILE...   every error, exit 1 if any
 *   drover types show [--lenient] [--json|--yaml] FILE [NAME]
 *
 * Both only read: nothing is declared in this process or anywhere else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "drover.h"
#include "pmix.h"

static void usage(void)
{
    fprintf(stderr, "usage: drover types check [--lenient] FILE...\n"
                    "       drover types show [--lenient] [--json|--yaml] FILE [NAME]\n");
}

/* Options before the operands; returns the index of the first operand, or
 * -1 after an unknown option. allow_json: show's --json and --yaml. */
static int options(int argc, char **argv, unsigned *flags, bool allow_json)
{
    int i = 2;
    for (; i < argc && '-' == argv[i][0]; i++) {
        if (0 == strcmp(argv[i], "--lenient")) {
            *flags |= DROVER_TYPES_LENIENT;
        } else if (allow_json && 0 == strcmp(argv[i], "--json")) {
            *flags |= DROVER_TYPES_JSON;
        } else if (allow_json && 0 == strcmp(argv[i], "--yaml")) {
            *flags |= DROVER_TYPES_YAML;
        } else {
            fprintf(stderr, "drover types: unknown option '%s'\n", argv[i]);
            return -1;
        }
    }
    return i;
}

static int check(int argc, char **argv)
{
    unsigned flags = DROVER_TYPES_CHECK_ONLY;
    int first = options(argc, argv, &flags, false);
    if (first < 0 || first == argc) {
        usage();
        return 2;
    }
    int status = 0;
    for (int i = first; i < argc; i++) {
        char *errors = NULL;
        pmix_status_t rc = drover_types_load_file(argv[i], flags, &errors);
        if (NULL != errors) {
            fputs(errors, stderr);
            free(errors);
        }
        if (PMIX_SUCCESS != rc) {
            status = 1;
        }
    }
    return status;
}

static int show(int argc, char **argv)
{
    unsigned flags = 0;
    int first = options(argc, argv, &flags, true);
    if (first < 0 || first == argc || argc - first > 2) {
        usage();
        return 2;
    }
    const char *name = argc - first == 2 ? argv[first + 1] : NULL;
    char *text = NULL, *errors = NULL;
    pmix_status_t rc = drover_types_describe(argv[first], name, flags, &text, &errors);
    if (NULL != errors) {
        fputs(errors, stderr);
        free(errors);
    }
    if (PMIX_ERR_NOT_FOUND == rc && NULL != name) {
        fprintf(stderr, "drover types: %s declares no type '%s'\n", argv[first], name);
    }
    if (PMIX_SUCCESS != rc) {
        return 1;
    }
    fputs(text, stdout);
    free(text);
    return 0;
}

static int run(int argc, char **argv)
{
    if (argc >= 2 && 0 == strcmp(argv[1], "check")) {
        return check(argc, argv);
    }
    if (argc >= 2 && 0 == strcmp(argv[1], "show")) {
        return show(argc, argv);
    }
    usage();
    return 2;
}

const drover_command_t command_types = {
    .name = "types",
    .usage = "check|show FILE...",
    .summary = "check YAML datatype declarations, or show their layout",
    .run = run,
};
