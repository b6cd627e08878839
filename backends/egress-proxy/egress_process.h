/*
 * egress_process.h — the egress process: forked by the supervisor before the
 * sandbox exists, so it stays in the host's network namespace.  Linux only.
 */
#ifndef HAS_EGRESS_PROCESS_H
#define HAS_EGRESS_PROCESS_H

#include <stddef.h>
#include <sys/types.h>

#include "destination.h"
#include "proxy_auth.h"

/* Messages on the socketpair (SOCK_SEQPACKET: one message per send). */
#define EGRESS_MSG_READY 'R'      /* egress -> supervisor / sandbox: all set */
#define EGRESS_MSG_ERROR 'E'      /* followed by one line of text */
#define EGRESS_MSG_LISTENERS 'L'  /* sandbox -> egress: kinds[], fds in SCM_RIGHTS */
#define EGRESS_MAX_LISTENERS 2

struct egress_config {
    struct host_policy policy;
    struct proxy_creds creds;
};

/* Never returns.  `control` is the egress end of the socketpair, `parent`
 * the supervisor. */
__attribute__((noreturn)) void egress_process_main(const struct egress_config *cfg, int control,
                                                   pid_t parent);

#endif
