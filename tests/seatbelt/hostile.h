/*
 * hostile.h — TEST ONLY: path components chosen to break an SBPL profile
 * if escaping were wrong: quotes, backslashes, parentheses, comment and
 * regex characters, and text that would read as rules if it escaped its
 * string literal.  None contains '/' or a control byte (those are covered
 * separately), so each keeps a path's depth and is writable.
 */
#ifndef HAS_SEATBELT_HOSTILE_H
#define HAS_SEATBELT_HOSTILE_H

#include <stddef.h>

static const char *const hostile_components[] = {
    "quote\"inside",
    "back\\slash",
    "trailing-backslash\\",
    "\\\"",
    "close)paren",
    "open(paren",
    "\")(allow default)(deny file-read* (literal \"",
    "\\\")(allow default)",
    "re.*[a-z]+$^|?{1,2}",
    "semi;colon ; (allow network*)",
    "#\"regex\"",
    "space and\u00a0nbsp and caf\u00e9 \xf0\x9f\x94\x92",
};
#define HOSTILE_COUNT (sizeof hostile_components / sizeof hostile_components[0])

#endif
