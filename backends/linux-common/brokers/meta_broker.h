/*
 * meta_broker.h — the broker's answer to metadata calls (meta_broker.c).
 */
#ifndef HAS_LINUX_COMMON_META_BROKER_H
#define HAS_LINUX_COMMON_META_BROKER_H

#include <linux/seccomp.h>
#include <stdbool.h>

#include "linux_common.h"

/* Answer `req` if it is a chmod, chown, utimes or xattr call and the rules
 * broker them (rules->path_writable); false if it is none of those.  A
 * call the rules refuse gets a line in the report at report_fd (or -1). */
bool meta_broker_serve(int listener, const struct seccomp_notif *req, const struct connect_rules *rules,
                       int report_fd);

#endif
