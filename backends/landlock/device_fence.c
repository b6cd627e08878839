/*
 * device_fence.c — device nodes outside /dev, for a root caller.
 *
 * The ruleset fences the path /dev; a node is a number, and the same
 * number made anywhere else (a build root's dev/, an extracted image, the
 * workspace) opens wherever the read or write right reaches it.  Landlock
 * has no right for a node's type (LANDLOCK_ACCESS_FS_IOCTL_DEV covers its
 * ioctls only), and the mounts those nodes are on are rarely nodev.  What
 * judges a node by its number is the kernel's device controller, at every
 * open: so the launch's cgroup v2 group gets a device program that lets
 * through only the devices the ruleset grants in /dev.
 *
 * Only a root caller needs it: it opens any node, whatever its mode.  An
 * ordinary caller's workload opens a node only where the node's mode lets
 * the caller's uid or groups in, and only root can have made it.  A root
 * caller that may not attach a program (a container without CAP_NET_ADMIN
 * and CAP_BPF) runs only where a device controller is already in force
 * (the runtime's: it refuses a node of a device the container was not
 * given), or where it cannot make a node itself (no CAP_MKNOD: nothing
 * run by it can, and the nodes there came with the image or a bind mount,
 * as far as the runtime lets them open); elsewhere the launch is refused.
 */
#include "config.h"

#include <cap-ng.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "landlock.h"

/* Where the probe may make its node; a nodev mount shows nothing, so the
 * next is tried. */
static const char *const probe_dirs[] = {"/tmp", "/var/tmp", NULL};

/* 1: a device controller in force refuses an ungranted device; else 0
 * with `why` saying what the probes found. */
static int controller_in_force(char *why, size_t len)
{
    size_t at = 0;
    why[0] = '\0';
    for (size_t i = 0; probe_dirs[i]; i++) {
        char found[512];
        int rc = device_filter_probe(probe_dirs[i], found, sizeof found);
        if (rc == 1)
            return 1;
        int n = snprintf(why + at, len - at, "%s%s", at ? "; " : "", found);
        if (n > 0 && (size_t)n < len - at)
            at += (size_t)n;
        if (rc == 0)
            break; /* a node opened: no controller, whatever the next says */
    }
    return 0;
}

/* uid 0 of the host's user namespace: uid 0 of a namespace of its own is
 * an ordinary user of the host to the device nodes (and may make none). */
static bool host_root(void)
{
    if (geteuid() != 0)
        return false;
    FILE *f = fopen("/proc/self/uid_map", "re");
    unsigned long inside = 1, outside = 1, count = 0;
    bool identity = f && fscanf(f, "%lu %lu %lu", &inside, &outside, &count) == 3 && inside == 0 &&
                    outside == 0 && count == 4294967295UL;
    if (f)
        fclose(f);
    return identity;
}

/* CAP_MKNOD in this process's effective set. */
static bool can_make_nodes(void)
{
    capng_clear(CAPNG_SELECT_BOTH);
    return capng_get_caps_process() == 0 && capng_have_capability(CAPNG_EFFECTIVE, CAP_MKNOD);
}

static int refuse(const char *filter_why, const char *probe_why, char *err, size_t errlen)
{
    snprintf(err, errlen,
             "a root caller's workload could open device nodes outside /dev (a disk's node in a "
             "build root reads every denied file), and nothing here refuses them: %s; %s. Run as an ordinary "
             "user, or use the linux-ns backend",
             filter_why, probe_why);
    return -1;
}

int device_fence_apply(const struct sandbox_limits *l, const struct fs_lists *fs, char *err, size_t errlen)
{
    if (!host_root())
        return 0;
    struct device_number allowed[DEVICE_FILTER_MAX];
    size_t n = fs_granted_devices(fs, allowed, DEVICE_FILTER_MAX);
    char filter_why[SANDBOX_ERROR_MAX], probe_why[SANDBOX_ERROR_MAX];
    if (!l->grouped)
        snprintf(filter_why, sizeof filter_why,
                 "no cgroup v2 group of the launch's own (none can be made here, or a writable root reaches "
                 "where it would be)");
    else if (device_filter_attach(l->group.dir_fd, allowed, n, filter_why, sizeof filter_why) == 0)
        return 0;
    else if (errno != EPERM && errno != EACCES)
        return refuse(filter_why, "not probed", err, errlen);
    if (!can_make_nodes() || controller_in_force(probe_why, sizeof probe_why))
        return 0;
    return refuse(filter_why, probe_why, err, errlen);
}

int device_fence_describe(const struct fs_lists *fs, char *text, size_t len, char *err, size_t errlen)
{
    if (!host_root()) {
        snprintf(text, len,
                 "an ordinary caller: a node outside /dev opens only where its mode lets the caller in");
        return 0;
    }
    struct device_number allowed[DEVICE_FILTER_MAX];
    size_t n = fs_granted_devices(fs, allowed, DEVICE_FILTER_MAX);
    char group_dir[4096], filter_why[SANDBOX_ERROR_MAX], probe_why[SANDBOX_ERROR_MAX];
    if (cgroup_where(0, group_dir, sizeof group_dir, filter_why, sizeof filter_why) == 0 &&
        device_filter_loadable(allowed, n, filter_why, sizeof filter_why) == 0) {
        snprintf(text, len,
                 "a cgroup device program on the launch's group in %s: only the %zu devices granted in /dev "
                 "open, wherever their nodes are",
                 group_dir, n);
        return 0;
    }
    if (!can_make_nodes()) {
        snprintf(text, len,
                 "this root caller cannot make a node (no CAP_MKNOD) nor attach a device program (%s): "
                 "nodes that came with the image or a bind mount open as far as the runtime's device "
                 "controller lets them",
                 filter_why);
        return 0;
    }
    if (controller_in_force(probe_why, sizeof probe_why)) {
        snprintf(text, len, "the device controller already in force here (%s) refuses ungranted devices",
                 filter_why);
        return 0;
    }
    return refuse(filter_why, probe_why, err, errlen);
}
