/*
 * explain_collect.h — what the backends' explain() hooks said, as the core
 * keeps it (out->core in struct sandbox_explain).  Filled by
 * sandbox_explain_add() and sandbox_explain_verdict() (sandbox_ctx.c),
 * printed by explain.c.
 */
#ifndef HAS_EXPLAIN_COLLECT_H
#define HAS_EXPLAIN_COLLECT_H

#include <stdbool.h>
#include <stddef.h>

#include "backend.h"

#define EXPLAIN_TEXT_MAX 512 /* one `how` or `rule` */

struct explain_item {
    const char *backend;
    char *kind, *subject, *how;
};

struct explain_answer {
    enum sandbox_verdict verdict;
    const char *backend; /* the one whose rule decides */
    char *rule;
};

struct explain_collect {
    const char *const *names; /* the backends' names, by position in the walk */
    struct explain_item *items;
    size_t count, cap;
    struct explain_answer *answers; /* one per query */
    bool out_of_memory;
};

#endif
