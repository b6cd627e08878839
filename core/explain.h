/*
 * explain.h — --explain (README.md, "Explain mode"): ask every backend of
 * the set what it would build here and how it would judge the caller's
 * operations (backend.h, explain()), then print it as text, JSON or the
 * agent's brief.  Runs nothing.
 */
#ifndef HAS_EXPLAIN_H
#define HAS_EXPLAIN_H

#include <stddef.h>

#include "backend_set.h"
#include "cli.h"
#include "policy.h"

/* Explain `policy` under `backends` for `opts` (its queries and format) to
 * stdout.  Returns the exit status: 0 when a launch would go on, else 125
 * after the launch's own message on stderr. */
int explain_main(const struct policy *policy, const struct backend_set *backends,
                 const struct cli_options *opts, char **env, size_t env_count);

#endif
