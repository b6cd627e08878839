/*
 * device_filter.h — which device numbers a cgroup's processes may open
 * (device_filter.c).
 *
 * The kernel checks a device node's number, not its path, at every open
 * and mknod (devcgroup_inode_permission): a cgroup device program decides
 * for a node anywhere -- in a workspace, a build root, an extracted image
 * -- where a path rule only fences the paths it names.  On cgroup v2 it is
 * a BPF program of type BPF_PROG_TYPE_CGROUP_DEVICE attached to the group;
 * loading and attaching one needs CAP_NET_ADMIN and CAP_BPF (or
 * CAP_SYS_ADMIN), so this is for root callers.
 */
#ifndef HAS_DEVICE_FILTER_H
#define HAS_DEVICE_FILTER_H

#include <stddef.h>
#include <sys/types.h>

/* A device the filter lets through: a character device unless `block`. */
struct device_number {
    dev_t rdev;
    int block;
};

/* Room for the devices one filter allows (fs_ruleset's six, the caller's
 * terminals, a policy's grants). */
#define DEVICE_FILTER_MAX 64

/*
 * Attach to the cgroup v2 directory `group_fd` a program that lets its
 * processes open or make only the `n` devices in `allowed` (every access:
 * the path rules decide which of them may be read or written).  Programs
 * of the group's ancestors still apply (BPF_F_ALLOW_MULTI): it can only
 * narrow.  0, or -1 with errno and `err` (EPERM: this caller may not).
 */
int device_filter_attach(int group_fd, const struct device_number *allowed, size_t n, char *err,
                         size_t errlen);

/* The program for `allowed` loaded and dropped, attached nowhere: whether
 * this caller may (for --explain).  0, or -1 with errno and `err`. */
int device_filter_loadable(const struct device_number *allowed, size_t n, char *err, size_t errlen);

/*
 * Whether a device controller already in force here (a container
 * runtime's) refuses devices nobody gave it: a block node for loop0 made
 * in a fresh directory of `tmp_dir` is opened.  1 refused by the
 * controller (EPERM), 0 it opened or failed past the controller, -1 the
 * probe could not run; `err` says which.
 */
int device_filter_probe(const char *tmp_dir, char *err, size_t errlen);

#endif
