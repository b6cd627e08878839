/*
 * text_escape.c — see text_escape.h.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "text_escape.h"

size_t utf8_sequence(const unsigned char *s, size_t left)
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

size_t text_escape_next(const unsigned char *s, size_t left, bool json, char out[TEXT_ESCAPE_MAX],
                        size_t *used)
{
    size_t n = utf8_sequence(s, left);
    bool c1 = n == 2 && s[0] == 0xc2 && s[1] < 0xa0;
    *used = n ? n : 1;
    if (n == 0)
        return (size_t)snprintf(out, TEXT_ESCAPE_MAX, json ? "\\\\x%02x" : "\\x%02x", s[0]);
    if (s[0] < 0x20 || s[0] == 0x7f || (c1 && !json)) {
        *used = 1; /* text: a C1 control is \xc2, then its second byte, not UTF-8 alone */
        return (size_t)snprintf(out, TEXT_ESCAPE_MAX, json ? "\\u%04x" : "\\x%02x", s[0]);
    }
    if (c1)
        return (size_t)snprintf(out, TEXT_ESCAPE_MAX, "\\u%04x", s[1]);
    if (s[0] == '\\' || (json && s[0] == '"')) {
        out[0] = '\\';
        out[1] = (char)s[0];
        return 2;
    }
    memcpy(out, s, n);
    return n;
}
