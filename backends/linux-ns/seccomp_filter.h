/* seccomp_filter.h — the workload's syscall filter, shared by the backend
 * and the developer tool that prints it (seccomp_dump.c). */
#ifndef HAS_LINUX_NS_SECCOMP_FILTER_H
#define HAS_LINUX_NS_SECCOMP_FILTER_H

#include <seccomp.h>
#include <stddef.h>

#include "policy.h"

/* Build (not load) the filter for `policy`.  NULL with err set on failure. */
scmp_filter_ctx seccomp_filter_build(const struct policy *policy, char *err, size_t errlen);

#endif
