/*
 * sbpl_profile.c — write the rules decided in sbpl_rules.c as SBPL.
 *
 * Two properties hold by construction, whatever the paths are:
 *  - Paths only ever appear as string literals written by
 *    sbpl_append_string(): never in a comment, a symbol or a regex.
 *  - No allow rule matches a denied path (each allow excludes them with
 *    require-not), and the denials are restated as deny rules at the end.
 *    So a denial wins whether SBPL lets the last matching rule win or a
 *    deny win: the two kinds of rule never disagree.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "sbpl_buf.h"
#include "sbpl_escape.h"
#include "sbpl_profile.h"

struct emitter {
    struct sbpl_buf out;
    const struct sbpl_rules *rules;
    bool bad_string; /* a string could not be written (cannot happen: the
                        rules were checked; kept so that it fails closed) */
};

/* Items of a form go one per line: "\n", two spaces per depth, the item.
 * Closing parentheses follow the last item directly. */
static void new_line(struct emitter *e, int depth)
{
    sbpl_buf_append(&e->out, "\n");
    for (int i = 0; i < depth; i++)
        sbpl_buf_append(&e->out, "  ");
}

static void string(struct emitter *e, const char *s)
{
    if (sbpl_append_string(&e->out, s) != 0)
        e->bad_string = true;
}

/* (<filter> "<path>"), e.g. (subpath "/a"), as the next item. */
static void path_filter(struct emitter *e, int depth, const char *filter, const char *path)
{
    new_line(e, depth);
    sbpl_buf_printf(&e->out, "(%s ", filter);
    string(e, path);
    sbpl_buf_append(&e->out, ")");
}

/* (require-not (<filter> "<path>")) as the next item. */
static void exclude(struct emitter *e, int depth, const char *filter, const char *path)
{
    new_line(e, depth);
    sbpl_buf_printf(&e->out, "(require-not (%s ", filter);
    string(e, path);
    sbpl_buf_append(&e->out, "))");
}

/* Exclude each path itself, which need not exist yet, and everything under
 * it; or (literals_only, for the ancestor guards) just the entry itself,
 * not what is created inside it. */
static void exclude_all(struct emitter *e, int depth, const struct sbpl_pathset *set, bool literals_only)
{
    for (size_t i = 0; i < set->count; i++) {
        exclude(e, depth, "literal", set->items[i]);
        if (!literals_only)
            exclude(e, depth, "subpath", set->items[i]);
    }
}

static void header(struct emitter *e)
{
    sbpl_buf_append(&e->out, "(version 1)\n"
                             "; happy-agent-supervisor: Seatbelt profile generated from the policy.\n"
                             "; What no rule below allows is denied.\n"
                             "(deny default)\n");
}

/* (allow OP), or with denials (allow OP (require-all (subpath "/")
 * (require-not ...) ...)). */
static void allow_except(struct emitter *e, const char *op, const struct sbpl_pathset *denied)
{
    sbpl_buf_printf(&e->out, "(allow %s", op);
    if (denied->count > 0) {
        new_line(e, 1);
        sbpl_buf_append(&e->out, "(require-all");
        path_filter(e, 2, "subpath", "/");
        exclude_all(e, 2, denied, false);
        sbpl_buf_append(&e->out, ")");
    }
    sbpl_buf_append(&e->out, ")\n");
}

static void processes(struct emitter *e)
{
    sbpl_buf_append(&e->out, "\n; Processes: fork freely; run any program the workload may read,\n"
                             "; except sudo and su (no no_new_privs on macOS); signal and inspect\n"
                             "; only processes inside this same sandbox.\n"
                             "(allow process-fork)\n");
    allow_except(e, "process-exec", &e->rules->exec_denied);
    sbpl_buf_append(&e->out, "(allow signal (target same-sandbox))\n"
                             "(allow process-info* (target same-sandbox))\n");
}

/* Every session's terminal device (/dev/ttys000 ...): a constant, never a
 * policy path, so no escaping question arises. */
#define SBPL_TERMINALS_REGEX "^/dev/ttys[0-9]+$"

/* The few system services every run needs, whatever the policy. */
static void services(struct emitter *e)
{
    sbpl_buf_append(&e->out,
                    "\n; Read-only kernel facts every runtime asks for (page size, CPUs, OS).\n"
                    "(allow sysctl-read)\n"
                    "; User and group lookups (getpwuid: shells, ls -l, git, ssh).\n"
                    "(allow mach-lookup (global-name \"com.apple.system.opendirectoryd.libinfo\"))\n"
                    "; Named POSIX semaphores (Python multiprocessing locks).\n"
                    "(allow ipc-posix-sem)\n"
                    "; Group membership (getgrouplist: id, groups, tools checking access).\n"
                    "(allow mach-lookup (global-name \"com.apple.system.opendirectoryd.membership\"))\n"
                    "; Where the per-user temporary and cache directories are (confstr's\n"
                    "; _CS_DARWIN_USER_TEMP_DIR, how programs find $TMPDIR): naming them only;\n"
                    "; whether they are writable is the policy's decision, as for /tmp.\n"
                    "(allow mach-lookup (global-name \"com.apple.bsd.dirhelper\"))\n"
                    "; Reading user preferences (CFPreferences: defaults, Foundation-based\n"
                    "; tools); writing them stays denied.\n"
                    "(allow user-preference-read)\n"
                    "; New pseudo-terminals for interactive programs (script, expect,\n"
                    "; node-pty, python's pty): /dev/ptmx, and only the ttys this sandbox\n"
                    "; created (the pty extension Seatbelt issues), never another terminal.\n"
                    "(allow pseudo-tty)\n"
                    "(allow file-read* (literal \"/dev/ptmx\"))\n"
                    "(allow file-write* (literal \"/dev/ptmx\"))\n"
                    "(allow file-ioctl (literal \"/dev/ptmx\"))\n"
                    "(allow file-read* (require-all (regex \"" SBPL_TERMINALS_REGEX
                    "\") (extension \"com.apple.sandbox.pty\")))\n"
                    "(allow file-write* (require-all (regex \"" SBPL_TERMINALS_REGEX
                    "\") (extension \"com.apple.sandbox.pty\")))\n"
                    "(allow file-ioctl (require-all (regex \"" SBPL_TERMINALS_REGEX
                    "\") (extension \"com.apple.sandbox.pty\")))\n");
}

static void reads(struct emitter *e)
{
    const struct sbpl_rules *r = e->rules;
    sbpl_buf_append(&e->out, "\n; Reads: everywhere except the read-denied paths and other sessions'\n"
                             "; terminals (reading one takes the keystrokes typed there: the user's\n"
                             "; other Terminal tabs, their passwords).\n"
                             "(allow file-read*");
    new_line(e, 1);
    sbpl_buf_append(&e->out, "(require-all");
    path_filter(e, 2, "subpath", "/");
    exclude_all(e, 2, &r->read_denied, false);
    new_line(e, 2);
    sbpl_buf_append(&e->out, "(require-not (regex \"" SBPL_TERMINALS_REGEX "\"))))\n");
    if (r->terminals.count > 0) {
        sbpl_buf_append(&e->out,
                        "; The terminal(s) the workload was started on: its own input.\n(allow file-read*");
        for (size_t i = 0; i < r->terminals.count; i++)
            path_filter(e, 1, "literal", r->terminals.items[i]);
        sbpl_buf_append(&e->out, ")\n");
    }
}

static void writes(struct emitter *e)
{
    const struct sbpl_rules *r = e->rules;
    if (r->write_roots.count == 0) {
        sbpl_buf_append(&e->out, "\n; Writes: no writable root.\n");
        return;
    }
    sbpl_buf_append(&e->out, "\n; Writes: under the writable roots only, never a write-denied path\n"
                             "; (existing or not) nor the entry of a directory above one.\n"
                             "(allow file-write*");
    new_line(e, 1);
    sbpl_buf_append(&e->out, "(require-all");
    new_line(e, 2);
    sbpl_buf_append(&e->out, "(require-any");
    for (size_t i = 0; i < r->write_roots.count; i++)
        path_filter(e, 3, "subpath", r->write_roots.items[i]);
    sbpl_buf_append(&e->out, ")");
    exclude_all(e, 2, &r->write_denied, false);
    exclude_all(e, 2, &r->write_guarded, true);
    sbpl_buf_append(&e->out, "))\n");
}

static void devices(struct emitter *e)
{
    const struct sbpl_rules *r = e->rules;
    sbpl_buf_append(&e->out, "\n; Devices: /dev/null, the sink every shell redirects to, and the\n"
                             "; terminal the workload was started on (if any).\n"
                             "(allow file-write-data");
    new_line(e, 1);
    sbpl_buf_append(&e->out, "(require-all");
    new_line(e, 2);
    sbpl_buf_append(&e->out, "(vnode-type CHARACTER-DEVICE)");
    new_line(e, 2);
    sbpl_buf_append(&e->out, "(require-any");
    path_filter(e, 3, "literal", "/dev/null");
    if (r->terminals.count > 0)
        path_filter(e, 3, "literal", SBPL_CONTROLLING_TTY);
    for (size_t i = 0; i < r->terminals.count; i++)
        path_filter(e, 3, "literal", r->terminals.items[i]);
    sbpl_buf_append(&e->out, ")))\n"
                             "; /dev/fd/N re-opens a descriptor the process already holds.\n"
                             "(allow file-write-data (subpath \"/dev/fd\"))\n");
}

/* The trustd lookups (sbpl_rules.h: certificate_verification). */
static void certificate_verification(struct emitter *e)
{
    sbpl_buf_append(&e->out, "; Certificate verification: Security.framework's trust evaluation (Go's\n"
                             "; crypto/x509, anything using SecTrust) asks trustd over Mach; without it\n"
                             "; every chain fails (x509: OSStatus -26276).  The per-user agent and the\n"
                             "; system daemon; no other Security service.\n");
    if (e->rules->net == SBPL_NET_PROXY)
        /* trustd fetches the AIA, OCSP and CRL URLs of the certificate under
         * evaluation itself, so a workload could have any URL fetched past
         * allowedHosts: only when the policy says it accepts that. */
        sbpl_buf_append(&e->out,
                        "; Under the proxy by the policy's allowUnproxiedCertificateFetches: trustd\n"
                        "; fetches the URLs a certificate names itself, not through the proxy.\n");
    sbpl_buf_append(&e->out, "(allow mach-lookup (global-name \"com.apple.trustd.agent\"))\n"
                             "(allow mach-lookup (global-name \"com.apple.trustd\"))\n");
}

static void network(struct emitter *e)
{
    const struct sbpl_rules *r = e->rules;
    switch (r->net) {
    case SBPL_NET_NONE: sbpl_buf_append(&e->out, "\n; Network: none (egress false).\n"); break;
    case SBPL_NET_EGRESS:
        sbpl_buf_append(
            &e->out,
            "\n; Network: outbound to any IP address, and name resolution through\n"
            "; mDNSResponder and the resolver configuration.  No other local socket.\n"
            "(allow network-outbound (remote ip \"*:*\"))\n"
            "(allow network-outbound (literal \"" SBPL_DNS_SOCKET "\"))\n"
            "(allow mach-lookup (global-name \"com.apple.SystemConfiguration.DNSConfiguration\"))\n");
        break;
    case SBPL_NET_PROXY:
        sbpl_buf_append(&e->out, "\n; Network: only the outgoing proxy's front-ends on loopback; the\n"
                                 "; proxy resolves names, so no DNS service either.\n"
                                 "(allow network-outbound");
        for (size_t i = 0; i < r->port_count; i++) {
            new_line(e, 1);
            sbpl_buf_printf(&e->out, "(remote ip \"localhost:%u\")", (unsigned)r->ports[i]);
        }
        sbpl_buf_append(&e->out, ")\n");
        break;
    }
    if (r->certificate_verification)
        certificate_verification(e);
    if (r->local_binding)
        sbpl_buf_append(&e->out, "; Local binding: listen and accept on loopback only.\n"
                                 "(allow network-bind (local ip \"localhost:*\"))\n"
                                 "(allow network-inbound (local ip \"localhost:*\"))\n");
}

/* (deny OP (literal P) (subpath P) ... [(literal G) ...]), if any path. */
static void deny_paths(struct emitter *e, const char *op, const struct sbpl_pathset *paths,
                       const struct sbpl_pathset *literals)
{
    if (paths->count + (literals ? literals->count : 0) == 0)
        return;
    sbpl_buf_printf(&e->out, "(deny %s", op);
    for (size_t i = 0; i < paths->count; i++) {
        path_filter(e, 1, "literal", paths->items[i]);
        path_filter(e, 1, "subpath", paths->items[i]);
    }
    for (size_t i = 0; literals && i < literals->count; i++)
        path_filter(e, 1, "literal", literals->items[i]);
    sbpl_buf_append(&e->out, ")\n");
}

static void denials(struct emitter *e)
{
    const struct sbpl_rules *r = e->rules;
    sbpl_buf_append(&e->out, "\n; Denials, restated last: no allow above matches them either.\n");
    deny_paths(e, "process-exec", &r->exec_denied, NULL);
    deny_paths(e, "file-read*", &r->read_denied, NULL);
    deny_paths(e, "file-write*", &r->write_denied, &r->write_guarded);
}

char *sbpl_profile_write(const struct sbpl_rules *rules, char *err, size_t errlen)
{
    struct emitter e = {.rules = rules};
    sbpl_buf_init(&e.out);
    header(&e);
    processes(&e);
    services(&e);
    reads(&e);
    writes(&e);
    devices(&e);
    network(&e);
    denials(&e);
    if (e.bad_string) {
        sbpl_buf_free(&e.out);
        snprintf(err, errlen, "a path cannot be written into the Seatbelt profile");
        return NULL;
    }
    char *text = sbpl_buf_take(&e.out);
    if (!text)
        snprintf(err, errlen, "out of memory writing the Seatbelt profile");
    return text;
}

enum sbpl_status sbpl_profile_build(const struct sbpl_input *in, char **profile, char *err, size_t errlen)
{
    *profile = NULL;
    if (in->policy->mode == POLICY_MODE_FULL_ACCESS)
        return SBPL_NONE;
    struct sbpl_rules rules;
    if (sbpl_rules_collect(in, &rules, err, errlen) != 0)
        return SBPL_ERROR;
    *profile = sbpl_profile_write(&rules, err, errlen);
    sbpl_rules_free(&rules);
    return *profile ? SBPL_OK : SBPL_ERROR;
}
