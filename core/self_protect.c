#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#if HAVE_DECL_PR_SET_DUMPABLE
#include <sys/prctl.h>
#endif
#if HAVE_DECL_PT_DENY_ATTACH
#include <sys/ptrace.h>
#endif

#include "self_protect.h"

extern char **environ;

/* Length of the name of "NAME=VALUE" (the whole entry if it has no '='). */
static size_t name_len(const char *entry)
{
    return strcspn(entry, "=");
}

/* Positions sorted by name, then by position. */
static const char *const *sort_env;
static int by_name_then_position(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    size_t ni = name_len(sort_env[i]), nj = name_len(sort_env[j]);
    int c = strncmp(sort_env[i], sort_env[j], ni < nj ? ni : nj);
    if (c == 0 && ni != nj)
        c = ni < nj ? -1 : 1;
    return c != 0 ? c : (i < j ? -1 : 1);
}

/* Drop every entry whose name comes again later; returns the new count, or
 * (size_t)-1 when out of memory.  A hand-built environment can hold a name
 * twice, and programs disagree on which copy counts (getenv() takes the
 * first; sh, Python and Node the last): a backend masking the socket of the
 * first SSH_AUTH_SOCK left the last one to the workload.  Decided once,
 * here, before any backend reads the environment: the last copy stays,
 * which is what shells and most runtimes use. */
static size_t keep_last_of_each_name(char **env, size_t n)
{
    size_t *pos = malloc((n ? n : 1) * sizeof *pos);
    if (!pos)
        return (size_t)-1;
    for (size_t i = 0; i < n; i++)
        pos[i] = i;
    sort_env = (const char *const *)env;
    qsort(pos, n, sizeof *pos, by_name_then_position);
    for (size_t k = 0; k + 1 < n; k++) {
        const char *a = env[pos[k]], *b = env[pos[k + 1]];
        size_t na = name_len(a);
        if (na == name_len(b) && strncmp(a, b, na) == 0) {
            free(env[pos[k]]);
            env[pos[k]] = NULL; /* an earlier copy of the next one's name */
        }
    }
    free(pos);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (env[i])
            env[kept++] = env[i];
    env[kept] = NULL;
    return kept;
}

char **environment_capture(size_t *count)
{
    size_t n = 0;
    while (environ && environ[n])
        n++;
    char **copy = calloc(n + 1, sizeof *copy);
    if (!copy)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        if (!(copy[i] = strdup(environ[i]))) {
            while (i--)
                free(copy[i]);
            free(copy);
            return NULL;
        }
    }
    if ((n = keep_last_of_each_name(copy, n)) == (size_t)-1) {
        for (size_t i = 0; copy[i]; i++)
            free(copy[i]);
        free(copy);
        return NULL;
    }
    *count = n;
    return copy;
}

static int is_loader_variable(const char *entry)
{
    return strncmp(entry, "LD_", 3) == 0 || strncmp(entry, "DYLD_", 5) == 0;
}

/* Compact environ in place (what unsetenv does), so entries of any length
 * and malformed ones without '=' go too. */
static void scrub_loader_variables(void)
{
    if (!environ)
        return;
    size_t w = 0;
    for (size_t r = 0; environ[r]; r++)
        if (!is_loader_variable(environ[r]))
            environ[w++] = environ[r];
    environ[w] = NULL;
}

int self_protect(char *err, size_t errlen)
{
    struct rlimit none = {0, 0};
    if (setrlimit(RLIMIT_CORE, &none) != 0) {
        snprintf(err, errlen, "cannot disable core dumps (setrlimit RLIMIT_CORE): %s", strerror(errno));
        return -1;
    }
#if HAVE_DECL_PR_SET_DUMPABLE
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
        snprintf(err, errlen, "cannot make the supervisor non-dumpable (prctl PR_SET_DUMPABLE): %s",
                 strerror(errno));
        return -1;
    }
#endif
#if HAVE_DECL_PT_DENY_ATTACH
    if (ptrace(PT_DENY_ATTACH, 0, 0, 0) != 0) {
        snprintf(err, errlen, "cannot deny debugger attachment (ptrace PT_DENY_ATTACH): %s", strerror(errno));
        return -1;
    }
#endif
    scrub_loader_variables();
    return 0;
}
