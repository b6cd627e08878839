/*
 * explain_query.h — the operations --explain is asked about (--read,
 * --write, --connect-to, --unix-socket), parsed and put in normal form.
 * Pure: nothing here reads the filesystem (fuzzed:
 * tests/core/fuzz_explain_query.c).
 */
#ifndef HAS_EXPLAIN_QUERY_H
#define HAS_EXPLAIN_QUERY_H

#include <stddef.h>
#include <stdio.h>

#include "backend.h"

/*
 * `arg` for an operation of `kind`, relative paths taken from `cwd`
 * (absolute).  A path becomes absolute in policy.h's normal form (no "",
 * "." component, no trailing slash) in buf[size]; ".." is refused (what it
 * means depends on symbolic links).  A destination is HOST:PORT as an
 * allowedHosts entry spells one, with a port and no "*.".  Fills `out`
 * (pointing into `arg` and `buf`) and returns NULL, or returns why not.
 */
const char *explain_query_parse(enum sandbox_query_kind kind, const char *arg, const char *cwd,
                                struct sandbox_query *out, char *buf, size_t size);

/* The option that asks about `kind` ("--read", ...), and the word for it
 * in the output ("read", "write", "connect", "unix-socket"). */
const char *explain_query_option(enum sandbox_query_kind kind);
const char *explain_query_word(enum sandbox_query_kind kind);

/*
 * Write `s` to `f` so that no control byte reaches it raw: in text, bytes
 * below 0x20, 0x7f, a backslash, C1 controls and bytes that are not UTF-8
 * as \xNN (\\ for a backslash); in JSON (`json`), as a quoted string with
 * the JSON escapes, a byte that is not UTF-8 as the text "\xNN" (README
 * "Explain mode").
 */
void explain_escape(FILE *f, const char *s, int json);

#endif
