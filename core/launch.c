#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "exec_target.h"
#include "launch.h"
#include "supervise.h"

unsigned policy_required_enforcement(const struct policy *policy)
{
    unsigned need = 0;
    if (policy->mode != POLICY_MODE_FULL_ACCESS)
        need |= SANDBOX_ENFORCES_FILESYSTEM;
    if (!policy->network.egress)
        need |= SANDBOX_ENFORCES_NO_EGRESS;
    if (!policy->network.local_binding)
        need |= SANDBOX_ENFORCES_NO_LOCAL_BIND;
    if (policy->network.has_outgoing_proxy)
        need |= SANDBOX_ENFORCES_EGRESS_PROXY;
    if (policy_has_limits(policy))
        need |= SANDBOX_ENFORCES_LIMITS;
    if (policy->scratch.requested)
        need |= SANDBOX_ENFORCES_SCRATCH;
    if (policy->devices.count)
        need |= SANDBOX_ENFORCES_DEVICES;
    if (policy->network.allowed_unix_sockets.count)
        need |= SANDBOX_ENFORCES_UNIX_SOCKETS;
    return need;
}

static const char *enforcement_name(unsigned bit)
{
    switch (bit) {
    case SANDBOX_ENFORCES_FILESYSTEM: return "the filesystem policy (mode and paths)";
    case SANDBOX_ENFORCES_NO_EGRESS: return "\"egress\": false";
    case SANDBOX_ENFORCES_NO_LOCAL_BIND: return "\"localBinding\": false";
    case SANDBOX_ENFORCES_EGRESS_PROXY: return "network.outgoingProxy";
    case SANDBOX_ENFORCES_LIMITS: return "limits";
    case SANDBOX_ENFORCES_SCRATCH: return "\"scratch\" (a private /tmp: only linux-ns makes one)";
    case SANDBOX_ENFORCES_DEVICES: return "\"devices\" (host devices granted: linux-ns and landlock)";
    case SANDBOX_ENFORCES_UNIX_SOCKETS:
        return "network.allowedUnixSockets (host sockets granted: linux-ns and landlock)";
    default: return "an unknown restriction";
    }
}

/*
 * Fail closed: a restriction that no loaded backend enforces is refused
 * before anything runs, so a build without a platform backend (or a
 * developer build missing a module) can never run the target with less
 * isolation than the policy asked for.
 */
int launch_check_coverage(const struct policy *policy, const struct backend_set *set, char *err,
                          size_t errlen)
{
    unsigned required = policy_required_enforcement(policy);
    unsigned missing = required & ~backend_set_enforces(set);
    if (missing) {
        unsigned bit = missing & -missing;
        const struct sandbox_backend *other = backend_set_unselected_enforcing(set, bit);
        if (other)
            snprintf(err, errlen,
                     "the chosen sandbox (%s) does not enforce %s; leave it out of the policy, or use "
                     "--sandbox %s, which does",
                     set->count ? set->items[0]->name : "none", enforcement_name(bit), other->name);
        else
            snprintf(err, errlen,
                     "no enforcement backend in this build enforces %s (%zu backend%s loaded); "
                     "refusing to run the target without it",
                     enforcement_name(bit), set->count, set->count == 1 ? "" : "s");
        return -1;
    }
    /* The composition (backend.h, "How backends compose"). */
    return backend_set_check_needs(set, required, err, errlen);
}

enum phase { PHASE_PREPARE, PHASE_ENTER, PHASE_HARDEN };

static sandbox_hook hook_for(const struct sandbox_backend *b, enum phase phase)
{
    switch (phase) {
    case PHASE_PREPARE: return b->prepare;
    case PHASE_ENTER: return b->enter;
    default: return b->harden;
    }
}

/* ctx->alternatives: "--sandbox landlock" (or "--sandbox a or --sandbox b"). */
void launch_other_boundaries(const struct backend_set *set, char *out, size_t size)
{
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; i < set->unselected_count && at < size; i++) {
        int n = snprintf(out + at, size - at, "%s--sandbox %s", at ? " or " : "", set->unselected[i]->name);
        at += n > 0 ? (size_t)n : 0;
    }
}

/* Run one phase over every backend in order. */
static void walk(const struct backend_set *set, struct sandbox_ctx *ctx, enum phase phase)
{
    unsigned required = policy_required_enforcement(ctx->policy);
    for (size_t i = 0; i < set->count; i++) {
        const struct sandbox_backend *b = set->items[i];
        ctx->current = i;
        ctx->others_offer = backend_set_others_offer(set, i);
        ctx->later_enter_needs_view = backend_set_later_enter_needs_view(set, i, required);
        ctx->error[0] = '\0';
        enum sandbox_result r = hook_for(b, phase)(ctx);
        if (r == SANDBOX_OK)
            continue;
        if (r == SANDBOX_SUPERVISE && phase == PHASE_ENTER)
            supervise(&ctx->monitor, ctx->report_fd);
        if (r == SANDBOX_SUPERVISE)
            diag_fatal("%s: split the process outside enter() (backend bug)", b->name);
        diag_fatal("%s: %s", b->name, ctx->error[0] ? ctx->error : "failed without saying why");
    }
}

#ifndef O_PATH
#define O_PATH O_RDONLY /* macOS: no O_PATH; a directory opens for reading */
#endif

/* The working directory by descriptor first, then its name, which must
 * lead to it (backend.h, ctx->cwd_fd): a rename in between would give the
 * backends the name of another directory.  Held once, as early as main()
 * can (before the policy is even read), so that whatever renames the
 * workspace later meets a name already taken. */
static struct {
    bool held;
    int fd;
    dev_t dev;
    ino_t ino;
    char name[PATH_MAX];
} working_directory = {.fd = -1};

void launch_hold_working_directory(void)
{
    if (working_directory.held)
        return;
    struct stat st;
    working_directory.fd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (working_directory.fd < 0 || fstat(working_directory.fd, &st) != 0)
        diag_fatal("cannot open the working directory: %s", strerror(errno));
    working_directory.dev = st.st_dev;
    working_directory.ino = st.st_ino;
    if (!getcwd(working_directory.name, sizeof working_directory.name))
        diag_fatal("cannot determine the working directory: %s", strerror(errno));
    working_directory.held = true;
}

static void launch_hold_cwd(struct sandbox_ctx *ctx, char *cwd, size_t cwd_size)
{
    launch_hold_working_directory();
    ctx->cwd_fd = working_directory.fd;
    ctx->cwd_dev = working_directory.dev;
    ctx->cwd_ino = working_directory.ino;
    if ((size_t)snprintf(cwd, cwd_size, "%s", working_directory.name) >= cwd_size)
        diag_fatal("the working directory's name is longer than %zu bytes", cwd_size - 1);
    ctx->cwd = cwd;
    char err[SANDBOX_ERROR_MAX];
    if (sandbox_cwd_check(ctx, err, sizeof err) != 0)
        diag_fatal("%s", err);
}

void launch_ctx_init(struct sandbox_ctx *ctx, const struct policy *policy, const struct backend_set *backends,
                     char *const *argv, char *cwd, size_t cwd_size, char **env, size_t env_count,
                     int report_fd)
{
    launch_hold_cwd(ctx, cwd, cwd_size);
    ctx->policy = policy;
    ctx->argv = argv;
    ctx->env = env;
    ctx->env_count = env_count;
    ctx->monitor.pid = -1;
    ctx->monitor.status_fd = -1;
    ctx->report_fd = report_fd;
    launch_other_boundaries(backends, ctx->alternatives, sizeof ctx->alternatives);
}

void launch(const struct policy *policy, const struct backend_set *backends, char *const *argv, char **env,
            size_t env_count, int report_fd)
{
    char err[SANDBOX_ERROR_MAX];
    if (launch_check_coverage(policy, backends, err, sizeof err) != 0)
        diag_fatal("%s", err);
    static struct sandbox_ctx ctx;
    static char cwd[PATH_MAX];
    launch_ctx_init(&ctx, policy, backends, argv, cwd, sizeof cwd, env, env_count, report_fd);
    walk(backends, &ctx, PHASE_PREPARE);
    walk(backends, &ctx, PHASE_ENTER);
    walk(backends, &ctx, PHASE_HARDEN);
    exec_target(&ctx);
}
