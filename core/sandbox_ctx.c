/*
 * sandbox_ctx.c — the helpers backend.h promises: failure messages and the
 * workload's environment.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backend.h"
#include "explain_collect.h"
#include "wipe.h"

enum sandbox_result sandbox_fail(struct sandbox_ctx *ctx, const char *fmt, ...)
{
    static const char cut[] = "...(truncated)";
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(ctx->error, sizeof ctx->error, fmt, ap);
    va_end(ap);
    /* Never cut silently: a longer message says that it was. */
    if (n >= (int)sizeof ctx->error)
        memcpy(ctx->error + sizeof ctx->error - sizeof cut, cut, sizeof cut);
    return SANDBOX_FAIL;
}

bool sandbox_is_cwd(const struct sandbox_ctx *ctx, const struct stat *st)
{
    return S_ISDIR(st->st_mode) && st->st_dev == ctx->cwd_dev && st->st_ino == ctx->cwd_ino;
}

void sandbox_cwd_moved(const struct sandbox_ctx *ctx, char *err, size_t errlen)
{
    snprintf(err, errlen,
             "working directory %s: that path no longer leads to the directory the supervisor was "
             "started in (it, or a directory above it, was renamed or replaced while the sandbox was "
             "set up); stop whatever renames it and start again from the workspace",
             ctx->cwd);
}

int sandbox_cwd_check(const struct sandbox_ctx *ctx, char *err, size_t errlen)
{
    struct stat st;
    if (stat(ctx->cwd, &st) != 0) {
        if (errno != ENOENT && errno != ENOTDIR) {
            snprintf(err, errlen, "working directory %s: %s", ctx->cwd, strerror(errno));
            return -1;
        }
        st.st_mode = 0; /* gone from its name: moved */
    }
    if (sandbox_is_cwd(ctx, &st))
        return 0;
    sandbox_cwd_moved(ctx, err, errlen);
    return -1;
}

enum sandbox_result sandbox_hook_noop(struct sandbox_ctx *ctx)
{
    (void)ctx;
    return SANDBOX_OK;
}

/* Index of NAME in ctx->env, or env_count. */
static size_t env_find(const struct sandbox_ctx *ctx, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < ctx->env_count; i++)
        if (strncmp(ctx->env[i], name, n) == 0 && ctx->env[i][n] == '=')
            return i;
    return ctx->env_count;
}

const char *sandbox_env_get(const struct sandbox_ctx *ctx, const char *name)
{
    size_t i = env_find(ctx, name);
    return i < ctx->env_count ? ctx->env[i] + strlen(name) + 1 : NULL;
}

int sandbox_env_set(struct sandbox_ctx *ctx, const char *name, const char *value)
{
    size_t len = strlen(name) + strlen(value) + 2;
    char *entry = malloc(len);
    if (!entry)
        return -1;
    snprintf(entry, len, "%s=%s", name, value);
    size_t i = env_find(ctx, name);
    if (i < ctx->env_count) {
        free(ctx->env[i]);
        ctx->env[i] = entry;
        return 0;
    }
    char **grown = realloc(ctx->env, (ctx->env_count + 2) * sizeof *grown);
    if (!grown) {
        free(entry);
        return -1;
    }
    ctx->env = grown;
    ctx->env[ctx->env_count++] = entry;
    ctx->env[ctx->env_count] = NULL;
    return 0;
}

void sandbox_env_unset(struct sandbox_ctx *ctx, const char *name)
{
    size_t i;
    /* One copy at most: environment_capture() keeps one entry per name, and
     * sandbox_env_set() replaces it. */
    if ((i = env_find(ctx, name)) < ctx->env_count) {
        free(ctx->env[i]);
        memmove(&ctx->env[i], &ctx->env[i + 1], (ctx->env_count - i) * sizeof ctx->env[0]);
        ctx->env_count--;
    }
}

int sandbox_grant_loopback_port(struct sandbox_ctx *ctx, unsigned short port)
{
    if (ctx->loopback_grant_count == SANDBOX_MAX_LOOPBACK_GRANTS)
        return -1;
    ctx->loopback_grants[ctx->loopback_grant_count++] = port;
    return 0;
}

void sandbox_wipe(void *p, size_t n)
{
    wipe_secret(p, n);
}

/* ---- explain() (backend.h) ------------------------------------------ */

enum sandbox_result sandbox_explain_noop(struct sandbox_ctx *ctx, struct sandbox_explain *out)
{
    (void)ctx;
    (void)out;
    return SANDBOX_OK;
}

__attribute__((format(printf, 1, 0))) static char *format_text(const char *fmt, va_list ap)
{
    char buf[EXPLAIN_TEXT_MAX];
    vsnprintf(buf, sizeof buf, fmt, ap);
    return strdup(buf);
}

void sandbox_explain_add(struct sandbox_ctx *ctx, struct sandbox_explain *out, const char *kind,
                         const char *subject, const char *how_fmt, ...)
{
    struct explain_collect *c = out->core;
    if (c->count == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 32;
        struct explain_item *grown = realloc(c->items, cap * sizeof *grown);
        if (!grown) {
            c->out_of_memory = true;
            return;
        }
        c->items = grown;
        c->cap = cap;
    }
    va_list ap;
    va_start(ap, how_fmt);
    struct explain_item it = {c->names[ctx->current], strdup(kind), strdup(subject ? subject : ""),
                              format_text(how_fmt, ap)};
    va_end(ap);
    if (!it.kind || !it.subject || !it.how) {
        free(it.kind);
        free(it.subject);
        free(it.how);
        c->out_of_memory = true;
        return;
    }
    c->items[c->count++] = it;
}

void sandbox_explain_verdict(struct sandbox_ctx *ctx, struct sandbox_explain *out, size_t i, bool allowed,
                             const char *rule_fmt, ...)
{
    struct explain_collect *c = out->core;
    if (i >= out->query_count)
        return;
    struct explain_answer *a = &c->answers[i];
    /* A refusal wins; among allowances the last backend's (the innermost
     * rule: the proxy after the namespace) is kept. */
    if (a->verdict == SANDBOX_VERDICT_REFUSED)
        return;
    va_list ap;
    va_start(ap, rule_fmt);
    char *rule = format_text(rule_fmt, ap);
    va_end(ap);
    if (!rule) {
        c->out_of_memory = true;
        return;
    }
    free(a->rule);
    a->rule = rule;
    a->verdict = allowed ? SANDBOX_VERDICT_ALLOWED : SANDBOX_VERDICT_REFUSED;
    a->backend = c->names[ctx->current];
}
