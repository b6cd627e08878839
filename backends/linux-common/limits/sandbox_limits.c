/*
 * sandbox_limits.c — the policy's limits on Linux (sandbox_limits.h).
 */
#include "config.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "limits/sandbox_limits.h"
#include "limits/shared_rlimits.h"
#include "linux_common.h"
#include "policy_paths.h"

#define FIX "run under `systemd-run --user --scope -p Delegate=yes ...`, or as root on a cgroup v2 host"

/* The controllers the limits need from a group. */
static unsigned needed_controllers(const struct policy_limits *w, bool nproc_ok)
{
    return (w->memory_bytes ? CGROUP_MEMORY : 0u) | (w->processes && !nproc_ok ? CGROUP_PIDS : 0u);
}

static int configure(struct sandbox_limits *l, bool pids, char *err, size_t errlen)
{
    const struct cgroup_group *g = &l->group;
    char v[32];
    if (pids) {
        snprintf(v, sizeof v, "%llu", l->want.processes);
        if (cgroup_set(g, "pids.max", v, err, errlen) != 0)
            return -1;
    }
    if (!l->want.memory_bytes)
        return 0;
    snprintf(v, sizeof v, "%llu", l->want.memory_bytes);
    /* No swap beyond memory.max; swap accounting off: no such file. */
    if (cgroup_set(g, "memory.max", v, err, errlen) != 0 ||
        cgroup_set(g, "memory.oom.group", "1", err, errlen) != 0)
        return -1;
    return cgroup_has(g, "memory.swap.max") ? cgroup_set(g, "memory.swap.max", "0", err, errlen) : 0;
}

/* The message for a limit this host cannot bound. */
static int refuse(const char *limit, const char *controller, const char *why, const char *extra, char *err,
                  size_t errlen)
{
    snprintf(err, errlen,
             "limits.%s needs a cgroup v2 group with the %s controller that the caller may create, "
             "and none can be made here (%s)%s: " FIX,
             limit, controller, why, extra);
    return -1;
}

/* Whether `root`, resolved as the caller sees it, and `dir` lie one at or
 * beneath the other. */
static bool overlaps(const char *root, const char *dir)
{
    char real[PATH_MAX];
    const char *r = realpath(root, real) ? real : root;
    return policy_path_at_or_beneath(r, dir) || policy_path_at_or_beneath(dir, r);
}

/* A writable root of the policy that reaches `dir`, the directory holding
 * the group, or NULL.  From there the workload could raise the group's
 * limits or move itself out of it (cgroup.procs of the common ancestor). */
static const char *writable_over_group(const struct sandbox_ctx *ctx, const char *dir)
{
    if (policy_mode_writes_cwd(ctx->policy->mode) && overlaps(ctx->cwd, dir))
        return ctx->cwd;
    const struct string_list *w = &ctx->policy->allowed_write_paths;
    for (size_t i = 0; i < w->count; i++)
        if (overlaps(w->items[i], dir))
            return w->items[i];
    return NULL;
}

/* limits.openFiles above the caller's hard limit: setrlimit would fail. */
static int refuse_open_files(const struct policy_limits *w, char *err, size_t errlen)
{
    struct rlimit nofile;
    if (!w->open_files || getrlimit(RLIMIT_NOFILE, &nofile) != 0 || nofile.rlim_max == RLIM_INFINITY ||
        w->open_files <= nofile.rlim_max)
        return 0;
    snprintf(err, errlen,
             "limits.openFiles %llu is above the caller's hard limit of open files (%llu): "
             "lower it, or raise the caller's (ulimit -Hn)",
             w->open_files, (unsigned long long)nofile.rlim_max);
    return -1;
}

/* A group with every controller the limits name (pure), or else with those
 * left when RLIMIT_NPROC bounds the processes (need); why: why none. */
static void find_group(struct limits_plan *out, unsigned pure, unsigned need, bool kill_switch, char *why,
                       size_t whylen)
{
    if ((pure || kill_switch) &&
        cgroup_where(pure, out->group_dir, sizeof out->group_dir, why, whylen) == 0) {
        out->grouped = true;
        out->controllers = pure;
    }
    if (!out->grouped && pure != need && (need || kill_switch) &&
        cgroup_where(need, out->group_dir, sizeof out->group_dir, why, whylen) == 0) {
        out->grouped = true;
        out->controllers = need;
    }
}

/* Not a group the workload can write: none at all, and the limits that
 * need one are refused, naming the path. */
static void drop_writable_group(const struct sandbox_ctx *ctx, struct limits_plan *out, char *why,
                                size_t whylen)
{
    const char *over = out->grouped ? writable_over_group(ctx, out->group_dir) : NULL;
    if (!over)
        return;
    out->grouped = false;
    out->controllers = 0;
    snprintf(why, whylen,
             "the policy makes '%s' writable, which reaches the group's cgroup directory; "
             "leave the cgroup file system out of the writable paths",
             over);
}

/* Why RLIMIT_NPROC cannot stand in for the pids controller here. */
static const char *nproc_unfit(bool own_userns)
{
    if (!own_userns)
        return "; this backend has no user namespace in which RLIMIT_NPROC would count the sandbox alone";
    return geteuid() == 0 ? "; RLIMIT_NPROC, the other way, does not bind a root caller"
                          : "; RLIMIT_NPROC, the other way, counts the sandbox alone from Linux 5.14";
}

int sandbox_limits_decide(const struct sandbox_ctx *ctx, bool own_userns, bool kill_switch,
                          struct limits_plan *out, char *err, size_t errlen)
{
    *out = (struct limits_plan){.want = ctx->policy->limits};
    const struct policy_limits *w = &out->want;
    if (refuse_open_files(w, err, errlen) != 0)
        return -1;
    /* The kernel exempts a task of the host's uid 0 from RLIMIT_NPROC, and
     * before 5.14 counts every process of the caller's uid against it, not
     * the sandbox's user namespace alone. */
    bool nproc_ok = own_userns && geteuid() != 0 && kernel_at_least(5, 14);
    unsigned pure = needed_controllers(w, false), need = needed_controllers(w, nproc_ok);
    char why[SANDBOX_ERROR_MAX] = "";
    find_group(out, pure, need, kill_switch, why, sizeof why);
    drop_writable_group(ctx, out, why, sizeof why);
    bool pids = out->grouped && (out->controllers & CGROUP_PIDS);
    if (w->memory_bytes && !out->grouped)
        return refuse("memoryBytes", "memory", why, "", err, errlen);
    if (w->processes && !pids && !nproc_ok)
        return refuse("processes", "pids", why, nproc_unfit(own_userns), err, errlen);
    /* The sandbox's init has the workload's uid in the namespace: it counts too. */
    if (w->processes && !pids)
        out->nproc = w->processes + 1;
    return 0;
}

enum sandbox_result sandbox_limits_explain(struct sandbox_ctx *ctx, struct sandbox_explain *out,
                                           bool own_userns, bool kill_switch)
{
    struct limits_plan plan;
    char err[SANDBOX_ERROR_MAX];
    if (sandbox_limits_decide(ctx, own_userns, kill_switch, &plan, err, sizeof err) != 0)
        return sandbox_fail(ctx, "%s", err);
    const struct policy_limits *w = &plan.want;
    if (w->open_files)
        sandbox_explain_add(ctx, out, "limit", "openFiles", "openFiles %llu: RLIMIT_NOFILE", w->open_files);
    if (w->processes && plan.nproc)
        sandbox_explain_add(ctx, out, "limit", "processes",
                            "processes %llu: RLIMIT_NPROC in the sandbox's user "
                            "namespace",
                            w->processes);
    else if (w->processes)
        sandbox_explain_add(ctx, out, "limit", "processes",
                            "processes %llu: pids.max of a cgroup v2 group in %s", w->processes,
                            plan.group_dir);
    if (w->memory_bytes)
        sandbox_explain_add(ctx, out, "limit", "memoryBytes",
                            "memoryBytes %llu: memory.max of a cgroup v2 group "
                            "in %s (no swap beyond it; reached, the whole tree is killed)",
                            w->memory_bytes, plan.group_dir);
    shared_rlimits_explain(ctx, out, own_userns);
    return SANDBOX_OK;
}

int sandbox_limits_prepare(struct sandbox_limits *l, const struct sandbox_ctx *ctx, bool own_userns,
                           bool kill_switch, char *err, size_t errlen)
{
    *l = (struct sandbox_limits){.want = ctx->policy->limits, .report_fd = ctx->report_fd};
    struct limits_plan plan;
    if (sandbox_limits_decide(ctx, own_userns, kill_switch, &plan, err, errlen) != 0)
        return -1;
    l->nproc = plan.nproc;
    if (!plan.grouped)
        return 0;
    char why[SANDBOX_ERROR_MAX];
    bool needed = plan.controllers != 0; /* else only the kill switch */
    if (cgroup_make(plan.controllers, &l->group, why, sizeof why) != 0) {
        if (!needed)
            return 0;
        snprintf(err, errlen, "limits: cannot make the cgroup v2 group: %s", why);
        return -1;
    }
    l->grouped = true;
    /* Made where decided (the writable-root check was of that directory). */
    char made[PATH_MAX];
    snprintf(made, sizeof made, "%s", l->group.path);
    if (strcmp(dirname(made), plan.group_dir) != 0) {
        snprintf(err, errlen, "limits: the cgroup v2 group was made in %s, not in %s as decided",
                 l->group.path, plan.group_dir);
        cgroup_end(&l->group);
        l->grouped = false;
        return -1;
    }
    return configure(l, (plan.controllers & CGROUP_PIDS) != 0, err, errlen);
}

pid_t sandbox_limits_fork(const struct sandbox_limits *l, bool *joined)
{
    *joined = false;
    return l->grouped ? cgroup_fork_into(&l->group, joined) : fork();
}

int sandbox_limits_enter(const struct sandbox_limits *l, bool joined, char *err, size_t errlen)
{
    if (l->grouped && !joined && cgroup_join(&l->group, err, errlen) != 0)
        return -1;
    if (l->grouped) {
        close(l->group.procs_fd);
        close(l->group.dir_fd);
    }
    struct rlimit r;
    if (l->want.open_files) {
        r.rlim_cur = r.rlim_max = (rlim_t)l->want.open_files;
        if (setrlimit(RLIMIT_NOFILE, &r) != 0) {
            snprintf(err, errlen, "cannot set limits.openFiles (RLIMIT_NOFILE %llu): %s", l->want.open_files,
                     strerror(errno));
            return -1;
        }
    }
    if (l->nproc) {
        r.rlim_cur = r.rlim_max = (rlim_t)l->nproc;
        if (setrlimit(RLIMIT_NPROC, &r) != 0) {
            snprintf(err, errlen, "cannot set limits.processes (RLIMIT_NPROC %llu): %s", l->nproc,
                     strerror(errno));
            return -1;
        }
    }
    return 0;
}

size_t sandbox_limits_fds(const struct sandbox_limits *l, int *fds)
{
    return l->grouped ? cgroup_fds(&l->group, fds) : 0;
}

/* What a limit-reached line says (README.md, "Refusal report"). */
struct reached {
    const char *limit;
    unsigned long long value, count;
};

static void reached_fields(struct report_line *line, const void *arg)
{
    const struct reached *r = arg;
    report_field_string(line, "limit", r->limit, 32);
    report_field_uint(line, "value", r->value);
    report_field_uint(line, "count", r->count);
}

bool sandbox_limits_end(const struct sandbox_limits *l)
{
    if (!l->grouped)
        return false;
    const struct cgroup_group *g = &l->group;
    unsigned long long oom = cgroup_event_count(g->memory_events_fd, "oom_kill");
    unsigned long long forks = cgroup_event_count(g->pids_events_fd, "max");
    if (oom) {
        diag("the sandbox reached limits.memoryBytes (%llu bytes): the kernel killed its processes (%llu OOM "
             "kill%s)",
             l->want.memory_bytes, oom, oom == 1 ? "" : "s");
        report_write(l->report_fd, "limit-reached", reached_fields,
                     &(struct reached){"memoryBytes", l->want.memory_bytes, oom});
    }
    if (forks) {
        diag("the sandbox reached limits.processes (%llu): fork failed with EAGAIN %llu time%s",
             l->want.processes, forks, forks == 1 ? "" : "s");
        report_write(l->report_fd, "limit-reached", reached_fields,
                     &(struct reached){"processes", l->want.processes, forks});
    }
    /* Something of the sandbox still runs: this kill ends it. */
    bool left = cgroup_event_count(g->events_fd, "populated") != 0;
    /* The tree ends now; waiting for the group to empty and removing it
     * is the keeper's, once the supervisor has gone, off the caller's wait. */
    cgroup_kill(g);
    return left;
}
