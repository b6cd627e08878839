/*
 * seatbelt_explain.c — the seatbelt backend under --explain (backend.h).
 *
 * What it says the sandbox will be comes from sbpl_rules_collect(), the
 * decisions the profile is written from.  What it says of a file
 * operation comes from Seatbelt itself: a child process confined by the
 * very profile a launch would install asks sandbox_check() about each
 * path and reports each answer through a pipe; the supervisor stays
 * unconfined.  The network answers are the rules' network mode (the
 * profile's only network-outbound rules).  NOT VERIFIED ON A MAC (README.md,
 * "What is unverified"); on Linux the tests run it against fakes.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/sandbox_spi.h"
#include "policy_paths.h"
#include "sbpl_profile.h"
#include "seatbelt.h"

/* Under a proxy, explain binds no front-end, so the profile is generated
 * with this port in their place: it changes only the network rule, which
 * the child never asks about. */
#define STAND_IN_PORT 1

/* One answer byte per query from the confined child. */
#define ANSWER_ALLOWED '0'
#define ANSWER_DENIED '1'
#define ANSWER_UNKNOWN '?'
#define ANSWER_NOT_ASKED '-'

static bool is_file_query(const struct sandbox_query *q)
{
    return q->kind == SANDBOX_QUERY_READ || q->kind == SANDBOX_QUERY_WRITE;
}

/* The Seatbelt operation a query is: a write to a path that does not
 * exist yet creates it. */
static const char *operation_of(const struct sandbox_query *q)
{
    struct stat st;
    if (q->kind == SANDBOX_QUERY_READ)
        return "file-read-data";
    return lstat(q->path, &st) == 0 ? "file-write-data" : "file-write-create";
}

/* The child: confine itself, ask, answer, exit.  Never returns. */
static void ask_confined(const char *profile, const struct sandbox_explain *out, const char *const *ops,
                         int fd)
{
    char *error = NULL;
    if (sandbox_init(profile, SEATBELT_PROFILE_STRING, &error) != 0)
        _exit(2);
    for (size_t i = 0; i < out->query_count; i++) {
        char a = ANSWER_NOT_ASKED;
        if (ops[i]) {
            int r = sandbox_check(getpid(), ops[i], SEATBELT_FILTER_PATH | SANDBOX_CHECK_NO_REPORT,
                                  out->queries[i].path);
            a = r == 0 ? ANSWER_ALLOWED : r == 1 ? ANSWER_DENIED : ANSWER_UNKNOWN;
        }
        if (write(fd, &a, 1) != 1)
            _exit(3);
    }
    _exit(0);
}

/* answers[i] for every query, from a child confined by `profile`. */
static int ask_seatbelt(const char *profile, const struct sandbox_explain *out, const char *const *ops,
                        char *answers, char *err, size_t errlen)
{
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(err, errlen, "cannot make a pipe for the confined child: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "cannot fork the confined child: %s", strerror(errno));
        close(fds[0]), close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        ask_confined(profile, out, ops, fds[1]);
    }
    close(fds[1]);
    size_t got = 0;
    ssize_t n;
    while (got < out->query_count &&
           ((n = read(fds[0], answers + got, out->query_count - got)) > 0 || (n < 0 && errno == EINTR)))
        got += n > 0 ? (size_t)n : 0;
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (got != out->query_count || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(err, errlen, "the child confined by the profile gave %zu of %zu answers (%s %d)", got,
                 out->query_count, WIFEXITED(status) ? "exit" : "signal",
                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        return -1;
    }
    return 0;
}

/* The entry of `set` that `path` is at or beneath (for the answer's rule
 * text), or NULL. */
static const char *covering(const struct sbpl_pathset *set, const char *path)
{
    for (size_t i = 0; i < set->count; i++)
        if (policy_path_at_or_beneath(path, set->items[i]))
            return set->items[i];
    return NULL;
}

static void file_verdict(struct sandbox_ctx *ctx, struct sandbox_explain *out, size_t i,
                         const struct sbpl_rules *r, const char *op, char answer)
{
    const char *path = out->queries[i].path, *entry;
    char why[PATH_MAX + 64] = "";
    bool writing = out->queries[i].kind == SANDBOX_QUERY_WRITE;
    if (!writing && (entry = covering(&r->read_denied, path)))
        snprintf(why, sizeof why, "; read-denied \"%s\"", entry);
    else if (writing && sbpl_pathset_contains(&r->write_guarded, path))
        snprintf(why, sizeof why, "; a directory on the way to a write-denied path");
    else if (writing && (entry = covering(&r->write_denied, path)))
        snprintf(why, sizeof why, "; write-denied \"%s\"", entry);
    else if (writing && (entry = covering(&r->write_roots, path)))
        snprintf(why, sizeof why, "; writable root \"%s\"", entry);
    else if (writing)
        snprintf(why, sizeof why, "; beneath no writable root");
    if (answer == ANSWER_UNKNOWN)
        sandbox_explain_verdict(ctx, out, i, false,
                                "Seatbelt could not decide %s under the profile (counted as "
                                "refused)%s",
                                op, why);
    else
        sandbox_explain_verdict(ctx, out, i, answer == ANSWER_ALLOWED,
                                "the Seatbelt profile, asked in a child "
                                "confined by it: %s %s%s",
                                op, answer == ANSWER_ALLOWED ? "allowed" : "denied", why);
}

static void network_verdict(struct sandbox_ctx *ctx, struct sandbox_explain *out, size_t i,
                            const struct sbpl_rules *r)
{
    const struct sandbox_query *q = &out->queries[i];
    if (q->kind == SANDBOX_QUERY_UNIX) {
        bool dns = r->net == SBPL_NET_EGRESS && strcmp(q->path, SBPL_DNS_SOCKET) == 0;
        sandbox_explain_verdict(ctx, out, i, dns,
                                dns ? "the profile's one Unix socket: name resolution"
                                    : "the profile allows no Unix socket but mDNSResponder's");
    } else if (r->net == SBPL_NET_NONE)
        sandbox_explain_verdict(ctx, out, i, false, "egress: false: the profile allows no network-outbound");
    else if (r->net == SBPL_NET_EGRESS)
        sandbox_explain_verdict(ctx, out, i, true, "egress: true: the profile allows any IP destination");
    /* Under a proxy: only its loopback front-ends; the proxy decides. */
}

static void describe_set(struct sandbox_ctx *ctx, struct sandbox_explain *out, const char *kind,
                         const struct sbpl_pathset *set, const char *how)
{
    for (size_t i = 0; i < set->count; i++)
        sandbox_explain_add(ctx, out, kind, set->items[i], "%s", how);
}

static void describe(struct sandbox_ctx *ctx, struct sandbox_explain *out, const struct sbpl_rules *r)
{
    sandbox_explain_add(ctx, out, "boundary", "",
                        "a Seatbelt profile installed with sandbox_init before exec: "
                        "(deny default), then what the policy allows; no namespace: the host's processes are "
                        "listed, and signals reach only this sandbox's");
    describe_set(ctx, out, "writable", &r->write_roots, "file-write* beneath it");
    describe_set(ctx, out, "write-denied", &r->write_denied, "no file-write* at or beneath it");
    describe_set(ctx, out, "write-denied", &r->write_guarded,
                 "a directory on the way to a write-denied path: its "
                 "own entry cannot be renamed, replaced or removed");
    describe_set(ctx, out, "read-denied", &r->read_denied,
                 "no file-read* at or beneath it, and nothing there runs");
    sandbox_explain_add(ctx, out, "dev", "/dev",
                        "readable but other sessions' terminals; writable: /dev/null%s",
                        r->terminals.count ? " and the caller's own terminal" : "");
    sandbox_explain_add(
        ctx, out, "network", "", "%s%s",
        r->net == SBPL_NET_NONE ? "none (egress: false)"
        : r->net == SBPL_NET_EGRESS
            ? "outbound to any IP address, and name resolution"
            : "only the outgoing proxy's front-ends on loopback (their ports are chosen at launch)",
        r->local_binding ? "; listening on loopback allowed" : "");
}

static enum sandbox_result full_access(struct sandbox_ctx *ctx, struct sandbox_explain *out)
{
    sandbox_explain_add(ctx, out, "boundary", "", "none: full_access has nothing to enforce");
    for (size_t i = 0; i < out->query_count; i++)
        sandbox_explain_verdict(ctx, out, i, true, "full_access: no sandbox");
    return SANDBOX_OK;
}

/* The file queries, answered by Seatbelt under the launch's profile. */
static enum sandbox_result answer_files(struct sandbox_ctx *ctx, struct sandbox_explain *out,
                                        const struct sbpl_rules *r)
{
    const char **ops = calloc(out->query_count + 1, sizeof *ops);
    char *answers = calloc(out->query_count + 1, 1);
    char *profile = NULL, err[SANDBOX_ERROR_MAX];
    enum sandbox_result rc = SANDBOX_FAIL;
    bool any = false;
    if (!ops || !answers) {
        sandbox_fail(ctx, "out of memory for the explain queries");
        goto done;
    }
    for (size_t i = 0; i < out->query_count; i++)
        if (is_file_query(&out->queries[i]))
            ops[i] = operation_of(&out->queries[i]), any = true;
    if (!any) {
        rc = SANDBOX_OK;
        goto done;
    }
    if (!(profile = sbpl_profile_write(r, err, sizeof err))) {
        sandbox_fail(ctx, "cannot build the Seatbelt profile: %s", err);
        goto done;
    }
    if (ask_seatbelt(profile, out, ops, answers, err, sizeof err) != 0) {
        sandbox_fail(ctx, "explain: %s", err);
        goto done;
    }
    for (size_t i = 0; i < out->query_count; i++)
        if (ops[i])
            file_verdict(ctx, out, i, r, ops[i], answers[i]);
    rc = SANDBOX_OK;
done:
    free(profile);
    free(answers);
    free(ops);
    return rc;
}

enum sandbox_result seatbelt_explain(struct sandbox_ctx *ctx, struct sandbox_explain *out)
{
    if (ctx->policy->mode == POLICY_MODE_FULL_ACCESS)
        return full_access(ctx, out);
    if (sandbox_check(getpid(), NULL, SEATBELT_FILTER_NONE) != 0)
        return sandbox_fail(ctx, SEATBELT_NESTED_MESSAGE);
    struct seatbelt_terminals t;
    struct sbpl_input in;
    seatbelt_input(ctx, &t, &in);
    static const unsigned short stand_in = STAND_IN_PORT;
    if (ctx->policy->network.has_outgoing_proxy && in.proxy_port_count == 0)
        in.proxy_ports = &stand_in, in.proxy_port_count = 1;
    struct sbpl_rules rules;
    char err[SANDBOX_ERROR_MAX];
    if (sbpl_rules_collect(&in, &rules, err, sizeof err) != 0)
        return sandbox_fail(ctx, "cannot build the Seatbelt profile: %s", err);
    describe(ctx, out, &rules);
    for (size_t i = 0; i < out->query_count; i++)
        if (!is_file_query(&out->queries[i]))
            network_verdict(ctx, out, i, &rules);
    enum sandbox_result rc = answer_files(ctx, out, &rules);
    sbpl_rules_free(&rules);
    return rc;
}
