/*
 * confine.h — confining the egress process after fork: confine.c (Linux:
 * seccomp, libcap-ng) or confine_portable.c (macOS; the portable test build).
 */
#ifndef HAS_EGRESS_CONFINE_H
#define HAS_EGRESS_CONFINE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * In the freshly forked egress process (confine.c): no core, non-dumpable, die with
 * `parent`, leave root for nobody when running as root, zero capabilities,
 * no_new_privs, then the seccomp filter.  Returns 0, or -1 with a message.
 */
int egress_confine(pid_t parent, char *err, size_t errlen);

#endif
