/*
 * sbpl_escape.c — SBPL string literals (the argument is in sbpl_escape.h).
 */
#include "config.h"

#include <string.h>

#include "sbpl_escape.h"

const char *sbpl_string_problem(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return "contains a control character, which cannot be written "
                   "unambiguously in a Seatbelt profile";
    return NULL;
}

int sbpl_append_string(struct sbpl_buf *b, const char *s)
{
    if (sbpl_string_problem(s))
        return -1;
    sbpl_buf_append(b, "\"");
    for (const char *p = s; *p;) {
        size_t plain = strcspn(p, "\\\"");
        sbpl_buf_append_n(b, p, plain);
        p += plain;
        if (*p) {
            char esc[2] = {'\\', *p};
            sbpl_buf_append_n(b, esc, 2);
            p++;
        }
    }
    sbpl_buf_append(b, "\"");
    return 0;
}
