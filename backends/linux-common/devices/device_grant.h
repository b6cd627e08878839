/*
 * device_grant.h — whether a host device named by the policy's `devices`
 * may be granted (device_grant.c), and its number.
 *
 * A granted device is opened by the workload with the driver's own access
 * control only; so a device whose driver has none worth the name -- one
 * that reaches host memory, a disk beneath every file rule, another
 * session's terminal, the kernel's own controls -- is refused (125), by
 * the list in device_grant.c.
 */
#ifndef HAS_DEVICE_GRANT_H
#define HAS_DEVICE_GRANT_H

#include <stddef.h>
#include <sys/stat.h>

#include "backend.h"

/* `path` (beneath /dev, no symbolic link followed) names a character
 * device that may be granted: 0 with its stat in *st, or -1 with `err`
 * naming the path and why not. */
int device_grant_check(const char *path, struct stat *st, char *err, size_t errlen);

/* The same judgement of a node already opened (its stat): 0 or -1 with err. */
int device_grant_judge(const char *path, const struct stat *st, char *err, size_t errlen);

/* --explain: an item per granted device, saying `how` it is granted; the
 * launch's refusal for one that may not be. */
enum sandbox_result device_grants_explain(struct sandbox_ctx *ctx, struct sandbox_explain *out,
                                          const char *how);

#endif
