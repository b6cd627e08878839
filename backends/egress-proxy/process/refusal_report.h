/*
 * refusal_report.h — the egress process's lines in the caller's report
 * (--refusal-report N): one per destination the proxy refuses, and one per
 * allowed destination it could not reach, for the caller (an agent
 * framework) to tell a policy refusal from a network fault.  Format: the
 * README's "Refusal report"; the framing and the writer that never blocks
 * are the core's (event_report.h).
 */
#ifndef HAS_EGRESS_REFUSAL_REPORT_H
#define HAS_EGRESS_REFUSAL_REPORT_H

#include <stddef.h>

#include "event_report.h"

#define REFUSAL_EVENT "egress-refused"
#define REFUSAL_LINE_MAX REPORT_LINE_MAX

struct refusal_event {
    const char *time;      /* refusal_report_format only: RFC 3339 UTC */
    const char *front_end; /* "http", "socks5" */
    const char *host;      /* as the client named it, normalised */
    unsigned port;
    const char *address;   /* the resolved address that was refused, or NULL */
    const char *rule;      /* "allowedHosts", "address-class", "numeric-host-spelling" */
    const char *reason;    /* the sentence the client was given */
    unsigned long dropped; /* refusal_report_format only */
};

/* The line, with its "\n", into out; its length, or 0 if it does not fit
 * in cap (the reason is shortened first). */
size_t refusal_report_format(char *out, size_t cap, const struct refusal_event *e);

/* Write one line to fd (report_write: stamped, never waiting). */
void refusal_report_write(int fd, const struct refusal_event *e);

/* A destination the policy allows that the proxy could not reach, for a
 * cause that is not the sandbox's rule: one "egress-failed" line. */
#define FAILURE_EVENT "egress-failed"
#define FAILURE_NAME_RESOLUTION "name-resolution"
#define FAILURE_UPSTREAM_REFUSED "upstream-refused" /* the upstream proxy answered CONNECT with a refusal */
#define FAILURE_UPSTREAM_FAILED "upstream-failed"   /* ... was not reached, or did not answer as a proxy */

struct failure_event {
    const char *front_end;
    const char *host;
    unsigned port;
    const char *cause;    /* FAILURE_* */
    const char *reason;   /* the sentence the client was given */
    const char *upstream; /* the upstream proxy's http://host:port, or NULL */
    int status;           /* the upstream proxy's answer (FAILURE_UPSTREAM_REFUSED), else 0 */
};

void failure_report_write(int fd, const struct failure_event *e);

#endif
