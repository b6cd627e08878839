/*
 * sbpl_rules.h — what the profile must say, decided from the policy before
 * any SBPL is written: the path sets in their canonical forms and the
 * network mode.  Keeping the decisions (here) apart from the syntax
 * (sbpl_profile.c) lets each be read and tested on its own.
 */
#ifndef HAS_SBPL_RULES_H
#define HAS_SBPL_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "policy.h"
#include "sbpl_canon.h"
#include "sbpl_pathset.h"

/* The controlling terminal's alias. */
#define SBPL_CONTROLLING_TTY "/dev/tty"

/* Set-uid programs the workload may not run (see exec_denied). */
#define SBPL_PRIVILEGE_PROGRAMS        \
    {                                  \
        "/usr/bin/sudo", "/usr/bin/su" \
    }

/* Most proxy front-end ports the profile opens (ctx->proxy_ports's size). */
#define SBPL_MAX_PORTS 4

struct sbpl_input {
    const struct policy *policy;
    const char *cwd;                   /* absolute; the workspace root */
    const unsigned short *proxy_ports; /* the egress front-ends on loopback */
    size_t proxy_port_count;
    /* Terminal devices the workload already holds on descriptors 0-2
     * (ttyname()), which it may keep writing to; may be empty. */
    const char *const *terminals;
    size_t terminal_count;
    sbpl_canon_fn canon;
    void *canon_arg;
};

enum sbpl_net {
    SBPL_NET_NONE,   /* egress false: no network at all */
    SBPL_NET_EGRESS, /* egress true, no proxy: any IP destination + DNS */
    SBPL_NET_PROXY,  /* outgoingProxy: only the front-end ports on loopback */
};

struct sbpl_rules {
    /* Read-denied paths, each as given and (if different) canonical. */
    struct sbpl_pathset read_denied;
    /* Never executed: the read-denied paths, and the programs that would
     * turn the workload into root without a password it must type (macOS
     * has no no_new_privs; a set-uid root process is still confined by the
     * profile but reads what root reads). */
    struct sbpl_pathset exec_denied;
    /* Writable roots, canonical: cwd (workspace_write, auto) + allowedWritePaths. */
    struct sbpl_pathset write_roots;
    /* Write-denied: deniedWritePaths and deniedReadPaths (a path the
     * workload may not read it may not replace either), both forms. */
    struct sbpl_pathset write_denied;
    /* Proper ancestors of a write-denied path that lie in a writable root:
     * renaming one (or creating it as a symlink) would move the denied path
     * out from under its rule, so each is write-denied as a literal. */
    struct sbpl_pathset write_guarded;
    /* Terminal devices, canonical.  Empty: /dev/tty is in read_denied. */
    struct sbpl_pathset terminals;
    enum sbpl_net net;
    /* trustd may be asked: with open egress, or under a proxy only when the
     * policy accepts fetches outside it (allowUnproxiedCertificateFetches). */
    bool certificate_verification;
    bool local_binding;
    unsigned short ports[SBPL_MAX_PORTS];
    size_t port_count;
};

/*
 * Decide the rules.  Returns 0, or -1 with a one-line reason in `err`
 * (a path that cannot be canonicalised or written safely, a proxy without
 * ports, ...).  Not for full_access (the caller installs no profile then).
 */
int sbpl_rules_collect(const struct sbpl_input *in, struct sbpl_rules *rules, char *err, size_t errlen);
void sbpl_rules_free(struct sbpl_rules *rules);

#endif
