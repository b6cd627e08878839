/*
 * backend.c — the landlock backend: the whole policy without any
 * namespace, for hosts where user namespaces are blocked
 * (backends/landlock/README.md).  Chosen with --sandbox landlock, never as
 * a fallback.
 *
 * prepare (supervisor): refuse what this kernel or this design cannot
 *   enforce, then build the Landlock ruleset for the filesystem policy
 *   (fs_ruleset.c) while nothing of the workload runs yet.
 * enter: the loopback ports granted by the other backends' prepare() (the
 *   proxy's front-ends) become the ruleset's only TCP connect rules; then
 *   fork the broker process (outside every restriction, like linux-ns's
 *   init: it makes the workload's connect() calls, socket_rules.c, and its
 *   entries in the directories on the way to a denial, fs_anchors.c, from
 *   the pools of directories made just before, fs_dir_pool.c; kills
 *   what the workload leaves behind and reports its status), which forks
 *   the workload, in linux-common's sequence (process/supervised_fork.c;
 *   ll_fork below holds this backend's own part).  The supervisor returns
 *   SANDBOX_SUPERVISE and waits.
 * harden (the workload): close descriptors above 2, zero capabilities and
 *   no_new_privs, enter the Landlock domain (with the signal and
 *   abstract-socket scopes where the kernel has them), and the seccomp
 *   filter last, whose listener goes to the broker.
 *
 * Layered (developer builds: another boundary in the set offers
 * SANDBOX_OFFER_SYSCALL_FILTER, i.e. linux-ns, backend.h "Selection"): only
 * the filesystem ruleset, built in enter() inside the other boundary's view
 * and entered there, before its harden() closes every descriptor.  The
 * outer boundary keeps the network, processes and syscall filter.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "diag.h"
#include "landlock.h"
#include "landlock_sys.h"
#include "limits/sandbox_limits.h"
#include "process/supervised_fork.h"
#include "seccomp/seccomp_programs.h"

struct landlock_state {
    bool sandbox; /* false for full_access: nothing to enforce */
    bool layered; /* inside another boundary: the ruleset only */
    int abi;
    bool handles_net; /* the ruleset has TCP rules (ABI >= 4, egress not open) */
    int ruleset;
    int link; /* workload end of the broker socket pair */
    struct fs_lists fs;
    struct fs_anchors anchors; /* the directories on the way to a denial, for the broker */
    struct socket_policy sockets;
    struct socket_grants granted; /* network.allowedUnixSockets, by inode */
    struct connect_rules rules;
    struct seccomp_shape shape;
};

static struct landlock_state state = {.ruleset = -1, .link = -1};
static struct sandbox_limits limits;

const char *landlock_unenforceable(const struct policy *p, int abi, bool layered, char *buf, size_t size)
{
    bool egress_open = p->network.egress && !p->network.has_outgoing_proxy;
    if (abi == 0)
        return "Landlock is not available on this kernel (it needs Linux >= 5.13 with landlock in the lsm= "
               "boot list); use the linux-ns backend";
    if (layered)
        return NULL; /* the network, signals and sockets are the outer boundary's */
    if (!egress_open && p->network.local_binding)
        return "\"localBinding\": true needs a network of the sandbox's own, which this backend cannot give "
               "(a server would listen on the host's interfaces); set it to false, or use the linux-ns "
               "backend";
    if (geteuid() == 0 && abi < 6) {
        snprintf(buf, size,
                 "a root caller needs Landlock's signal scope (ABI 6, Linux >= 6.12), or the "
                 "workload could signal every root process of the host; this kernel has ABI %d: run as an "
                 "ordinary user, or use the linux-ns backend",
                 abi);
        return buf;
    }
    return connect_broker_unsupported();
}

static enum sandbox_result ll_prepare(struct sandbox_ctx *ctx)
{
    const struct policy *p = ctx->policy;
    state.sandbox = p->mode != POLICY_MODE_FULL_ACCESS;
    if (!state.sandbox)
        return SANDBOX_OK;
    state.abi = landlock_abi();
    state.layered = ctx->others_offer & SANDBOX_OFFER_SYSCALL_FILTER;
    bool egress_open = p->network.egress && !p->network.has_outgoing_proxy;
    char why[512], err[SANDBOX_ERROR_MAX];
    const char *refusal = landlock_unenforceable(p, state.abi, state.layered, why, sizeof why);
    if (refusal)
        return sandbox_fail(ctx, "%s", refusal);
    if (state.layered)
        return SANDBOX_OK; /* the ruleset is made in enter(), inside */
    state.handles_net = !egress_open && state.abi >= 4;
    struct landlock_ruleset_attr attr = {
        .handled_access_fs = fs_rights_handled(state.abi),
        .handled_access_net =
            state.handles_net ? LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP : 0,
        .scoped = state.abi >= 6 ? LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL : 0,
    };
    if (fs_lists_build(ctx, &state.fs, err, sizeof err) != 0)
        return sandbox_fail(ctx, "%s", err);
    if ((state.ruleset = landlock_create_ruleset(&attr)) < 0)
        return sandbox_fail(ctx, "cannot create the Landlock ruleset (ABI %d): %s", state.abi,
                            strerror(errno));
    if (fs_anchors_init(&state.anchors) != 0)
        return sandbox_fail(ctx, "out of memory noting the directories on the way to a denied path");
    if (fs_ruleset_add(state.ruleset, state.abi, &state.fs, &state.anchors, err, sizeof err) != 0)
        return sandbox_fail(ctx, "%s", err);
    state.shape = (struct seccomp_shape){
        .local_binding = p->network.local_binding,
        .net = egress_open                     ? SECCOMP_NET_OWN
               : p->network.has_outgoing_proxy ? SECCOMP_NET_TCP_ONLY
                                               : SECCOMP_NET_NONE,
        .refuse_path_truncate = state.abi < 3,
        .shared_host = true, /* no namespace: the host's metadata, processes, IPC */
    };
    if (socket_grants_open(&p->network.allowed_unix_sockets, &p->denied_read_paths, &state.granted, err,
                           sizeof err) != 0)
        return sandbox_fail(ctx, "%s", err);
    state.sockets =
        (struct socket_policy){.fs = &state.fs, .egress_open = egress_open, .granted = &state.granted};
    /* A group wherever one can be made: its kill switch ends what a
     * workload started in a session of its own (no PID namespace here). */
    if (sandbox_limits_prepare(&limits, ctx, false, true, err, sizeof err) != 0)
        return sandbox_fail(ctx, "%s", err);
    /* Before the workload is forked into that group. */
    if (device_fence_apply(&limits, &state.fs, err, sizeof err) != 0)
        return sandbox_fail(ctx, "%s", err);
    return SANDBOX_OK;
}

/* Every prepare() has run: the granted loopback ports are final. */
static enum sandbox_result grant_ports(struct sandbox_ctx *ctx)
{
    state.sockets.ports = ctx->loopback_grants;
    state.sockets.port_count = ctx->loopback_grant_count;
    state.sockets.anchors = &state.anchors.set;
    socket_rules_init(&state.rules, &state.sockets);
    state.rules.anchors = &state.anchors.set; /* the broker's entries above a denial (entry_broker.c) */
    for (size_t i = 0; state.handles_net && i < ctx->loopback_grant_count; i++) {
        struct landlock_net_port_attr rule = {.allowed_access = LANDLOCK_ACCESS_NET_CONNECT_TCP,
                                              .port = ctx->loopback_grants[i]};
        if (landlock_add_rule(state.ruleset, LANDLOCK_RULE_NET_PORT, &rule) != 0)
            return sandbox_fail(ctx, "cannot add the Landlock rule for TCP port %u: %s",
                                (unsigned)ctx->loopback_grants[i], strerror(errno));
    }
    return SANDBOX_OK;
}

/* The broker process, before the workload exists: out of the caller's
 * session and terminal, not dumpable (the workload must not ptrace it), the
 * subreaper of all the workload starts, without the caller's keys, and
 * without a capability: what it does for the workload (connect, chmod,
 * chown, ...) the kernel then judges as it would the workload's own call. */
static void broker_setup(pid_t supervisor)
{
    char err[SANDBOX_ERROR_MAX];
    supervised_fork_tie_to_parent("landlock", supervisor, "broker process");
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0 || setsid() < 0 ||
        prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0)
        diag_fatal("landlock: cannot set up the broker process (dumpable, session, subreaper): %s",
                   strerror(errno));
    if (keyring_join_fresh_session(err, sizeof err) != 0 || caps_drop_all(err, sizeof err) != 0)
        diag_fatal("landlock: the broker process: %s", err);
}

/* Layered: the filesystem ruleset, made and entered here, in the workload
 * process inside the outer boundary (its paths resolve through its view). */
static enum sandbox_result enter_layer(struct sandbox_ctx *ctx)
{
    char err[SANDBOX_ERROR_MAX];
    struct landlock_ruleset_attr attr = {.handled_access_fs = fs_rights_handled(state.abi)};
    if (fs_lists_build(ctx, &state.fs, err, sizeof err) != 0)
        return sandbox_fail(ctx, "%s", err);
    int ruleset = landlock_create_ruleset(&attr);
    if (ruleset < 0)
        return sandbox_fail(ctx, "cannot create the Landlock ruleset (ABI %d): %s", state.abi,
                            strerror(errno));
    int rc = fs_ruleset_add(ruleset, state.abi, &state.fs, NULL, err, sizeof err); /* no broker of ours */
    if (rc == 0)
        rc = sandbox_cwd_check(ctx, err, sizeof err); /* the last moment (backend.h, cwd_fd) */
    if (rc == 0 && landlock_restrict_self(ruleset) != 0) {
        snprintf(err, sizeof err, "cannot enter the Landlock domain (landlock_restrict_self): %s",
                 strerror(errno));
        rc = -1;
    }
    close(ruleset);
    return rc == 0 ? SANDBOX_OK : sandbox_fail(ctx, "%s", err);
}

/* The supervisor forks the broker; no PID namespace: the workload dies with
 * the broker, which kills what it leaves (broker_setup made it the
 * subreaper). */
static const struct supervised_fork ll_fork = {
    .backend = "landlock",
    .middle = "broker",
    .pid_namespace = false,
    .setup = broker_setup,
    .rules = &state.rules,
    .limits = &limits,
};

static enum sandbox_result ll_enter(struct sandbox_ctx *ctx)
{
    if (!state.sandbox)
        return SANDBOX_OK;
    if (state.layered)
        return enter_layer(ctx);
    if (grant_ports(ctx) != SANDBOX_OK)
        return SANDBOX_FAIL;
    /* Made only now, when nothing but the fork can fail: a launch refused
     * earlier leaves nothing in the workspace. */
    char err[SANDBOX_ERROR_MAX];
    if (fs_dir_pools_make(&state.anchors, state.ruleset, fs_rights_handled(state.abi), err, sizeof err) !=
        0) {
        entry_broker_remove_pools(&state.anchors.set);
        return sandbox_fail(ctx, "%s", err);
    }
    int link;
    enum sandbox_result r = supervised_fork(ctx, &ll_fork, &link);
    if (r == SANDBOX_FAIL)
        entry_broker_remove_pools(&state.anchors.set); /* no broker to use them */
    if (r != SANDBOX_OK) {
        /* The supervisor: the ruleset is the workload's alone (the broker's
         * copy goes with broker_init_run()'s descriptor sweep). */
        close(state.ruleset);
        fs_anchors_close(&state.anchors);
        return r;
    }
    state.link = link;
    return SANDBOX_OK;
}

static enum sandbox_result ll_harden(struct sandbox_ctx *ctx)
{
    char err[SANDBOX_ERROR_MAX];
    if (state.layered)
        return SANDBOX_OK; /* the outer boundary's harden() did the rest */
    if (!state.sandbox)
        return fd_close_except(NULL, 0, err, sizeof err) != 0 ? sandbox_fail(ctx, "%s", err) : SANDBOX_OK;
    int keep[2] = {state.ruleset < state.link ? state.ruleset : state.link,
                   state.ruleset < state.link ? state.link : state.ruleset};
    /* The last moment: the name still leads to the directory the rules
     * were made for (backend.h, cwd_fd). */
    if (fd_close_except(keep, 2, err, sizeof err) != 0 || caps_drop_all(err, sizeof err) != 0 ||
        sandbox_cwd_check(ctx, err, sizeof err) != 0)
        return sandbox_fail(ctx, "%s", err);
    if (landlock_restrict_self(state.ruleset) != 0)
        return sandbox_fail(ctx, "cannot enter the Landlock domain (landlock_restrict_self): %s",
                            strerror(errno));
    close(state.ruleset);
    int link = state.link;
    state.link = -1;
    int rc = seccomp_filter_install_brokered(&state.shape, link, err, sizeof err);
    close(link);
    return rc == 0 ? SANDBOX_OK : sandbox_fail(ctx, "%s", err);
}

SANDBOX_BACKEND_DEFINE(landlock_backend) = {
    .abi = SANDBOX_BACKEND_ABI,
    .name = "landlock",
    .summary = "no user namespace needed; no private PID, IPC, /proc or network view",
    .order = 110,
    .enforces = SANDBOX_ENFORCES_FILESYSTEM | SANDBOX_ENFORCES_NO_EGRESS | SANDBOX_ENFORCES_NO_LOCAL_BIND |
                SANDBOX_ENFORCES_LIMITS | SANDBOX_ENFORCES_DEVICES | SANDBOX_ENFORCES_UNIX_SOCKETS,
    /* The broker and the ruleset open exactly the granted loopback ports;
     * the supervisor waits outside for every sandboxed run. */
    .offers = SANDBOX_OFFER_LOOPBACK_GRANTS | SANDBOX_OFFER_SUPERVISED,
    .on_request = true,
    /* Layered inside another boundary, enter() builds the ruleset from the
     * paths of that boundary's view. */
    .enter_needs_view = true,
    .prepare = ll_prepare,
    .enter = ll_enter,
    .harden = ll_harden,
    .explain = ll_explain,
};
