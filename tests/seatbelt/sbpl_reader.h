/*
 * sbpl_reader.h — TEST ONLY: a small, strict reader for the SBPL the
 * generator writes, used to prove that hostile paths cannot change a
 * profile's structure, and (with sbpl_eval.h) what a profile allows.
 *
 * It reads lists, symbols/numbers and "..." strings (escapes \\ and \"
 * only — the generator writes no other, so anything else is an error here)
 * and skips ; comments.  It rejects what the generator must never produce:
 * an unbalanced parenthesis, an unterminated string, a control byte inside a
 * string, a #"regex" literal, any other escape, an atom outside a form.
 *
 * Besides the tree it gives the "skeleton" (the profile with every string
 * replaced by S, one top-level form per line) and the decoded strings in
 * order: two profiles have the same structure iff their skeletons are
 * equal, and the strings say exactly which paths they name.
 */
#ifndef HAS_SBPL_READER_H
#define HAS_SBPL_READER_H

#include <stddef.h>

enum sbpl_node_kind { SBPL_NODE_LIST, SBPL_NODE_SYMBOL, SBPL_NODE_STRING };

struct sbpl_node {
    enum sbpl_node_kind kind;
    char *text;               /* symbol or decoded string; NULL for a list */
    struct sbpl_node **items; /* a list's items */
    size_t count;
};

struct sbpl_read {
    struct sbpl_node *top; /* a list holding the top-level forms */
    char *skeleton;
    char **strings; /* borrowed from the tree, in order */
    size_t string_count;
    char error[128]; /* set when sbpl_read() fails */
};

/* 0, or -1 with r->error set.  Free with sbpl_read_free() either way. */
int sbpl_read(const char *text, struct sbpl_read *r);
void sbpl_read_free(struct sbpl_read *r);

#endif
