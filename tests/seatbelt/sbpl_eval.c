/*
 * sbpl_eval.c — TEST ONLY model of Seatbelt rule matching (see sbpl_eval.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <regex.h>
#include <string.h>

#include "policy_paths.h"
#include "sbpl_eval.h"

enum match { NO, YES, UNKNOWN };

static bool is_symbol(const struct sbpl_node *n, const char *s)
{
    return n->kind == SBPL_NODE_SYMBOL && strcmp(n->text, s) == 0;
}

/* One-argument filter's string argument, or NULL. */
static const char *string_arg(const struct sbpl_node *f)
{
    if (f->count != 2 || f->items[1]->kind != SBPL_NODE_STRING)
        return NULL;
    return f->items[1]->text;
}

/* "host:port" against a request's host and port. */
static enum match address(const char *spec, const char *host, unsigned port)
{
    if (!spec || !host)
        return spec ? NO : UNKNOWN;
    const char *colon = strrchr(spec, ':');
    if (!colon)
        return UNKNOWN;
    size_t hlen = (size_t)(colon - spec);
    bool host_ok = (hlen == 1 && spec[0] == '*') ||
                   (hlen == 9 && strncmp(spec, "localhost", 9) == 0 && strcmp(host, "localhost") == 0);
    if (!(hlen == 1 && spec[0] == '*') && !(hlen == 9 && strncmp(spec, "localhost", 9) == 0))
        return UNKNOWN; /* Seatbelt accepts only * or localhost as the host */
    bool port_ok = strcmp(colon + 1, "*") == 0 || strtoul(colon + 1, NULL, 10) == port;
    return host_ok && port_ok ? YES : NO;
}

static enum match filter(const struct sbpl_node *f, const struct sbpl_request *q);

static enum match combine(const struct sbpl_node *f, const struct sbpl_request *q, bool all)
{
    for (size_t i = 1; i < f->count; i++) {
        enum match m = filter(f->items[i], q);
        if (m == UNKNOWN)
            return UNKNOWN;
        if (all && m == NO)
            return NO;
        if (!all && m == YES)
            return YES;
    }
    return all ? YES : NO;
}

static enum match ip_filter(const struct sbpl_node *f, const struct sbpl_request *q, bool remote)
{
    if (f->count != 3 || !is_symbol(f->items[1], "ip") || f->items[2]->kind != SBPL_NODE_STRING)
        return UNKNOWN;
    const char *host = remote ? q->remote_host : q->local_host;
    if (!host)
        return NO;
    return address(f->items[2]->text, host, q->port);
}

/* SBPL's (regex "...") as a POSIX extended expression, the model's reading. */
static enum match regex_match(const char *pattern, const char *path)
{
    regex_t re;
    if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
        return UNKNOWN;
    int r = regexec(&re, path, 0, NULL, 0);
    regfree(&re);
    return r == 0 ? YES : NO;
}

static enum match filter(const struct sbpl_node *f, const struct sbpl_request *q);

/* One filter kind: f is the whole (name ...) list, arg its string or NULL. */
typedef enum match (*filter_fn)(const struct sbpl_node *f, const struct sbpl_request *q, const char *arg);

static enum match f_require_all(const struct sbpl_node *f, const struct sbpl_request *q, const char *arg)
{
    (void)arg;
    return combine(f, q, true);
}

static enum match f_require_any(const struct sbpl_node *f, const struct sbpl_request *q, const char *arg)
{
    (void)arg;
    return combine(f, q, false);
}

static enum match f_require_not(const struct sbpl_node *f, const struct sbpl_request *q, const char *arg)
{
    (void)arg;
    if (f->count != 2)
        return UNKNOWN;
    enum match m = filter(f->items[1], q);
    return m == UNKNOWN ? UNKNOWN : m == YES ? NO : YES;
}

static enum match f_literal(const struct sbpl_node *f, const struct sbpl_request *q, const char *arg)
{
    (void)f;
    if (!arg)
        return UNKNOWN;
    return q->path && strcmp(q->path, arg) == 0 ? YES : NO;
}

static enum match f_subpath(const struct sbpl_node *f, const struct sbpl_request *q, const char *arg)
{
    (void)f;
    if (!arg)
        return UNKNOWN;
    return q->path && policy_path_at_or_beneath(q->path, arg) ? YES : NO;
}

static enum match f_regex(const struct sbpl_node *f, const struct sbpl_request *q, const char *arg)
{
    (void)f;
    if (!arg)
        return UNKNOWN;
    return q->path ? regex_match(arg, q->path) : NO;
}

/* The model's workload holds no sandbox extension (the pty one is
 * issued only for a pseudo-terminal the sandbox itself created). */
static enum match f_extension(const struct sbpl_node *f, const struct sbpl_request *q, const char *arg)
{
    (void)f;
    (void)q;
    return arg ? NO : UNKNOWN;
}

static enum match f_global_name(const struct sbpl_node *f, const struct sbpl_request *q, const char *arg)
{
    (void)f;
    if (!arg)
        return UNKNOWN;
    return q->global_name && strcmp(q->global_name, arg) == 0 ? YES : NO;
}

static enum match f_vnode_type(const struct sbpl_node *f, const struct sbpl_request *q, const char *arg)
{
    (void)arg;
    if (f->count != 2 || !is_symbol(f->items[1], "CHARACTER-DEVICE"))
        return UNKNOWN;
    return q->char_device ? YES : NO;
}

static enum match f_target(const struct sbpl_node *f, const struct sbpl_request *q, const char *arg)
{
    (void)arg;
    if (f->count != 2 || !is_symbol(f->items[1], "same-sandbox"))
        return UNKNOWN;
    return q->same_sandbox ? YES : NO;
}

static enum match f_remote(const struct sbpl_node *f, const struct sbpl_request *q, const char *arg)
{
    (void)arg;
    return ip_filter(f, q, true);
}

static enum match f_local(const struct sbpl_node *f, const struct sbpl_request *q, const char *arg)
{
    (void)arg;
    return ip_filter(f, q, false);
}

static const struct {
    const char *name;
    filter_fn fn;
} filters[] = {
    {"require-all", f_require_all}, {"require-any", f_require_any}, {"require-not", f_require_not},
    {"literal", f_literal},         {"subpath", f_subpath},         {"regex", f_regex},
    {"extension", f_extension},     {"global-name", f_global_name}, {"vnode-type", f_vnode_type},
    {"target", f_target},           {"remote", f_remote},           {"local", f_local},
};

/* A filter the model does not know is UNKNOWN, never a guess. */
static enum match filter(const struct sbpl_node *f, const struct sbpl_request *q)
{
    if (f->kind != SBPL_NODE_LIST || f->count == 0 || f->items[0]->kind != SBPL_NODE_SYMBOL)
        return UNKNOWN;
    const char *name = f->items[0]->text;
    for (size_t i = 0; i < sizeof filters / sizeof filters[0]; i++)
        if (strcmp(name, filters[i].name) == 0)
            return filters[i].fn(f, q, string_arg(f));
    return UNKNOWN;
}

/* Does the operation symbol `op` name the request's operation? */
static bool names_operation(const char *op, const char *requested)
{
    size_t n = strlen(op);
    if (n > 0 && op[n - 1] == '*')
        return strncmp(op, requested, n - 1) == 0;
    return strcmp(op, requested) == 0;
}

/* YES if the rule (allow|deny OP... FILTER...) applies to the request. */
static enum match rule_applies(const struct sbpl_node *rule, const struct sbpl_request *q, bool *is_default)
{
    bool op_matches = false;
    size_t i = 1;
    *is_default = false;
    for (; i < rule->count && rule->items[i]->kind == SBPL_NODE_SYMBOL; i++) {
        if (strcmp(rule->items[i]->text, "default") == 0)
            *is_default = true;
        else if (names_operation(rule->items[i]->text, q->operation))
            op_matches = true;
    }
    if (*is_default)
        return i == rule->count ? YES : UNKNOWN;
    if (i == 1)
        return UNKNOWN; /* no operation named */
    if (!op_matches)
        return NO;
    if (i == rule->count)
        return YES; /* no filter: every instance of the operation */
    for (; i < rule->count; i++) {
        enum match m = filter(rule->items[i], q); /* filters of one rule: any */
        if (m != NO)
            return m;
    }
    return NO;
}

enum sbpl_verdict sbpl_eval(const struct sbpl_read *profile, const struct sbpl_request *q,
                            enum sbpl_precedence precedence)
{
    enum sbpl_verdict last = SBPL_EVAL_UNKNOWN, fallback = SBPL_EVAL_UNKNOWN;
    bool any_allow = false, any_deny = false;
    for (size_t r = 0; r < profile->top->count; r++) {
        const struct sbpl_node *rule = profile->top->items[r];
        if (rule->count >= 1 && is_symbol(rule->items[0], "version"))
            continue;
        bool allow = rule->count >= 2 && is_symbol(rule->items[0], "allow");
        bool deny = rule->count >= 2 && is_symbol(rule->items[0], "deny");
        if (!allow && !deny)
            return SBPL_EVAL_UNKNOWN;
        bool is_default;
        enum match m = rule_applies(rule, q, &is_default);
        if (m == UNKNOWN)
            return SBPL_EVAL_UNKNOWN;
        if (m == NO)
            continue;
        enum sbpl_verdict v = allow ? SBPL_EVAL_ALLOW : SBPL_EVAL_DENY;
        last = v;
        if (is_default)
            fallback = v;
        else if (allow)
            any_allow = true;
        else
            any_deny = true;
    }
    if (precedence == SBPL_LAST_MATCH_WINS)
        return last;
    if (precedence == SBPL_ALLOWS_ONLY)
        return any_allow ? SBPL_EVAL_ALLOW : SBPL_EVAL_DENY;
    if (any_deny)
        return SBPL_EVAL_DENY;
    return any_allow ? SBPL_EVAL_ALLOW : fallback;
}
