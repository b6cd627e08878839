/*
 * egress_process.h — the egress process: forked by the supervisor before the
 * sandbox exists (Linux: so it stays in the host's network namespace; macOS:
 * so it stays outside the Seatbelt profile).
 */
#ifndef HAS_EGRESS_PROCESS_H
#define HAS_EGRESS_PROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "backend.h"
#include "policy/destination.h"
#include "policy/proxy_auth.h"
#include "policy/upstream_proxy.h"
#include "policy/synth_table.h"

/* Messages on the socketpair (SOCK_SEQPACKET: one message per send). */
#define EGRESS_MSG_READY 'R' /* egress -> supervisor / sandbox: all set */
#define EGRESS_MSG_ERROR 'E' /* followed by one line of text */
/* sandbox -> egress: kinds[], their descriptors in SCM_RIGHTS, at most
 * EGRESS_BATCH of them per message; 'L' says more batches follow, 'Z' is
 * the last one (then the egress process answers "ready"). */
#define EGRESS_MSG_LISTENERS 'L'
#define EGRESS_MSG_LISTENERS_END 'Z'
#define EGRESS_KIND_HTTP 'H'        /* a kinds[] entry: the listener is the http front-end */
#define EGRESS_KIND_SOCKS5 'S'      /* ... the socks5 front-end */
#define EGRESS_KIND_DNS 'D'         /* ... the transparent front-end's resolver (UDP, 127.0.0.53:53) */
#define EGRESS_KIND_TRANSPARENT 'T' /* ... a relay listener on a synthetic address (synth_table.h) */
#define EGRESS_DNS_ADDR 0x7f000035u /* 127.0.0.53, where the transparent front-end's resolver listens */
#define EGRESS_BATCH 64             /* SCM_RIGHTS carries up to 253 (SCM_MAX_FD) */
/* http, socks5, the resolver, and one relay listener per slot x port. */
#define EGRESS_MAX_LISTENERS (3 + SYNTH_MAX_LISTENERS)
/* How long the supervisor waits for each answer of the egress process. */
#define EGRESS_START_TIMEOUT_MS 10000
/*
 * Host loopback (bind_loopback): the socketpair is a stream (macOS has no
 * SOCK_SEQPACKET for AF_UNIX), and the egress process writes exactly one
 * line: "P<http port> <socks5 port>\n" (0: that front-end is not
 * configured) or "E<reason>\n".  Nothing else ever crosses it; its end of
 * stream tells the egress process that the supervisor is gone.
 */
#define EGRESS_MSG_PORTS 'P'
#define EGRESS_LINE_MAX (SANDBOX_ERROR_MAX + 3) /* letter, reason, newline, NUL */

struct egress_config {
    struct host_policy policy;
    struct proxy_creds creds;
    struct upstream_proxy upstream; /* .set false: every destination directly */
    unsigned front_ends;            /* POLICY_FRONT_END_* */
    bool bind_loopback;             /* bind them on the host's loopback (else handed over) */
    int report_fd;                  /* the caller's --refusal-report descriptor, or -1 */
};

/* Never returns.  `control` is the egress end of the socketpair, `parent`
 * the supervisor. */
__attribute__((noreturn)) void egress_process_main(const struct egress_config *cfg, int control,
                                                   pid_t parent);

#endif
