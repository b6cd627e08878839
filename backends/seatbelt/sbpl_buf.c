/*
 * sbpl_buf.c — growable text buffer (see sbpl_buf.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbpl_buf.h"

void sbpl_buf_init(struct sbpl_buf *b)
{
    memset(b, 0, sizeof *b);
}

void sbpl_buf_free(struct sbpl_buf *b)
{
    free(b->text);
    sbpl_buf_init(b);
}

/* Make room for `extra` more bytes plus the terminating NUL. */
static bool reserve(struct sbpl_buf *b, size_t extra)
{
    if (b->failed)
        return false;
    if (extra > (size_t)-1 / 2 - b->len) {
        b->failed = true;
        return false;
    }
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < need)
        cap *= 2;
    char *grown = realloc(b->text, cap);
    if (!grown) {
        b->failed = true;
        return false;
    }
    b->text = grown;
    b->cap = cap;
    return true;
}

void sbpl_buf_append_n(struct sbpl_buf *b, const char *s, size_t n)
{
    if (!reserve(b, n))
        return;
    memcpy(b->text + b->len, s, n);
    b->len += n;
    b->text[b->len] = '\0';
}

void sbpl_buf_append(struct sbpl_buf *b, const char *s)
{
    sbpl_buf_append_n(b, s, strlen(s));
}

void sbpl_buf_printf(struct sbpl_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = true;
        return;
    }
    if (!reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->text + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

char *sbpl_buf_take(struct sbpl_buf *b)
{
    if (b->failed) {
        sbpl_buf_free(b);
        return NULL;
    }
    if (!reserve(b, 0)) {
        sbpl_buf_free(b);
        return NULL;
    }
    char *text = b->text;
    text[b->len] = '\0';
    sbpl_buf_init(b);
    return text;
}
