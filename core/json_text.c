#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "json_text.h"

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0 if there is none. */
static size_t utf8_sequence(const unsigned char *s, size_t left)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t n;
    uint32_t cp, min;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        cp = c & 0x1F;
        min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3;
        cp = c & 0x0F;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        cp = c & 0x07;
        min = 0x10000;
    } else
        return 0;
    if (left < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

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
