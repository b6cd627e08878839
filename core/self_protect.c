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
