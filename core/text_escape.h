/*
 * text_escape.h — the one UTF-8 check and the one escaping of untrusted
 * bytes for output: --explain's text and JSON (explain_escape), the
 * report's lines (event_report.c), the policy text's check (json_text.c).
 */
#ifndef HAS_TEXT_ESCAPE_H
#define HAS_TEXT_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

/* The length (1..4) of the well-formed UTF-8 sequence at s, of at most
 * `left` bytes (RFC 3629: no overlong form, no surrogate, nothing above
 * U+10FFFF), or 0 when there is none. */
size_t utf8_sequence(const unsigned char *s, size_t left);

/* The longest escape of one character: "\\u00XX" or "\\\\xNN". */
#define TEXT_ESCAPE_MAX 8

/*
 * The next character of s[0..left) (left > 0) as output: its bytes in
 * out, their count returned, the input bytes it took in *used (a whole
 * UTF-8 sequence, or one byte).  Text: bytes below 0x20, 0x7f, C1 controls
 * and bytes that are not UTF-8 as \xNN, a backslash as \\.  JSON (inside
 * a string): controls (NUL included) and C1 controls as \u00XX, '"' and a
 * backslash escaped, a byte that is not UTF-8 as the text "\xNN".
 */
size_t text_escape_next(const unsigned char *s, size_t left, bool json, char out[TEXT_ESCAPE_MAX],
                        size_t *used);

#endif
