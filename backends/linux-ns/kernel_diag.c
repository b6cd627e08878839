/*
 * kernel_diag.c — when the kernel refuses to create or use the user
 * namespace, say which setting is the cause and how to change it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "linux_ns.h"

/* First byte of a /proc/sys value, or 0 when the file does not exist. */
static char sysctl_first(const char *path)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return 0;
    int c = fgetc(f);
    fclose(f);
    return c == EOF ? 0 : (char)c;
}

static int in_seccomp_filter(void)
{
    FILE *f = fopen("/proc/self/status", "re");
    if (!f)
        return 0;
    char line[256];
    int filtered = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "Seccomp:", 8) == 0)
            filtered = strchr(line, '2') != NULL;
    fclose(f);
    return filtered;
}

static int in_container(void)
{
    return access("/.dockerenv", F_OK) == 0 || access("/run/.containerenv", F_OK) == 0;
}

static const char *alternatives = "";

void kernel_diag_set_alternatives(const char *text)
{
    alternatives = text ? text : "";
}

void kernel_diag_userns(const char *step, int error, char *buf, size_t buflen)
{
    const char *why;
    if (sysctl_first("/proc/sys/kernel/unprivileged_userns_clone") == '0')
        why = "unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone = 0); "
              "fix: sysctl -w kernel.unprivileged_userns_clone=1";
    /* A count limit is ENOSPC; another refusal (EPERM from a seccomp
     * filter) is not this one, even where the limit is 0 too (inside a
     * sandbox: userns_limits.c). */
    else if (error == ENOSPC && sysctl_first("/proc/sys/user/max_user_namespaces") == '0')
        why = "user namespaces are disabled (user.max_user_namespaces = 0); "
              "fix: sysctl -w user.max_user_namespaces=15000";
    else if (error == ENOSPC)
        why =
            "the limit on user namespaces is reached (user.max_user_namespaces) or namespaces nest too deep";
    /* Writing the namespace's own limits (userns_limits.c) where /proc/sys
     * is mounted read-only: a container runtime's masked /proc. */
    else if (error == EROFS)
        why = "/proc/sys is read-only here (a container runtime's /proc); fix: run the container with "
              "--security-opt systempaths=unconfined";
    else if (sysctl_first("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == '1')
        why =
            "AppArmor restricts unprivileged user namespaces (Ubuntu 23.10+: "
            "kernel.apparmor_restrict_unprivileged_userns = 1); fix: install an AppArmor profile for "
            "this binary that allows 'userns,', or sysctl -w kernel.apparmor_restrict_unprivileged_userns=0";
    else if (in_container() || in_seccomp_filter())
        why = "running in a container whose default seccomp/AppArmor profile forbids namespaces; fix: run "
              "the container with --security-opt seccomp=unconfined --security-opt apparmor=unconfined "
              "(and --security-opt systempaths=unconfined for the private /proc)";
    else if (error == EINVAL)
        why = "the kernel lacks user, PID or network namespace support (CONFIG_USER_NS, CONFIG_PID_NS, "
              "CONFIG_NET_NS)";
    else
        why = "the kernel refused the user namespace";
    /* The host, not the policy, is what refuses here: where the build has a
     * sandbox backend that needs no namespace, it is the other way out. */
    snprintf(buf, buflen, "%s: %s: %s%s%s", step, strerror(error), why,
             *alternatives ? "; or, without namespaces: " : "", alternatives);
}
