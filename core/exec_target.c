#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "exec_target.h"

/* Used when the workload has no PATH at all: the directories every system
 * has, without the current directory. */
#define DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

void exec_target(const struct sandbox_ctx *ctx)
{
    const char *name = ctx->argv[0];
    if (strchr(name, '/')) {
        execve(name, ctx->argv, ctx->env);
        diag_fatal("cannot execute '%s': %s", name, strerror(errno));
    }
    const char *path = sandbox_env_get(ctx, "PATH");
    if (!path)
        path = DEFAULT_PATH;
    /* Like execvp(3), except that ENOEXEC is not retried through /bin/sh
     * (the supervisor never puts a shell between the caller and the target)
     * and the search uses the workload's PATH, not the supervisor's. */
    int best = ENOENT;
    for (const char *dir = path;;) {
        const char *end = strchr(dir, ':');
        size_t dlen = end ? (size_t)(end - dir) : strlen(dir);
        char full[PATH_MAX];
        int n = dlen ? snprintf(full, sizeof full, "%.*s/%s", (int)dlen, dir, name)
                     : snprintf(full, sizeof full, "%s", name); /* "" means "." */
        if (n > 0 && (size_t)n < sizeof full) {
            execve(full, ctx->argv, ctx->env);
            /* Found but not runnable is the more useful reason, but only
             * for a file that exists: EACCES from an unsearchable PATH
             * directory means "not there" for this user. */
            struct stat st;
            if (errno != ENOENT && errno != ENOTDIR && errno != ENAMETOOLONG &&
                (errno != EACCES || stat(full, &st) == 0))
                best = errno;
        }
        if (!end)
            break;
        dir = end + 1;
    }
    if (best == ENOENT)
        diag_fatal("cannot execute '%s': not found in PATH (%s)", name, path);
    diag_fatal("cannot execute '%s': %s", name, strerror(best));
}
