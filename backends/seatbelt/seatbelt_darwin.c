/*
 * seatbelt_darwin.c — the macOS enforcement backend (backends/seatbelt/README.md): install the
 * generated SBPL profile in-process with sandbox_init() just before the core
 * execve()s the target.
 *
 * Darwin only.  On Linux it is compiled (and its hooks run against fakes)
 * only by `make check`, with tests/seatbelt/shim/darwin_shim.h standing in
 * for the Darwin headers.  NOT VERIFIED ON A MAC: see README.md, "What is
 * unverified".
 *
 *   prepare  refuse to run inside an existing Seatbelt sandbox (profiles do
 *            not nest: a second sandbox_init would fail or leave us with the
 *            outer, unknown profile).
 *   enter    build the profile (the egress backend's prepare() has bound the
 *            proxy front-ends and granted their ports by now:
 *            ctx->loopback_grants, SANDBOX_OFFER_LOOPBACK_GRANTS).  With a
 *            proxy, fork: the parent stays outside, unsandboxed, and the core
 *            reproduces the workload's status from it; the child goes on.
 *   harden   sandbox_init(profile).  Irreversible; everything after it, in
 *            this process and every descendant, is confined.
 *   explain  seatbelt_explain.c.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <unistd.h>

#ifdef SEATBELT_DARWIN_SHIM
#include "darwin_shim.h" /* tests on Linux: stands in for <sys/ptrace.h> */
#else
#include <sys/ptrace.h>
#endif

#include "backend.h"
#include "os/sandbox_spi.h"
#include "sbpl_canon.h"
#include "sbpl_profile.h"
#include "seatbelt.h"

struct seatbelt_state {
    char *profile; /* NULL: full_access, nothing to install */
};

static struct seatbelt_state *state_of(struct sandbox_ctx *ctx)
{
    return *sandbox_state(ctx);
}

static enum sandbox_result seatbelt_prepare(struct sandbox_ctx *ctx)
{
    if (ctx->policy->mode == POLICY_MODE_FULL_ACCESS)
        return SANDBOX_OK; /* no profile is installed, so nesting is moot */
    if (sandbox_check(getpid(), NULL, SEATBELT_FILTER_NONE) != 0)
        return sandbox_fail(ctx, SEATBELT_NESTED_MESSAGE);
    struct seatbelt_state *st = calloc(1, sizeof *st);
    if (!st)
        return sandbox_fail(ctx, "out of memory for the seatbelt backend state");
    *sandbox_state(ctx) = st;
    return SANDBOX_OK;
}

/* ttyname() of descriptors 0-2 that are terminals: the workload may keep
 * writing to the terminal it was started on. */
static size_t find_terminals(struct seatbelt_terminals *t)
{
    size_t n = 0;
    for (int fd = 0; fd <= 2; fd++) {
        if (!isatty(fd) || ttyname_r(fd, t->names[n], sizeof t->names[n]) != 0)
            continue;
        t->ptrs[n] = t->names[n];
        n++;
    }
    return n;
}

void seatbelt_input(struct sandbox_ctx *ctx, struct seatbelt_terminals *t, struct sbpl_input *in)
{
    *in = (struct sbpl_input){
        .policy = ctx->policy,
        .cwd = ctx->cwd,
        .proxy_ports = ctx->loopback_grants,
        .proxy_port_count = ctx->loopback_grant_count,
        .terminals = t->ptrs,
        .terminal_count = find_terminals(t),
        .canon = sbpl_canonicalize,
        .canon_arg = NULL,
    };
}

static enum sandbox_result build_profile(struct sandbox_ctx *ctx, struct seatbelt_state *st)
{
    struct seatbelt_terminals t;
    struct sbpl_input in;
    seatbelt_input(ctx, &t, &in);
    char err[SANDBOX_ERROR_MAX];
    switch (sbpl_profile_build(&in, &st->profile, err, sizeof err)) {
    case SBPL_OK: return SANDBOX_OK;
    case SBPL_NONE: return sandbox_fail(ctx, "no Seatbelt profile for a restricted policy (generator bug)");
    default: return sandbox_fail(ctx, "cannot build the Seatbelt profile: %s", err);
    }
}

/* What the core did for itself, again in the forked child: whether macOS
 * carries PT_DENY_ATTACH over fork is not documented, so it is not relied
 * on, and the core-dump limit is re-set so the child never depends on what
 * it inherited. */
static enum sandbox_result protect_child(struct sandbox_ctx *ctx)
{
    struct rlimit none = {0, 0};
    if (setrlimit(RLIMIT_CORE, &none) != 0)
        return sandbox_fail(ctx,
                            "cannot disable core dumps in the workload process "
                            "(setrlimit RLIMIT_CORE): %s",
                            strerror(errno));
    if (ptrace(PT_DENY_ATTACH, 0, 0, 0) != 0)
        return sandbox_fail(ctx,
                            "cannot deny debugger attachment in the workload process "
                            "(ptrace PT_DENY_ATTACH): %s",
                            strerror(errno));
    return SANDBOX_OK;
}

/*
 * With a proxy the supervisor must outlive the workload: it is the egress
 * process's parent, and the two end together when the workload ends.  So
 * the workload runs as a child whose status the parent reproduces.  The
 * egress process was forked and its front-ends bound in prepare(), before
 * this fork and before any sandbox_init.
 */
static enum sandbox_result split_for_proxy(struct sandbox_ctx *ctx)
{
    pid_t pid = fork();
    if (pid < 0)
        return sandbox_fail(ctx, "cannot fork the workload process: %s", strerror(errno));
    if (pid > 0) {
        ctx->monitor.pid = pid;
        ctx->monitor.status_fd = -1; /* the child dies of the workload's own signal */
        return SANDBOX_SUPERVISE;
    }
    return protect_child(ctx);
}

static enum sandbox_result seatbelt_enter(struct sandbox_ctx *ctx)
{
    struct seatbelt_state *st = state_of(ctx);
    if (!st)
        return SANDBOX_OK; /* full_access */
    if (build_profile(ctx, st) != SANDBOX_OK)
        return SANDBOX_FAIL;
    if (ctx->policy->network.has_outgoing_proxy)
        return split_for_proxy(ctx);
    return SANDBOX_OK;
}

/* sandbox_init's message can span lines; the supervisor speaks in one. */
static void one_line(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = ' ';
}

static enum sandbox_result seatbelt_harden(struct sandbox_ctx *ctx)
{
    struct seatbelt_state *st = state_of(ctx);
    if (!st)
        return SANDBOX_OK; /* full_access */
    /* The profile names the workspace by path: that path must still lead
     * to the directory the supervisor was started in (backend.h, cwd_fd). */
    char moved[SANDBOX_ERROR_MAX];
    if (sandbox_cwd_check(ctx, moved, sizeof moved) != 0)
        return sandbox_fail(ctx, "%s", moved);
    char *error = NULL;
    if (sandbox_init(st->profile, SEATBELT_PROFILE_STRING, &error) != 0) {
        char why[SANDBOX_ERROR_MAX];
        snprintf(why, sizeof why, "%s", error ? error : "no reason given");
        if (error)
            sandbox_free_error(error);
        one_line(why);
        return sandbox_fail(ctx, "sandbox_init refused the generated profile: %s", why);
    }
    free(st->profile);
    st->profile = NULL;
    return SANDBOX_OK;
}

SANDBOX_BACKEND_DEFINE(seatbelt_backend) = {
    .abi = SANDBOX_BACKEND_ABI,
    .name = "seatbelt",
    .summary = "the macOS Seatbelt sandbox",
    .order = 100,
    .enforces = SANDBOX_ENFORCES_FILESYSTEM | SANDBOX_ENFORCES_NO_EGRESS | SANDBOX_ENFORCES_NO_LOCAL_BIND,
    /* The profile opens the granted loopback ports and no other; with a
     * proxy, enter() keeps the parent outside (split_for_proxy). */
    .offers = SANDBOX_OFFER_LOOPBACK_GRANTS | SANDBOX_OFFER_SUPERVISED,
    .prepare = seatbelt_prepare,
    .enter = seatbelt_enter,
    .harden = seatbelt_harden,
    .explain = seatbelt_explain,
};
