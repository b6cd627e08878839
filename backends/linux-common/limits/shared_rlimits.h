/*
 * shared_rlimits.h — the caller keeps half of the per-user resources the
 * kernel charges to the caller's uid for the sandbox too (shared_rlimits.c;
 * the backends' READMEs, "What the sandbox shares with its caller").
 */
#ifndef HAS_SHARED_RLIMITS_H
#define HAS_SHARED_RLIMITS_H

#include <stdbool.h>
#include <stddef.h>

#include "backend.h"

/*
 * In the supervisor, before the split (both backends): lower its own
 * RLIMIT_SIGPENDING, RLIMIT_MSGQUEUE and RLIMIT_MEMLOCK to half of their
 * soft values, soft = hard, for everything it forks (and, linux-ns, the
 * ceiling of the user namespace it makes).  0, or -1 with err.
 */
int shared_rlimits_apply(char *err, size_t errlen);

/* --explain: one "shared" item per resource (own_userns: linux-ns, whose
 * /proc/sys/user counters its own userns_limits.c lists). */
void shared_rlimits_explain(struct sandbox_ctx *ctx, struct sandbox_explain *out, bool own_userns);

#endif
