/*
 * json.c - JSON text the drover command writes (`drover ps --json`, trace
 *          files): strings escaped as the format wants.
 */
#include <stdio.h>

#include "launcher.h"

void json_escape(FILE *out, const char *s)
{
    for (; '\0' != *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ('"' == c || '\\' == c) {
            fprintf(out, "\\%c", c);
        } else if (c < 0x20) {
            fprintf(out, "\\u%04x", c);
        } else {
            fputc(c, out);
        }
    }
}
