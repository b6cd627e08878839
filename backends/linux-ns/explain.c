/*
 * explain.c — the linux-ns backend under --explain (backend.h): what
 * mount_policy_apply() would mount, from the very lists it mounts
 * (mount_policy_roots, mount_policy_merged), and how a path fares under
 * the layers it stacks, in its order (mount_policy.c's header): a read
 * denial's mask on top, then a write denial's read-only bind, the private
 * /proc and /dev, the policy's scratch tmpfs (scratch_tmp_decide), the
 * kernel filesystems made read-only, the writable roots, and the whole
 * tree read-only at the bottom; the sockets
 * host_ipc_each_socket() finds and the /proc files
 * kernel_fs_each_proc_masked() finds, which a launch covers with
 * /dev/null.  Nothing is mounted; the launch's first steps run in a child
 * of their own namespaces that then exits (userns_probe), so a host that
 * refuses them is refused here with the same message.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host_ipc.h"
#include "limits/sandbox_limits.h"
#include "devices/device_grant.h"
#include "linux_ns.h"

/* A socket host_ipc_mask_sockets would cover with /dev/null. */
struct masked_socket {
    dev_t dev;
    ino_t ino;
    char named_by[48];
};

#define MASKED_SOCKETS_MAX 32

struct plan {
    struct sandbox_ctx *ctx;
    const char **roots, **write_denied, **read_denied;
    bool netns;
    struct scratch_plan scratch;
    struct masked_socket sockets[MASKED_SOCKETS_MAX];
    size_t n_sockets;
    struct socket_grants granted; /* network.allowedUnixSockets, as prepare() resolves them */
    struct sandbox_explain *out;
};

/* The innermost entry of `list` at or above `path`, or NULL. */
static const char *innermost(const char *path, const char *const *list)
{
    const char *found = NULL;
    for (size_t i = 0; list[i]; i++)
        if (policy_path_at_or_beneath(path, list[i]) && (!found || strlen(list[i]) > strlen(found)))
            found = list[i];
    return found;
}

struct mount_search {
    const char *path;
    char fstype[32];
    size_t len;
};

/* The last-listed of the longest mount points at or above the path. */
static int find_mount(const struct mount_info *m, void *arg)
{
    struct mount_search *s = arg;
    size_t len = strlen(m->point);
    if (policy_path_at_or_beneath(s->path, m->point) && len >= s->len) {
        s->len = len;
        snprintf(s->fstype, sizeof s->fstype, "%s", m->fstype);
    }
    return 0;
}

static const char *const dev_writable[] = {"/dev/null",    "/dev/zero", "/dev/full", "/dev/random",
                                           "/dev/urandom", "/dev/tty",  NULL};

/* A write at `path`: allowed, or refused, and the layer that decides. */
static bool decide_write(const struct plan *pl, const char *path, char *rule, size_t n)
{
    const char *d;
    if ((d = innermost(path, pl->write_denied))) {
        snprintf(rule, n, "deniedWritePaths \"%s\": bound read-only over itself", d);
        return false;
    }
    if (policy_path_at_or_beneath(path, "/proc")) {
        snprintf(rule, n, "/proc is the sandbox's own procfs, mounted read-only");
        return false;
    }
    const struct string_list *granted = &pl->ctx->policy->devices;
    for (size_t i = 0; i < granted->count; i++)
        if (strcmp(path, granted->items[i]) == 0) {
            snprintf(rule, n, "devices \"%s\": bound into the private /dev", path);
            return true;
        }
    if (policy_path_at_or_beneath(path, "/dev")) {
        bool ok = policy_path_covered(path, dev_writable) || policy_path_at_or_beneath(path, "/dev/shm");
        snprintf(rule, n, "/dev is private and minimal: %s",
                 ok ? "this device or /dev/shm (a private tmpfs) is "
                      "writable"
                    : "only null, zero, full, random, urandom, tty, pts and shm are there");
        return ok;
    }
    if ((d = scratch_tmp_covering(&pl->scratch, path))) {
        snprintf(rule, n, "scratch: %s is a private tmpfs of %llu bytes, emptied at the end", d,
                 pl->scratch.size_bytes);
        return true;
    }
    const char *root = innermost(path, pl->roots);
    if (!root) {
        snprintf(rule, n, "not beneath a writable root: the whole tree is mounted read-only");
        return false;
    }
    struct mount_search s = {.path = path};
    char err[256];
    if (mountinfo_each(find_mount, &s, err, sizeof err) == 0 &&
        (mount_is_kernel_interface(s.fstype) || (pl->netns && policy_path_at_or_beneath(path, "/sys")))) {
        snprintf(rule, n, "a kernel filesystem (%s) beneath writable root \"%s\": made read-only", s.fstype,
                 root);
        return false;
    }
    snprintf(rule, n, "beneath writable root \"%s\"%s: bound writable", root,
             root == pl->ctx->cwd ? " (the working directory)" : "");
    return true;
}

/* kernel_fs_each_proc_masked()'s callback: whether `name` is the one sought. */
static int is_name(int proc_fd, const char *name, void *arg)
{
    (void)proc_fd;
    return strcmp(name, (const char *)arg) == 0;
}

/* /proc/NAME that kernel_fs_mask_proc() masks in the sandbox's procfs (the
 * host's lists the same global entries, with the same modes). */
static bool proc_masked(const char *path)
{
    if (!kernel_fs_masks_proc(geteuid()) || strncmp(path, "/proc/", 6) != 0 || strchr(path + 6, '/') ||
        !path[6])
        return false;
    char err[256];
    int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    bool found =
        root >= 0 && kernel_fs_each_proc_masked(root, is_name, (void *)(path + 6), err, sizeof err) == 1;
    if (root >= 0)
        close(root);
    return found;
}

static bool decide(const struct plan *pl, const struct sandbox_query *q, char *rule, size_t n)
{
    const char *d = innermost(q->path, pl->read_denied);
    if (d) {
        snprintf(rule, n,
                 "deniedReadPaths \"%s\": masked (an empty read-only tmpfs over a directory, /dev/null "
                 "over a file)",
                 d);
        return false;
    }
    if (q->kind == SANDBOX_QUERY_READ) {
        if (proc_masked(q->path)) {
            snprintf(rule, n, "an owner-only global /proc file: masked by /dev/null (reads empty)");
            return false;
        }
        snprintf(rule, n, "no read denial covers it: the whole tree is visible");
        return true;
    }
    if (q->kind == SANDBOX_QUERY_WRITE)
        return decide_write(pl, q->path, rule, n);
    /* A socket: the connect() check (host_ipc_socket_on_writable_mount)
     * lets through one on a writable mount of the sandbox's view. */
    const char *scratch = scratch_tmp_covering(&pl->scratch, q->path);
    if (scratch) {
        snprintf(rule, n, "scratch: the private tmpfs on %s hides the host's sockets there", scratch);
        return false;
    }
    struct stat st;
    if (stat(q->path, &st) != 0 || !S_ISSOCK(st.st_mode)) {
        snprintf(rule, n, "no socket there now");
        return false;
    }
    const struct socket_grant *g = socket_grants_find(&pl->granted, &st);
    if (g) {
        snprintf(rule, n, "network.allowedUnixSockets \"%s\": this socket, by its inode", g->path);
        return true;
    }
    for (size_t k = 0; k < pl->n_sockets; k++)
        if (pl->sockets[k].dev == st.st_dev && pl->sockets[k].ino == st.st_ino) {
            snprintf(rule, n, "masked: /dev/null is bound over it (named by %s)", pl->sockets[k].named_by);
            return false;
        }
    char why[400];
    bool ok = decide_write(pl, q->path, why, sizeof why);
    snprintf(rule, n, "the connect() check: %s (%s)",
             ok ? "a socket on a writable mount" : "a host socket, on a read-only mount", why);
    return ok;
}

static void judge_connect(struct sandbox_ctx *ctx, struct sandbox_explain *out, size_t i)
{
    const struct policy_network *net = &ctx->policy->network;
    if (net->has_outgoing_proxy)
        return; /* in the sandbox's network namespace: the proxy decides */
    if (net->egress)
        sandbox_explain_verdict(ctx, out, i, true, "egress: true: the host's network");
    else
        sandbox_explain_verdict(ctx, out, i, false,
                                "egress: false: a network namespace of the sandbox's own "
                                "with only loopback");
}

/* How a denial is enforced, and what pins it. */
static void add_denial(struct sandbox_ctx *ctx, struct sandbox_explain *out, const struct plan *pl,
                       const char *kind, const char *path)
{
    struct stat st;
    const char *how = strcmp(kind, "write-denied") == 0 ? "bound read-only over itself (recursively)"
                      : lstat(path, &st) != 0
                          ? "absent now: nothing to mask (created later, it is not hidden)"
                      : S_ISDIR(st.st_mode) ? "masked by an empty, mode 000, read-only tmpfs"
                                            : "masked by /dev/null";
    const char *root = innermost(path, pl->roots);
    if (root && strcmp(root, path) != 0)
        sandbox_explain_add(ctx, out, kind, path,
                            "%s; the directories from writable root \"%s\" down to it are "
                            "pinned as mount points (no rename can move it)",
                            how, root);
    else
        sandbox_explain_add(ctx, out, kind, path, "%s", how);
}

static int add_proc_masked(int proc_fd, const char *name, void *arg)
{
    (void)proc_fd;
    struct plan *pl = arg;
    char path[300];
    snprintf(path, sizeof path, "/proc/%s", name);
    sandbox_explain_add(pl->ctx, pl->out, "proc-masked", path,
                        "owner-only: masked by /dev/null (reads empty)");
    return 0;
}

/* host_ipc_each_socket()'s callback: remembered for the verdicts, and said. */
static int add_socket(const struct sp_node *sock, const char *path, const char *named_by, void *arg)
{
    struct plan *pl = arg;
    if (socket_grants_find(&pl->granted, &sock->st))
        return 0; /* granted: not masked (host_ipc.c, mask_one) */
    if (pl->n_sockets < MASKED_SOCKETS_MAX) {
        struct masked_socket *m = &pl->sockets[pl->n_sockets++];
        m->dev = sock->st.st_dev;
        m->ino = sock->st.st_ino;
        snprintf(m->named_by, sizeof m->named_by, "%s", named_by);
    }
    sandbox_explain_add(pl->ctx, pl->out, "masked-socket", path,
                        "/dev/null bound over it (named by %s): "
                        "connect() is refused",
                        named_by);
    return 0;
}

/* Each writable root, and how the view makes it writable. */
static void describe_writable(struct sandbox_ctx *ctx, struct sandbox_explain *out, const struct plan *pl)
{
    for (size_t i = 0; pl->roots[i]; i++)
        sandbox_explain_add(ctx, out, "writable", pl->roots[i], "%s%s",
                            strcmp(pl->roots[i], "/") == 0 ? "the whole tree stays writable"
                            : policy_path_at_or_beneath(pl->roots[i], "/proc")
                                ? "not bound: the private procfs is read-only as a whole"
                                : "bound writable",
                            pl->roots[i] == ctx->cwd ? " (the working directory)" : "");
}

/* /tmp, and the scratch tmpfs directories. */
static void describe_tmp(struct sandbox_ctx *ctx, struct sandbox_explain *out, struct plan *pl)
{
    char rule[512];
    bool tmp = decide_write(pl, "/tmp", rule, sizeof rule);
    unsigned long long size = pl->scratch.size_bytes;
    bool mib = size % (1ull << 20) == 0;
    if (tmp && scratch_tmp_covering(&pl->scratch, "/tmp"))
        sandbox_explain_add(ctx, out, "tmp", "/tmp", "private and writable (%llu %s), emptied at the end",
                            mib ? size >> 20 : size, mib ? "MiB" : "bytes");
    else
        sandbox_explain_add(ctx, out, "tmp", "/tmp", "%s (%s)", tmp ? "writable" : "read-only", rule);
    for (size_t d = 0; d < pl->scratch.count; d++)
        sandbox_explain_add(ctx, out, "scratch", pl->scratch.dirs[d],
                            "a private tmpfs of %llu bytes, mode 1777, "
                            "empty at the start and emptied at the end; the host's %s is out of sight",
                            size, pl->scratch.dirs[d]);
}

/* The owner-only global files of /proc: masked, or refused by the kernel. */
static void describe_proc_masks(struct sandbox_ctx *ctx, struct sandbox_explain *out, struct plan *pl)
{
    char err[SANDBOX_ERROR_MAX];
    int root = kernel_fs_masks_proc(geteuid()) ? open("/", O_PATH | O_DIRECTORY | O_CLOEXEC) : -2;
    if (root == -2)
        sandbox_explain_add(ctx, out, "proc", "/proc",
                            "owner-only global files: refused by the kernel to this "
                            "caller's uid, no mask needed");
    else if (root < 0 || kernel_fs_each_proc_masked(root, add_proc_masked, pl, err, sizeof err) < 0)
        sandbox_explain_add(ctx, out, "proc", "/proc",
                            "which owner-only files are masked cannot be listed here: %s",
                            root < 0 ? strerror(errno) : err);
    if (root >= 0)
        close(root);
}

/* The network, and which Unix sockets connect. */
static void describe_network(struct sandbox_ctx *ctx, struct sandbox_explain *out, const struct plan *pl)
{
    const struct policy_network *net = &ctx->policy->network;
    if (!pl->netns)
        sandbox_explain_add(ctx, out, "network", "", "the host's network (egress: true)%s",
                            net->local_binding ? "" : "; binding a listening socket is refused");
    else if (!net->has_outgoing_proxy)
        sandbox_explain_add(ctx, out, "network", "", "none: a network namespace with only loopback%s",
                            net->local_binding ? " (servers may listen on it)" : "");
    sandbox_explain_add(ctx, out, "unix-sockets", "",
                        "only sockets on a writable mount of the view; the host's "
                        "elsewhere are refused by the connect() check, abstract ones %s",
                        pl->netns ? "are the sandbox's own" : "are refused");
}

/* The kernel features the launch would use. */
static void describe_kernel(struct sandbox_ctx *ctx, struct sandbox_explain *out)
{
    bool legacy = linux_ns_legacy_mounts();
    sandbox_explain_add(ctx, out, "kernel", "mount_setattr", "%s",
                        legacy ? "not used (missing, or " LINUX_NS_FORCE_LEGACY_ENV
                                 "=1): the legacy bind-remount path"
                               : "available");
    int abi = landlock_abi();
    sandbox_explain_add(
        ctx, out, "kernel", "landlock", "ABI %d: %s", abi,
        abi >= 6 ? "signals and abstract sockets also scoped to the sandbox"
                 : "no signal or abstract-socket scope (Linux < 6.12); the namespaces keep them in");
}

static void describe(struct sandbox_ctx *ctx, struct sandbox_explain *out, struct plan *pl)
{
    sandbox_explain_add(ctx, out, "boundary", "",
                        "user, mount, PID and IPC namespaces%s; seccomp filter; no "
                        "capabilities",
                        pl->netns ? ", network namespace" : "");
    describe_writable(ctx, out, pl);
    for (size_t i = 0; pl->write_denied[i]; i++)
        add_denial(ctx, out, pl, "write-denied", pl->write_denied[i]);
    for (size_t i = 0; pl->read_denied[i]; i++)
        add_denial(ctx, out, pl, "read-denied", pl->read_denied[i]);
    describe_tmp(ctx, out, pl);
    sandbox_explain_add(ctx, out, "dev", "/dev",
                        "private and minimal: null, zero, full, random, urandom, tty, "
                        "a new pts instance, and shm (a private 64 MiB tmpfs)");
    sandbox_explain_add(ctx, out, "proc", "/proc",
                        "the sandbox's own procfs (its processes only), read-only; "
                        "/proc/keys masked");
    describe_proc_masks(ctx, out, pl);
    host_ipc_each_socket(ctx, add_socket, pl);
    for (size_t i = 0; i < pl->granted.count; i++)
        sandbox_explain_add(ctx, out, "unix-socket", pl->granted.items[i].path,
                            "granted by network.allowedUnixSockets: connect() reaches this socket (by its "
                            "inode; one put there later is refused)");
    describe_network(ctx, out, pl);
    describe_kernel(ctx, out);
}

/* prepare()'s socket grants and their conflicts, then the init's scratch
 * decision on the tree it mounts over (the host's), into pl. */
static enum sandbox_result plan_decisions(struct sandbox_ctx *ctx, struct plan *pl)
{
    const struct policy *p = ctx->policy;
    char err[SANDBOX_ERROR_MAX];
    if (socket_grants_open(&p->network.allowed_unix_sockets, &p->denied_read_paths, &pl->granted, err,
                           sizeof err) != 0 ||
        host_ipc_check_write_grants(ctx, &pl->granted, err, sizeof err) != 0)
        return sandbox_fail(ctx, "%s", err);
    int host_root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (host_root < 0)
        return sandbox_fail(ctx, "scratch: cannot open /: %s", strerror(errno));
    int sr = scratch_tmp_decide(ctx, host_root, &pl->scratch, err, sizeof err);
    close(host_root);
    return sr == 0 ? SANDBOX_OK : sandbox_fail(ctx, "%s", err);
}

/* A verdict for each query. */
static void judge_all(struct sandbox_ctx *ctx, struct sandbox_explain *out, struct plan *pl)
{
    for (size_t i = 0; i < out->query_count; i++) {
        char rule[1024];
        if (out->queries[i].kind == SANDBOX_QUERY_CONNECT)
            judge_connect(ctx, out, i);
        else
            sandbox_explain_verdict(ctx, out, i, decide(pl, &out->queries[i], rule, sizeof rule), "%s", rule);
    }
}

enum sandbox_result ns_explain(struct sandbox_ctx *ctx, struct sandbox_explain *out)
{
    const struct policy *p = ctx->policy;
    const char *refusal = linux_ns_unenforceable(p);
    if (refusal)
        return sandbox_fail(ctx, "%s", refusal);
    /* prepare()'s own limits decision (a full_access launch makes none). */
    if (p->mode != POLICY_MODE_FULL_ACCESS && (sandbox_limits_explain(ctx, out, true, false) != SANDBOX_OK ||
                                               userns_limits_explain(ctx, out) != SANDBOX_OK))
        return SANDBOX_FAIL;
    /* prepare()'s judgement of the granted devices. */
    if (device_grants_explain(ctx, out, "bound at that path into the private /dev") != SANDBOX_OK)
        return SANDBOX_FAIL;
    if (p->mode == POLICY_MODE_FULL_ACCESS) {
        sandbox_explain_add(ctx, out, "boundary", "", "none: full_access has nothing to enforce");
        for (size_t i = 0; i < out->query_count; i++)
            sandbox_explain_verdict(ctx, out, i, true, "full_access: no sandbox");
        return SANDBOX_OK;
    }
    /* prepare()'s state, and the launch's first steps (userns_probe). */
    struct linux_ns_state st = {.sandbox = true,
                                .netns = !p->network.egress || p->network.has_outgoing_proxy,
                                .legacy_mounts = linux_ns_legacy_mounts(),
                                .uid = geteuid(),
                                .gid = getegid(),
                                .link = -1};
    char err[SANDBOX_ERROR_MAX];
    kernel_diag_set_alternatives(ctx->alternatives);
    if (userns_probe(&st, err, sizeof err) != 0)
        return sandbox_fail(ctx, "%s", err);
    struct plan pl = {.ctx = ctx,
                      .roots = mount_policy_roots(ctx),
                      .write_denied = mount_policy_merged(&p->denied_write_paths, NULL),
                      .read_denied = mount_policy_merged(&p->denied_read_paths, NULL),
                      .netns = st.netns,
                      .out = out};
    enum sandbox_result r = SANDBOX_OK;
    if (!pl.roots || !pl.write_denied || !pl.read_denied) {
        r = sandbox_fail(ctx, "out of memory");
        goto out;
    }
    if ((r = plan_decisions(ctx, &pl)) != SANDBOX_OK)
        goto out;
    describe(ctx, out, &pl);
    judge_all(ctx, out, &pl);
out:
    socket_grants_free(&pl.granted);
    free(pl.roots);
    free(pl.write_denied);
    free(pl.read_denied);
    return r;
}
