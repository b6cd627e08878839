/*
 * sbpl_eval.h — TEST ONLY: decide one request against a profile read by
 * sbpl_reader, so the tests can state what a generated profile allows
 * rather than only how it looks.
 *
 * It understands exactly the forms the generator writes and fails a test
 * (returns SBPL_EVAL_UNKNOWN) on anything else, so a new kind of rule cannot
 * slip past it.  How Seatbelt combines matching rules is modelled two ways,
 * and the tests require the same verdict from both:
 *   SBPL_LAST_MATCH_WINS     the last matching rule decides ((deny default)
 *                            is an ordinary first rule);
 *   SBPL_DENY_OVERRIDES      any matching deny decides, then any allow;
 *                            (deny default) only when nothing matched.
 * This is a model of Seatbelt, not Seatbelt: it proves the profile says what
 * we mean under either reading, not that macOS reads it so (README.md).
 */
#ifndef HAS_SBPL_EVAL_H
#define HAS_SBPL_EVAL_H

#include <stdbool.h>

#include "sbpl_reader.h"

enum sbpl_precedence {
    SBPL_LAST_MATCH_WINS,
    SBPL_DENY_OVERRIDES,
    /* Not a model of Seatbelt but a probe: ALLOW iff some allow rule other
     * than a default one matches.  A DENY here means the denial does not
     * rest on how rules combine at all. */
    SBPL_ALLOWS_ONLY,
};
enum sbpl_verdict { SBPL_EVAL_DENY, SBPL_EVAL_ALLOW, SBPL_EVAL_UNKNOWN };

struct sbpl_request {
    const char *operation;   /* e.g. "file-write-create", "network-outbound" */
    const char *path;        /* file operations, or a unix socket's path */
    bool char_device;        /* the vnode is a character device */
    bool same_sandbox;       /* signal / process-info target */
    const char *global_name; /* mach-lookup */
    const char *remote_host; /* network-outbound to IP: "localhost" or an address */
    const char *local_host;  /* network-bind / network-inbound: "localhost" or an address */
    unsigned port;
};

enum sbpl_verdict sbpl_eval(const struct sbpl_read *profile, const struct sbpl_request *req,
                            enum sbpl_precedence precedence);

#endif
