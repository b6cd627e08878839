/*
 * cgroup.c — a cgroup v2 group of the sandbox's own (cgroup.h).
 *
 * Where: the cgroup2 mount that /proc/self/mountinfo lists, and in it the
 * caller's own cgroup (/proc/self/cgroup, the "0::" line).  The group is
 * made as a child of that cgroup when it offers the controllers to its
 * children (the root cgroup; any cgroup for a group that needs none), else
 * as a sibling, in its parent (a delegated systemd scope cannot offer
 * controllers to a child of its own while the caller is in it).  The
 * caller must be able to write cgroup.procs of the directory it is made
 * in: that is the kernel's test for moving the workload there.  cgroup v1
 * controllers are not used: a host that has them only there gets none.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "limits/cgroup.h"
#include "linux_common.h"

/* How long the tree may take to die after cgroup.kill. */
#define CGROUP_END_MS 10000
/* How often cgroup_end looks again meanwhile: cgroup.events' POLLPRI alone
 * does not always come -- keepers were found asleep in poll() for their
 * whole 10 s with the group empty (populated 0), the group left behind
 * when the test looked (limits.sh under load, on Linux 6.18). */
#define CGROUP_END_RECHECK_MS 50

static const char *const controller_names[] = {"memory", "pids"};

static int mount_is_cgroup2(const struct mount_info *m, void *arg)
{
    if (strcmp(m->fstype, "cgroup2") != 0)
        return 0;
    snprintf(arg, PATH_MAX, "%s", m->point);
    return 1;
}

/* The caller's cgroup v2 path ("/a/b") into `own`; -1 when it has none. */
static int own_cgroup(char *own, size_t len)
{
    FILE *f = fopen("/proc/self/cgroup", "re");
    if (!f)
        return -1;
    char line[PATH_MAX + 8];
    int rc = -1;
    while (rc != 0 && fgets(line, sizeof line, f))
        if (strncmp(line, "0::/", 4) == 0) {
            line[strcspn(line, "\n")] = '\0';
            size_t n = strlen(line + 3);
            if (n < len) {
                memcpy(own, line + 3, n + 1);
                rc = 0;
            }
        }
    fclose(f);
    return rc;
}

/* The whole of a small control file of `dir` into buf; -1 on failure. */
static int read_at(int dir, const char *file, char *buf, size_t len)
{
    int fd = openat(dir, file, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);
    if (fd >= 0)
        close(fd);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    return 0;
}

/* Whether the word `name` is in the space-separated `list`. */
static bool has_word(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' || p[n] == '\0'))
            return true;
    return false;
}

/* The first of `controllers` that `dir` does not offer its children, or NULL. */
static const char *missing_controller(int dir, unsigned controllers)
{
    char list[512];
    if (read_at(dir, "cgroup.subtree_control", list, sizeof list) != 0)
        list[0] = '\0';
    for (size_t i = 0; i < sizeof controller_names / sizeof controller_names[0]; i++)
        if ((controllers & (1u << i)) && !has_word(list, controller_names[i]))
            return controller_names[i];
    return NULL;
}

static int open_in(const struct cgroup_group *g, const char *file, int flags)
{
    char rel[sizeof g->name + 32];
    snprintf(rel, sizeof rel, "%s/%s", g->name, file);
    return openat(g->parent_fd, rel, flags | O_CLOEXEC);
}

/* The group's descriptors; a file the kernel lacks (cgroup.kill before
 * 5.14) fails it. */
static int open_files(struct cgroup_group *g, unsigned controllers, char *why, size_t whylen)
{
    g->dir_fd = open_in(g, ".", O_RDONLY | O_DIRECTORY);
    g->procs_fd = open_in(g, "cgroup.procs", O_WRONLY);
    g->kill_fd = open_in(g, "cgroup.kill", O_WRONLY);
    g->events_fd = open_in(g, "cgroup.events", O_RDONLY);
    g->memory_events_fd = controllers & CGROUP_MEMORY ? open_in(g, "memory.events", O_RDONLY) : -1;
    g->pids_events_fd = controllers & CGROUP_PIDS ? open_in(g, "pids.events", O_RDONLY) : -1;
    if (g->dir_fd < 0 || g->procs_fd < 0 || g->events_fd < 0 ||
        ((controllers & CGROUP_MEMORY) && g->memory_events_fd < 0) ||
        ((controllers & CGROUP_PIDS) && g->pids_events_fd < 0)) {
        snprintf(why, whylen, "cannot open the control files of %s: %s", g->path, strerror(errno));
        return -1;
    }
    if (g->kill_fd < 0) {
        snprintf(why, whylen, "%s has no cgroup.kill (it needs Linux >= 5.14): %s", g->path, strerror(errno));
        return -1;
    }
    return 0;
}

static void close_files(struct cgroup_group *g)
{
    int *fds[] = {&g->dir_fd,    &g->procs_fd,         &g->kill_fd,
                  &g->events_fd, &g->memory_events_fd, &g->pids_events_fd};
    for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
        if (*fds[i] >= 0)
            close(*fds[i]), *fds[i] = -1;
}

/* Whether a group with `controllers` may be made in the cgroup at `rel`
 * under `mnt`: its directory into `dir` and, open, into *fd.  -1 with why. */
static int check_in(const char *mnt, const char *rel, unsigned controllers, char *dir, size_t dirlen,
                    int *fd_out, char *why, size_t whylen)
{
    snprintf(dir, dirlen, "%s%s", mnt, strcmp(rel, "/") == 0 ? "" : rel);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    const char *missing = fd < 0 ? NULL : missing_controller(fd, controllers);
    if (fd < 0 || missing || faccessat(fd, "cgroup.procs", W_OK, AT_EACCESS) != 0) {
        if (fd < 0 || !missing)
            snprintf(why, whylen, "the caller may not move processes in %s (%s)", dir, strerror(errno));
        else
            snprintf(why, whylen, "%s does not offer the %s controller to a group in it", dir, missing);
        if (fd >= 0)
            close(fd);
        return -1;
    }
    *fd_out = fd;
    return 0;
}

/* Make the group in `dir` (open as `fd`, which the group keeps). */
static int make_at(int fd, const char *dir, unsigned controllers, struct cgroup_group *g, char *why,
                   size_t whylen)
{
    unsigned long long r = 0;
    if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r)
        r = (unsigned long long)time(NULL) ^ (unsigned long long)clock();
    snprintf(g->name, sizeof g->name, "has-%ld-%08llx", (long)getpid(), r & 0xffffffffull);
    if (strlen(dir) + strlen(g->name) + 2 > sizeof g->path) {
        snprintf(why, whylen, "the cgroup path %s is too long", dir);
        close(fd);
        return -1;
    }
    memcpy(g->path, dir, strlen(dir));
    g->path[strlen(dir)] = '/';
    memcpy(g->path + strlen(dir) + 1, g->name, strlen(g->name) + 1);
    if (mkdirat(fd, g->name, 0755) != 0) {
        snprintf(why, whylen, "cannot create %s: %s", g->path, strerror(errno));
        close(fd);
        return -1;
    }
    g->parent_fd = fd;
    if (open_files(g, controllers, why, whylen) != 0) {
        close_files(g);
        unlinkat(fd, g->name, AT_REMOVEDIR);
        close(fd);
        return -1;
    }
    return 0;
}

/* The checks of one place, then (with `g`) the group made there. */
static int at_place(const char *mnt, const char *rel, unsigned controllers, struct cgroup_group *g, char *dir,
                    size_t dirlen, char *why, size_t whylen)
{
    int fd;
    if (check_in(mnt, rel, controllers, dir, dirlen, &fd, why, whylen) != 0)
        return -1;
    if (!g) {
        close(fd);
        return 0;
    }
    return make_at(fd, dir, controllers, g, why, whylen);
}

/* The keeper: waits for the supervisor's end (EOF on `lifeline`), then
 * ends what is left in the group and removes it.  Out of the caller's
 * session, deaf to the signals a terminal or the caller send a group. */
__attribute__((noreturn)) static void keeper_main(const struct cgroup_group *g, int lifeline)
{
    int keep[4] = {g->parent_fd, g->kill_fd, g->events_fd, lifeline};
    char err[256], b;
    if (fd_close_except_unsorted(keep, 4, err, sizeof err) != 0)
        _exit(1);
    setsid();
    /* Not the caller's terminal or pipes: a caller reading to EOF waits
     * for the supervisor, not for this. */
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    for (int fd = 0; null >= 0 && fd < 3; fd++)
        dup2(null, fd);
    int deaf[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU};
    for (size_t i = 0; i < sizeof deaf / sizeof deaf[0]; i++)
        signal(deaf[i], SIG_IGN);
    while (read(lifeline, &b, 1) != 0 && (errno == EINTR || errno == EAGAIN))
        ;
    cgroup_end(g);
    _exit(0);
}

/* The supervisor's end of the keeper's lifeline: closed at its exit. */
static int keeper_lifeline = -1;

static int fork_keeper(const struct cgroup_group *g, char *why, size_t whylen)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) {
        snprintf(why, whylen, "cannot create the pipe to the keeper of %s: %s", g->path, strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(p[1]);
        keeper_main(g, p[0]);
    }
    close(p[0]);
    if (pid < 0) {
        snprintf(why, whylen, "cannot fork the keeper of %s: %s", g->path, strerror(errno));
        close(p[1]);
        return -1;
    }
    keeper_lifeline = p[1];
    return 0;
}

/* Where a group would be made (cgroup.h's order), and with `g` make it. */
static int place(unsigned controllers, struct cgroup_group *g, char *dir, size_t dirlen, char *why,
                 size_t whylen)
{
    char mnt[PATH_MAX], own[PATH_MAX], err[256];
    /* Without cgroup.kill no single write ends the whole tree; said here,
     * before a launch relies on a group it could not make. */
    if (!kernel_at_least(5, 14)) {
        snprintf(why, whylen, "the group's kill switch, cgroup.kill, needs Linux >= 5.14");
        return -1;
    }
    int found = mountinfo_each(mount_is_cgroup2, mnt, err, sizeof err);
    if (found <= 0) {
        snprintf(why, whylen, "%s", found < 0 ? err : "no cgroup2 file system is mounted");
        return -1;
    }
    if (own_cgroup(own, sizeof own) != 0) {
        snprintf(why, whylen,
                 "this process is in no cgroup v2 group (/proc/self/cgroup has no \"0::\" line)");
        return -1;
    }
    /* A child of the caller's cgroup, else a sibling of it. */
    int rc = at_place(mnt, own, controllers, g, dir, dirlen, why, whylen);
    char *slash = strrchr(own, '/');
    if (rc != 0 && slash && strcmp(own, "/") != 0) {
        char first[512];
        snprintf(first, sizeof first, "%s", why);
        *(slash == own ? slash + 1 : slash) = '\0';
        if ((rc = at_place(mnt, own, controllers, g, dir, dirlen, why, whylen)) != 0) {
            size_t n = strlen(why);
            snprintf(why + n, whylen - n, "; %s", first);
        }
    }
    return rc;
}

int cgroup_where(unsigned controllers, char *dir, size_t dirlen, char *why, size_t whylen)
{
    return place(controllers, NULL, dir, dirlen, why, whylen);
}

int cgroup_make(unsigned controllers, struct cgroup_group *g, char *why, size_t whylen)
{
    char dir[PATH_MAX];
    *g = (struct cgroup_group){.parent_fd = -1,
                               .dir_fd = -1,
                               .procs_fd = -1,
                               .kill_fd = -1,
                               .events_fd = -1,
                               .memory_events_fd = -1,
                               .pids_events_fd = -1};
    int rc = place(controllers, g, dir, sizeof dir, why, whylen);
    if (rc == 0 && (rc = fork_keeper(g, why, whylen)) != 0) {
        close_files(g);
        unlinkat(g->parent_fd, g->name, AT_REMOVEDIR);
        close(g->parent_fd);
    }
    return rc;
}

int cgroup_set(const struct cgroup_group *g, const char *file, const char *value, char *err, size_t errlen)
{
    int fd = open_in(g, file, O_WRONLY);
    size_t n = strlen(value);
    ssize_t w = fd < 0 ? -1 : write(fd, value, n);
    int e = errno;
    if (fd >= 0)
        close(fd);
    if (w != (ssize_t)n) {
        snprintf(err, errlen, "cannot write %s to %s/%s: %s", value, g->path, file,
                 w < 0 ? strerror(e) : "short write");
        return -1;
    }
    return 0;
}

bool cgroup_has(const struct cgroup_group *g, const char *file)
{
    char rel[sizeof g->name + 32];
    snprintf(rel, sizeof rel, "%s/%s", g->name, file);
    return faccessat(g->parent_fd, rel, F_OK, 0) == 0;
}

#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#define HAS_CLONE_INTO_CGROUP 0x200000000ULL

/* struct clone_args as far as its `cgroup` (CLONE_ARGS_SIZE_VER2), for
 * libcs whose headers lack it. */
struct has_clone_args {
    unsigned long long flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid,
        set_tid_size, cgroup;
};

pid_t cgroup_fork_into(const struct cgroup_group *g, bool *joined)
{
    /* Born in the group: no write to cgroup.procs, whose migration waits
     * for an RCU grace period (~10 ms a launch here). */
    struct has_clone_args a = {
        .flags = HAS_CLONE_INTO_CGROUP, .exit_signal = SIGCHLD, .cgroup = (unsigned long long)g->dir_fd};
    long pid = syscall(SYS_clone3, &a, sizeof a);
    *joined = pid >= 0;
    if (pid >= 0 || (errno != ENOSYS && errno != EINVAL && errno != E2BIG && errno != EPERM))
        return (pid_t)pid;
    return fork();
}

int cgroup_join(const struct cgroup_group *g, char *err, size_t errlen)
{
    /* "0": the writer itself, whatever PID namespace it is in. */
    if (write(g->procs_fd, "0", 1) != 1) {
        snprintf(err, errlen, "cannot move the workload into %s: %s", g->path, strerror(errno));
        return -1;
    }
    return 0;
}

unsigned long long cgroup_event_count(int events_fd, const char *key)
{
    char buf[1024];
    ssize_t n = events_fd < 0 ? -1 : pread(events_fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    size_t k = strlen(key);
    for (char *line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (strncmp(line, key, k) == 0 && line[k] == ' ')
            return strtoull(line + k + 1, NULL, 10);
    return 0;
}

bool cgroup_kill(const struct cgroup_group *g)
{
    return write(g->kill_fd, "1", 1) == 1 || errno != ENODEV;
}

void cgroup_end(const struct cgroup_group *g)
{
    if (!cgroup_kill(g))
        return; /* the group is gone already */
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        /* rmdir may still say EBUSY just as the group empties: tried again. */
        if (cgroup_event_count(g->events_fd, "populated") == 0 &&
            (unlinkat(g->parent_fd, g->name, AT_REMOVEDIR) == 0 || errno == ENOENT))
            return;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long spent = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
        if (spent >= CGROUP_END_MS)
            return; /* left for the keeper, or for the caller to see */
        long left = CGROUP_END_MS - spent;
        struct pollfd p = {.fd = g->events_fd, .events = POLLPRI};
        poll(&p, 1, (int)(left < CGROUP_END_RECHECK_MS ? left : CGROUP_END_RECHECK_MS));
    }
}

size_t cgroup_fds(const struct cgroup_group *g, int *fds)
{
    const int all[] = {g->parent_fd, g->kill_fd, g->events_fd, g->memory_events_fd, g->pids_events_fd};
    _Static_assert(sizeof all / sizeof all[0] == CGROUP_KEPT_FDS, "CGROUP_KEPT_FDS counts them");
    size_t n = 0;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i] >= 0)
            fds[n++] = all[i];
    return n;
}
