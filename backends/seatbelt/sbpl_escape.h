/*
 * sbpl_escape.h — the only way a path enters an SBPL profile: as one quoted
 * string literal.
 *
 * SBPL is a Scheme dialect.  Inside "..." the reader treats a backslash as an
 * escape and a double quote as the end of the string; every other printable
 * byte stands for itself, so `(`, `)`, `;`, `#`, regex metacharacters and
 * spaces need no escaping and cannot end the literal.  We therefore write
 * `\` as `\\` and `"` as `\"`, pass bytes >= 0x80 (UTF-8) through, and
 * REFUSE control bytes (0x01-0x1f, 0x7f): their escapes (`\n`, `\t`, `\x..`)
 * are reader-specific, and a misread would silently name a different path —
 * for a denied path, a hole.  Refusing fails closed.  Paths are never
 * placed in a regex literal (#"...").
 */
#ifndef HAS_SBPL_ESCAPE_H
#define HAS_SBPL_ESCAPE_H

#include "sbpl_buf.h"

/* NULL when `s` can be written as an SBPL string literal, else why not. */
const char *sbpl_string_problem(const char *s);

/* Append `s` as a quoted SBPL string literal ("..." with \\ and \").
 * Returns 0, or -1 (nothing appended) when sbpl_string_problem(s) != NULL. */
int sbpl_append_string(struct sbpl_buf *b, const char *s);

#endif
