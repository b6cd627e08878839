#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "json_text.h"
#include "text_escape.h"

const char *json_text_check(char *text, size_t len, size_t *offset)
{
    const unsigned char *s = (const unsigned char *)text;
    bool in_string = false;
    for (size_t i = 0; i < len;) {
        *offset = i;
        if (s[i] == 0)
            return "contains a NUL byte";
        size_t n = utf8_sequence(s + i, len - i);
        if (n == 0)
            return "is not valid UTF-8";
        if (n == 1 && s[i] == '"') {
            in_string = !in_string;
        } else if (n == 1 && in_string && s[i] == '\\' && i + 1 < len && s[i + 1] >= 0x20 &&
                   s[i + 1] < 0x7F) {
            /* An escape: skip the escaped character so "\\\"" is handled,
             * and defuse "\u0000" (see header). */
            if (s[i + 1] == 'u' && i + 5 < len && memcmp(text + i + 2, "0000", 4) == 0)
                text[i + 5] = '1';
            i += 2;
            continue;
        }
        i += n;
    }
    return NULL;
}
