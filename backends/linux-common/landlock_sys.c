/*
 * landlock_sys.c — the Landlock system calls (no libc wrapper exists) and
 * the ABI the running kernel offers: linux-ns uses the scopes as a second
 * layer, the landlock backend the whole ruleset (backends/landlock).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "landlock_sys.h"
#include "linux_common.h"

int landlock_abi(void)
{
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi > 0 ? (int)abi : 0; /* ENOSYS: not built; EOPNOTSUPP: not enabled at boot */
}

int landlock_create_ruleset(const struct landlock_ruleset_attr *attr)
{
    return (int)syscall(SYS_landlock_create_ruleset, attr, sizeof *attr, 0);
}

int landlock_add_rule(int ruleset, enum landlock_rule_type type, const void *rule)
{
    return (int)syscall(SYS_landlock_add_rule, ruleset, type, rule, 0);
}

int landlock_restrict_self(int ruleset)
{
    return (int)syscall(SYS_landlock_restrict_self, ruleset, 0);
}

int landlock_scope_ipc(char *err, size_t errlen)
{
    int abi = landlock_abi();
    if (abi < 6) /* no Landlock, disabled, or no scopes (ABI 6 = Linux 6.12) */
        return 0;
    struct landlock_ruleset_attr attr = {
        .scoped = LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL,
    };
    int fd = landlock_create_ruleset(&attr);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create the Landlock scope ruleset (ABI %d): %s", abi, strerror(errno));
        return -1;
    }
    int rc = landlock_restrict_self(fd);
    int e = errno;
    close(fd);
    if (rc != 0) {
        snprintf(err, errlen, "cannot enter the Landlock scope (landlock_restrict_self): %s", strerror(e));
        return -1;
    }
    return 0;
}
