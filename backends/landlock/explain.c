/*
 * explain.c — the landlock backend under --explain (backend.h): prepare()'s
 * checks, the lists its ruleset is made of (fs_lists_build), the walks that
 * make it run without a ruleset (fs_ruleset_plan: its refusals, and which
 * directories on the way to a denial the broker pins), each path's fate
 * under those rules (fs_ruleset_decide), a socket's under the broker's
 * rules (socket_rules_init).  No ruleset, pool or descriptor is made.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "landlock.h"
#include "limits/sandbox_limits.h"

/* The broker's own check on the socket at `path`, as connect_broker.c runs
 * it on the inode it opened. */
static bool judge_socket(const struct fs_lists *fs, const struct fs_anchors *pinned, bool egress_open,
                         const struct socket_grants *granted, const char *path, char *rule, size_t n)
{
    char why[600];
    struct stat gst;
    const struct socket_grant *g = stat(path, &gst) == 0 ? socket_grants_find(granted, &gst) : NULL;
    if (g) {
        snprintf(rule, n, "network.allowedUnixSockets \"%s\": this socket, by its inode", g->path);
        return true;
    }
    if (!fs_ruleset_decide(fs, pinned, path, false, why, sizeof why)) {
        snprintf(rule, n, "cannot be reached: %s", why);
        return false;
    }
    struct socket_policy sp = {.fs = fs, .egress_open = egress_open, .granted = granted};
    struct connect_rules rules;
    socket_rules_init(&rules, &sp);
    int fd = open(path, O_PATH | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode)) {
        snprintf(rule, n, "no socket there now");
        if (fd >= 0)
            close(fd);
        return false;
    }
    int rc = rules.unix_path_ok(fd, &st, rules.arg);
    close(fd);
    snprintf(rule, n, "the connect() broker: %s",
             rc == 0            ? "a socket beneath a writable root and no denied path"
             : st.st_nlink != 1 ? "a socket with another hard link"
                                : "a host socket (not beneath a writable root)");
    return rc == 0;
}

static void judge(struct sandbox_ctx *ctx, struct sandbox_explain *out, size_t i, const struct fs_lists *fs,
                  const struct fs_anchors *pinned, const struct socket_grants *granted)
{
    const struct sandbox_query *q = &out->queries[i];
    const struct policy_network *net = &ctx->policy->network;
    bool egress_open = net->egress && !net->has_outgoing_proxy;
    char rule[1024];
    switch (q->kind) {
    case SANDBOX_QUERY_CONNECT:
        if (egress_open)
            sandbox_explain_verdict(ctx, out, i, true, "egress: true: the host's network");
        else if (!net->has_outgoing_proxy)
            sandbox_explain_verdict(ctx, out, i, false, "egress: false: no IP socket can be made");
        return; /* with a proxy: only its loopback ports; the proxy decides */
    case SANDBOX_QUERY_UNIX:
        sandbox_explain_verdict(ctx, out, i,
                                judge_socket(fs, pinned, egress_open, granted, q->path, rule, sizeof rule),
                                "%s", rule);
        return;
    default:
        sandbox_explain_verdict(
            ctx, out, i,
            fs_ruleset_decide(fs, pinned, q->path, q->kind == SANDBOX_QUERY_WRITE, rule, sizeof rule), "%s",
            rule);
    }
}

/* The caller's terminal among descriptors 0-2 (fs_own_terminal), once per
 * terminal, with the access of all the descriptors it is held as. */
static void describe_terminal(struct sandbox_ctx *ctx, struct sandbox_explain *out)
{
    bool done[3] = {false, false, false};
    for (int n = 0; n <= 2; n++) {
        bool rd = false, wr = false, r, w;
        char fds[16] = "", tty[256];
        struct stat a, b;
        if (done[n] || !fs_own_terminal(n, &r, &w) || fstat(n, &a) != 0)
            continue;
        for (int m = n; m <= 2; m++)
            if (fs_own_terminal(m, &r, &w) && fstat(m, &b) == 0 && a.st_dev == b.st_dev &&
                a.st_ino == b.st_ino) {
                done[m] = true;
                rd |= r;
                wr |= w;
                snprintf(fds + strlen(fds), sizeof fds - strlen(fds), "%s%d", fds[0] ? ", " : "", m);
            }
        ssize_t len = readlink(fd_path(n).s, tty, sizeof tty - 1);
        if (len <= 0)
            continue;
        tty[len] = '\0';
        sandbox_explain_add(ctx, out, "terminal", tty,
                            "the caller's own terminal (descriptor%s %s): %s and "
                            "its ioctls, granted on its own inode",
                            strchr(fds, ',') ? "s" : "", fds,
                            rd && wr ? "read and write"
                            : rd     ? "read"
                                     : "write");
    }
}

static void describe(struct sandbox_ctx *ctx, struct sandbox_explain *out, const struct fs_lists *fs,
                     const struct fs_anchors *pinned, int abi)
{
    const struct policy_network *net = &ctx->policy->network;
    char rule[1024];
    sandbox_explain_add(ctx, out, "boundary", "",
                        "a Landlock domain, a seccomp filter and a connect() broker; "
                        "no namespace: the host's processes, /proc, IPC and network stay visible");
    for (size_t i = 0; fs->writable[i]; i++)
        sandbox_explain_add(ctx, out, "writable", fs->writable[i], "Landlock write rights beneath it%s",
                            fs->writable[i] == fs->workspace ? " (the working directory)" : "");
    for (size_t i = 0; fs->write_denied[i]; i++)
        sandbox_explain_add(ctx, out, "write-denied", fs->write_denied[i], "left out of the write grant");
    for (size_t i = 0; fs->no_read[i]; i++)
        sandbox_explain_add(ctx, out, "read-denied", fs->no_read[i],
                            "left out of the read grant: nothing "
                            "beneath it can be opened or listed");
    for (size_t i = 0; i < fs->mount_count; i++)
        sandbox_explain_add(ctx, out, "write-denied", fs->mounts[i],
                            "a kernel or device mount beneath a writable "
                            "root: left out of the write grant");
    bool tmp = fs_ruleset_decide(fs, pinned, "/tmp", true, rule, sizeof rule);
    sandbox_explain_add(ctx, out, "tmp", "/tmp", "%s (%s)", tmp ? "writable" : "read-only", rule);
    sandbox_explain_add(ctx, out, "dev", "/dev",
                        "the host's, but only null, zero, full, random, urandom, tty and "
                        "the caller's own terminal can be opened");
    describe_terminal(ctx, out);
    sandbox_explain_add(ctx, out, "proc", "/proc",
                        "the host's procfs: every process of the host is listed; "
                        "nothing there is writable");
    if (net->egress && !net->has_outgoing_proxy)
        sandbox_explain_add(ctx, out, "network", "", "the host's network (egress: true)");
    else if (!net->has_outgoing_proxy)
        sandbox_explain_add(ctx, out, "network", "", "none: the seccomp filter refuses IP sockets");
    sandbox_explain_add(ctx, out, "unix-sockets", "",
                        "only sockets beneath a writable root (the broker's "
                        "check); abstract sockets are refused");
    sandbox_explain_add(ctx, out, "kernel", "landlock", "ABI %d%s%s%s", abi,
                        abi < 3 ? "; no truncate right: the filter refuses truncate() outright" : "",
                        abi < 4 ? "; no TCP rules: the broker alone limits TCP connections" : "",
                        abi < 6 ? "; no signal or abstract-socket scope (Linux < 6.12)" : "");
}

enum sandbox_result ll_explain(struct sandbox_ctx *ctx, struct sandbox_explain *out)
{
    const struct policy *p = ctx->policy;
    if (p->mode == POLICY_MODE_FULL_ACCESS) {
        sandbox_explain_add(ctx, out, "boundary", "", "none: full_access has nothing to enforce");
        for (size_t i = 0; i < out->query_count; i++)
            sandbox_explain_verdict(ctx, out, i, true, "full_access: no sandbox");
        return SANDBOX_OK;
    }
    int abi = landlock_abi();
    bool layered = ctx->others_offer & SANDBOX_OFFER_SYSCALL_FILTER;
    char why[512], err[SANDBOX_ERROR_MAX];
    const char *refusal = landlock_unenforceable(p, abi, layered, why, sizeof why);
    if (refusal)
        return sandbox_fail(ctx, "%s", refusal);
    struct fs_lists fs;
    if (fs_lists_build(ctx, &fs, err, sizeof err) != 0)
        return sandbox_fail(ctx, "%s", err);
    /* fs_ruleset_add()'s walks, making nothing: what a launch refuses on
     * the way, and which directories the broker pins (layered under
     * linux-ns: no broker, none). */
    struct fs_anchors pinned;
    if (fs_anchors_init(&pinned) != 0) {
        fs_lists_free(&fs);
        return sandbox_fail(ctx, "out of memory planning the Landlock ruleset");
    }
    pinned.plan = true;
    enum sandbox_result rc = SANDBOX_OK;
    char fence[SANDBOX_ERROR_MAX];
    struct socket_grants granted = {0};
    if ((layered ? fs_lists_check(&fs, err, sizeof err)
                 : fs_ruleset_plan(abi, &fs, &pinned, err, sizeof err)) != 0)
        rc = sandbox_fail(ctx, "%s", err);
    /* prepare()'s limits decision, after the ruleset's, with the kill switch. */
    else if (sandbox_limits_explain(ctx, out, false, true) != SANDBOX_OK)
        rc = SANDBOX_FAIL;
    /* prepare()'s socket grants (layered: the outer boundary's broker). */
    else if (!layered && socket_grants_open(&p->network.allowed_unix_sockets, &p->denied_read_paths, &granted,
                                            err, sizeof err) != 0)
        rc = sandbox_fail(ctx, "%s", err);
    /* prepare()'s device fence, after the limits' group (layered: the
     * outer boundary's nodev mounts). */
    else if (!layered && device_fence_describe(&fs, fence, sizeof fence, err, sizeof err) != 0)
        rc = sandbox_fail(ctx, "%s", err);
    else {
        describe(ctx, out, &fs, &pinned, abi);
        if (!layered)
            sandbox_explain_add(ctx, out, "devices", "", "device nodes outside /dev: %s", fence);
        for (size_t k = 0; k < granted.count; k++)
            sandbox_explain_add(ctx, out, "unix-socket", granted.items[k].path,
                                "granted by network.allowedUnixSockets: the connect() broker lets it "
                                "through (by its inode; one put there later is refused)");
        if (device_grants_explain(
                ctx, out, "a rule on its inode (for a root caller, let through by the device program too)") !=
            SANDBOX_OK)
            rc = SANDBOX_FAIL;
        for (size_t i = 0; i < out->query_count; i++)
            judge(ctx, out, i, &fs, &pinned, &granted);
    }
    socket_grants_free(&granted);
    fs_anchors_close(&pinned);
    fs_lists_free(&fs);
    return rc;
}
