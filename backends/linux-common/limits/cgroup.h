/*
 * cgroup.h — a cgroup v2 group of the sandbox's own (cgroup.c).
 *
 * Made by the supervisor in prepare(), next to the caller's own cgroup,
 * where the caller may make one: a child of it, or else a sibling (a
 * systemd user scope with Delegate=yes, root on a cgroup v2 host, a
 * container with its own cgroup tree).  The workload writes itself into it
 * right after its fork, before it can fork anything; the middle process,
 * outside it, ends the whole tree with cgroup.kill when the workload has
 * ended; a keeper process, outside too, does the same when the supervisor
 * has gone, however it went (SIGKILL included), so nothing of the tree
 * outlives it, and then removes the group.
 */
#ifndef HAS_CGROUP_H
#define HAS_CGROUP_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Controllers a group may need (bits). */
enum cgroup_controller {
    CGROUP_MEMORY = 1u << 0,
    CGROUP_PIDS = 1u << 1,
};

struct cgroup_group {
    int parent_fd;        /* the directory the group is in */
    int dir_fd;           /* the group itself, to fork the workload into it */
    int procs_fd;         /* its cgroup.procs, for a workload forked outside to join */
    int kill_fd;          /* its cgroup.kill */
    int events_fd;        /* its cgroup.events ("populated 0": the tree ended) */
    int memory_events_fd; /* memory.events, or -1 */
    int pids_events_fd;   /* pids.events, or -1 */
    char name[48];        /* has-PID-RANDOM */
    char path[PATH_MAX];  /* where it is, for messages */
};

/*
 * Make a group with `controllers` and the kill switch (Linux >= 5.14), and
 * fork its keeper.  0, or -1 with `why` saying why none can be made here
 * (no cgroup2 mount, a controller missing, no writable place).
 */
int cgroup_make(unsigned controllers, struct cgroup_group *g, char *why, size_t whylen);

/* cgroup_make()'s checks alone, making nothing: the directory a group with
 * `controllers` would be made in, or -1 with `why` (the same words). */
int cgroup_where(unsigned controllers, char *dir, size_t dirlen, char *why, size_t whylen);

/* Write a control file of the group ("memory.max", "123").  -1 with err. */
int cgroup_set(const struct cgroup_group *g, const char *file, const char *value, char *err, size_t errlen);

/* Whether the group has a control file (memory.swap.max needs swap accounting). */
bool cgroup_has(const struct cgroup_group *g, const char *file);

/* fork(), with the child born in the group (clone3 CLONE_INTO_CGROUP,
 * Linux >= 5.7): *joined true.  Where clone3 is refused (a container's
 * seccomp profile answers ENOSYS), a plain fork(), *joined false: the
 * child must cgroup_join() before anything else. */
pid_t cgroup_fork_into(const struct cgroup_group *g, bool *joined);

/* In the workload, before anything else: join the group.  -1 with err. */
int cgroup_join(const struct cgroup_group *g, char *err, size_t errlen);

/* "key N" of a *.events file, 0 when absent or unreadable. */
unsigned long long cgroup_event_count(int events_fd, const char *key);

/* SIGKILL to everything in the group (cgroup.kill): none of it runs again.
 * False when the group is gone already. */
bool cgroup_kill(const struct cgroup_group *g);

/* cgroup_kill(), then wait (bounded) until the group is empty and remove
 * it.  For the keeper, once the supervisor has gone. */
void cgroup_end(const struct cgroup_group *g);

/* How many descriptors of the group the middle process keeps, at most:
 * the parent directory, cgroup.kill, cgroup.events, memory.events and
 * pids.events. */
#define CGROUP_KEPT_FDS 5
/* Those descriptors into fds[], in no order; returns how many. */
size_t cgroup_fds(const struct cgroup_group *g, int *fds);

#endif
