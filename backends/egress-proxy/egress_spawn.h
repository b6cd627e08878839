/*
 * egress_spawn.h — forking the egress process (egress_process.h) from the
 * supervisor, for the variants that have one (egress_platform.h).
 */
#ifndef HAS_EGRESS_SPAWN_H
#define HAS_EGRESS_SPAWN_H

#include <stdbool.h>

#include "backend.h"
#include "egress_platform.h"

/* Fork the egress process for front-ends `fe` on the socketpair sp: sp[1]
 * goes to it, sp[0] stays here; both are closed on failure.
 * bind_loopback: it binds them itself on the host's loopback and reports
 * the ports (egress_loopback.c); else they are handed to it (egress_netns.c). */
enum sandbox_result egress_spawn(struct sandbox_ctx *ctx, const struct egress_secrets *secrets, unsigned fe,
                                 bool bind_loopback, int sp[2]);

#endif
