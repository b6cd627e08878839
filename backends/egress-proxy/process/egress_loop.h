/*
 * egress_loop.h — the egress process's single-threaded event loop.
 */
#ifndef HAS_EGRESS_LOOP_H
#define HAS_EGRESS_LOOP_H

#include <stddef.h>

#include "process/conn.h"

/*
 * Serve the listeners until the control socket reports that the
 * supervisor side has gone.  `loop` has its policy and credentials set.
 * Returns only on a fatal error, with a message in err.
 */
int egress_loop_run(struct egress_loop *loop, struct listener *listeners, size_t count, int control_fd,
                    char *err, size_t errlen);

#endif
