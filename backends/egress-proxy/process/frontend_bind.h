/*
 * frontend_bind.h — the host-loopback variant (egress_loopback.c), used
 * when the boundary offers loopback port grants: landlock on Linux, seatbelt
 * on macOS, and the portable test build.  The egress process binds its own
 * front-ends there (with linux-ns they come from the sandbox's netns).
 */
#ifndef HAS_EGRESS_FRONTEND_BIND_H
#define HAS_EGRESS_FRONTEND_BIND_H

#include <stddef.h>

#include "process/conn.h"
#include "process/egress_process.h"

/*
 * One non-blocking listener on 127.0.0.1 per configured front-end, each on a
 * port the kernel chooses (port 0), so concurrent runs never collide and no
 * other program's port is taken.  Fills out[] (up to 2)
 * and ports[] (http, socks5; 0 when not configured).  Returns the number of
 * listeners, or 0 with a message in err.
 */
size_t frontend_bind(unsigned front_ends, struct listener *out, unsigned short ports[2], char *err,
                     size_t errlen);

#endif
