/*
 * sbpl_rules.c — from policy + launch facts to the sets the profile names
 * (see sbpl_rules.h).  Every failure names the list and index of the path,
 * never the path itself: a hostile path must not shape the error line.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "policy_paths.h"
#include "sbpl_escape.h"
#include "sbpl_rules.h"

struct collector {
    const struct sbpl_input *in;
    struct sbpl_rules *rules;
    char *err;
    size_t errlen;
};

static int fail(struct collector *c, const char *what, size_t index, const char *why)
{
    snprintf(c->err, c->errlen, "%s[%zu]: %s", what, index, why);
    return -1;
}

static int add(struct collector *c, struct sbpl_pathset *set, const char *path)
{
    if (sbpl_pathset_add(set, path) == 0)
        return 0;
    snprintf(c->err, c->errlen, "out of memory building the Seatbelt profile");
    return -1;
}

/*
 * Check `path` and write its canonical form to `canon`.  Both forms must be
 * absolute and representable as SBPL string literals.
 */
static int canonical(struct collector *c, const char *what, size_t index, const char *path,
                     char canon[PATH_MAX])
{
    if (path[0] != '/')
        return fail(c, what, index, "is not an absolute path");
    const char *problem = sbpl_string_problem(path);
    if (problem)
        return fail(c, what, index, problem);
    if (c->in->canon(path, canon, PATH_MAX, c->in->canon_arg) != 0) {
        char why[128];
        snprintf(why, sizeof why, "cannot be resolved: %s", strerror(errno));
        return fail(c, what, index, why);
    }
    if (canon[0] != '/')
        return fail(c, what, index, "resolved to a relative path");
    if ((problem = sbpl_string_problem(canon)))
        return fail(c, what, index, problem);
    return 0;
}

/* Add the given and the canonical form of every path in `list` to `set`
 * (a denial names both, so it holds whichever the kernel reports). */
static int add_both_forms(struct collector *c, const char *what, const struct string_list *list,
                          struct sbpl_pathset *set)
{
    char canon[PATH_MAX];
    for (size_t i = 0; i < list->count; i++) {
        if (canonical(c, what, i, list->items[i], canon) != 0)
            return -1;
        if (add(c, set, list->items[i]) != 0 || add(c, set, canon) != 0)
            return -1;
    }
    return 0;
}

/* Add only the canonical form (a grant is never widened to a name the
 * kernel does not report). */
static int add_canonical(struct collector *c, const char *what, size_t index, const char *path,
                         struct sbpl_pathset *set)
{
    char canon[PATH_MAX];
    if (canonical(c, what, index, path, canon) != 0)
        return -1;
    return add(c, set, canon);
}

static bool within_a_root(const struct sbpl_rules *r, const char *path)
{
    for (size_t i = 0; i < r->write_roots.count; i++)
        if (policy_path_at_or_beneath(path, r->write_roots.items[i]))
            return true;
    return false;
}

/* Every proper ancestor of every write-denied path that a root contains. */
static int guard_ancestors(struct collector *c)
{
    struct sbpl_rules *r = c->rules;
    char parent[PATH_MAX];
    for (size_t i = 0; i < r->write_denied.count; i++) {
        const char *denied = r->write_denied.items[i];
        if (strlen(denied) >= sizeof parent) {
            snprintf(c->err, c->errlen, "a denied path is longer than PATH_MAX");
            return -1;
        }
        memcpy(parent, denied, strlen(denied) + 1);
        while (strcmp(parent, "/") != 0) {
            char *slash = strrchr(parent, '/');
            slash[slash == parent ? 1 : 0] = '\0';
            if (within_a_root(r, parent) && add(c, &r->write_guarded, parent) != 0)
                return -1;
        }
    }
    return 0;
}

static int collect_filesystem(struct collector *c)
{
    const struct policy *p = c->in->policy;
    struct sbpl_rules *r = c->rules;
    if (add_both_forms(c, "deniedReadPaths", &p->denied_read_paths, &r->read_denied) != 0 ||
        add_both_forms(c, "deniedWritePaths", &p->denied_write_paths, &r->write_denied) != 0 ||
        add_both_forms(c, "deniedReadPaths", &p->denied_read_paths, &r->write_denied) != 0)
        return -1;
    if (policy_mode_writes_cwd(p->mode) &&
        add_canonical(c, "working directory", 0, c->in->cwd, &r->write_roots) != 0)
        return -1;
    for (size_t i = 0; i < p->allowed_write_paths.count; i++)
        if (add_canonical(c, "allowedWritePaths", i, p->allowed_write_paths.items[i], &r->write_roots) != 0)
            return -1;
    for (size_t i = 0; i < c->in->terminal_count; i++)
        if (add_canonical(c, "terminal", i, c->in->terminals[i], &r->terminals) != 0)
            return -1;
    /* Not started on a terminal: then /dev/tty, if it opens at all, is the
     * controlling terminal of whoever started the agent, and reading it
     * would take that user's keystrokes. */
    if (c->in->terminal_count == 0 && add(c, &r->read_denied, SBPL_CONTROLLING_TTY) != 0)
        return -1;
    static const char *const privileged[] = SBPL_PRIVILEGE_PROGRAMS;
    for (size_t i = 0; i < r->read_denied.count; i++)
        if (add(c, &r->exec_denied, r->read_denied.items[i]) != 0)
            return -1;
    for (size_t i = 0; i < sizeof privileged / sizeof privileged[0]; i++)
        if (add(c, &r->exec_denied, privileged[i]) != 0)
            return -1;
    return guard_ancestors(c);
}

static int collect_network(struct collector *c)
{
    const struct policy_network *n = &c->in->policy->network;
    struct sbpl_rules *r = c->rules;
    r->local_binding = n->local_binding;
    if (!n->has_outgoing_proxy) {
        r->net = n->egress ? SBPL_NET_EGRESS : SBPL_NET_NONE;
        r->certificate_verification = n->egress;
        return 0;
    }
    r->net = SBPL_NET_PROXY;
    r->certificate_verification = n->unproxied_certificate_fetches;
    if (c->in->proxy_port_count == 0 || c->in->proxy_port_count > SBPL_MAX_PORTS) {
        snprintf(c->err, c->errlen,
                 "network.outgoingProxy is set but the egress backend reported %zu front-end "
                 "ports (expected 1 to %d)",
                 c->in->proxy_port_count, SBPL_MAX_PORTS);
        return -1;
    }
    for (size_t i = 0; i < c->in->proxy_port_count; i++) {
        if (c->in->proxy_ports[i] == 0) {
            snprintf(c->err, c->errlen, "proxy front-end %zu has port 0 (egress backend bug)", i);
            return -1;
        }
        r->ports[r->port_count++] = c->in->proxy_ports[i];
    }
    return 0;
}

int sbpl_rules_collect(const struct sbpl_input *in, struct sbpl_rules *rules, char *err, size_t errlen)
{
    memset(rules, 0, sizeof *rules);
    struct collector c = {in, rules, err, errlen};
    if (in->policy->mode == POLICY_MODE_FULL_ACCESS) {
        snprintf(err, errlen, "full_access has no Seatbelt profile (generator misuse)");
        return -1;
    }
    if (collect_filesystem(&c) != 0 || collect_network(&c) != 0) {
        sbpl_rules_free(rules);
        return -1;
    }
    return 0;
}

void sbpl_rules_free(struct sbpl_rules *rules)
{
    sbpl_pathset_free(&rules->read_denied);
    sbpl_pathset_free(&rules->exec_denied);
    sbpl_pathset_free(&rules->write_roots);
    sbpl_pathset_free(&rules->write_denied);
    sbpl_pathset_free(&rules->write_guarded);
    sbpl_pathset_free(&rules->terminals);
}
