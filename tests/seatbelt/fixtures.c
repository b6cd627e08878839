/*
 * fixtures.c — TEST ONLY (see fixtures.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fixtures.h"

void fixture_init(struct fixture *f, enum policy_mode mode)
{
    memset(f, 0, sizeof *f);
    f->policy.mode = mode;
    f->cwd = FIXTURE_CWD;
}

struct string_list fixture_list(const char *const *items, size_t count)
{
    struct string_list l = {(char **)(void *)items, count};
    return l;
}

static const struct {
    const char *from, *to;
} canon_map[] = {
    {"/var", "/private/var"},
    {"/tmp", "/private/tmp"},
    {"/etc", "/private/etc"},
    {"/Users/me/project/link", "/Users/me/vault"},
};

int fixture_canon(const char *path, char *out, size_t outlen, void *arg)
{
    (void)arg;
    if (strstr(path, "UNRESOLVABLE")) {
        errno = EACCES;
        return -1;
    }
    const char *prefix = "", *rest = path;
    for (size_t i = 0; i < sizeof canon_map / sizeof canon_map[0]; i++) {
        size_t n = strlen(canon_map[i].from);
        if (strncmp(path, canon_map[i].from, n) == 0 && (path[n] == '\0' || path[n] == '/')) {
            prefix = canon_map[i].to;
            rest = path + n;
            break;
        }
    }
    int n = snprintf(out, outlen, "%s%s", prefix, rest);
    if (n < 0 || (size_t)n >= outlen) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

enum sbpl_status fixture_build(const struct fixture *f, char **profile, char *err, size_t errlen)
{
    struct sbpl_input in = {
        .policy = &f->policy,
        .cwd = f->cwd,
        .proxy_ports = f->ports,
        .proxy_port_count = f->port_count,
        .terminals = f->terminals,
        .terminal_count = f->terminal_count,
        .canon = fixture_canon,
        .canon_arg = NULL,
    };
    return sbpl_profile_build(&in, profile, err, errlen);
}
