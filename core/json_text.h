/*
 * json_text.h — byte-level checks on the policy text that cJSON does not do.
 *
 * cJSON accepts any bytes inside strings and decodes "\u0000" into a NUL that
 * silently truncates the C string it returns ("/etc\u0000/x" would become
 * "/etc").  A sandbox policy must never mean less than it says, so the text
 * is checked first: it must be well-formed UTF-8 with no raw NUL byte, and
 * every "\u0000" escape inside a string is rewritten to "\u0001" so that the
 * field keeps its full length and is then refused by the control-character
 * rule with its JSON path named.
 */
#ifndef HAS_JSON_TEXT_H
#define HAS_JSON_TEXT_H

#include <stddef.h>

/*
 * Returns NULL when `text` is acceptable (after rewriting NUL escapes in
 * place), or a static description of the first problem, with its byte offset
 * in *offset.
 */
const char *json_text_check(char *text, size_t len, size_t *offset);

#endif
