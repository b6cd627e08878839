/*
 * sbpl_buf.h — a growable text buffer for building one SBPL profile.
 *
 * Appends never fail loudly: an allocation failure sets `failed`, later
 * appends do nothing, and the caller checks once at the end.  That keeps the
 * profile generator a straight list of rules instead of a ladder of error
 * checks, without ever returning a truncated profile as if it were whole.
 */
#ifndef HAS_SBPL_BUF_H
#define HAS_SBPL_BUF_H

#include <stdbool.h>
#include <stddef.h>

struct sbpl_buf {
    char *text; /* NUL-terminated once anything was appended */
    size_t len;
    size_t cap;
    bool failed; /* an allocation failed: the content is incomplete */
};

void sbpl_buf_init(struct sbpl_buf *b);
void sbpl_buf_free(struct sbpl_buf *b);

void sbpl_buf_append(struct sbpl_buf *b, const char *s);
void sbpl_buf_append_n(struct sbpl_buf *b, const char *s, size_t n);
void sbpl_buf_printf(struct sbpl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Hand the text over to the caller (malloc'd, never NULL unless failed);
 * the buffer is left empty.  Returns NULL if any append failed. */
char *sbpl_buf_take(struct sbpl_buf *b);

#endif
