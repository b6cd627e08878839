/*
 * linux_common.h — the mechanisms both Linux backends (linux-ns, landlock)
 * build their boundary from.  Not a backend: no descriptor, no policy of
 * its own; each backend decides when and how to use these.
 *
 * It declares what the C files below define for others, except where a part keeps a
 * header of its own (named in parentheses).  The mechanisms of one file
 * each are at the top; a part made of several files has a room of its own
 * (a sub-folder).  Every include names its file from this folder, by room
 * ("brokers/entry_broker.h"): the folder is the one include path.  A
 * room's files may include this header and another room's headers (only
 * process/ does: those of brokers/ and limits/); neither this header nor a
 * file at the top includes a room's.
 *
 *   README.md        what the folder holds, and its rules of inclusion
 *   local.mk         its build: one library, the seccomp tools
 *   linux_common.h   this index, and the declarations
 *   caps.c           zero capabilities, locked securebits, no_new_privs
 *   fd_hygiene.c     close every descriptor above 2
 *   fd_pass.c        one descriptor and a tag byte over a socket pair
 *   fd_path.c        "/proc/self/fd/N", the path that names descriptor N
 *   kernel_release.c whether the kernel is at least a given release
 *   keyring.c        a fresh session keyring
 *   landlock_sys.c   the Landlock system calls (landlock_sys.h, with the
 *                    UAPI spelt out), its ABI, scopes
 *   paths.c          the message for a policy path that does not resolve
 *
 * brokers/  the middle process makes the workload's calls, outside its filter
 *   broker_peek.c    what the brokers read of the workload (broker_peek.h)
 *   connect_broker.c its connect() calls, after the backend's checks; how
 *                    a connect() address is classified
 *   entry_broker.c   ... its entries in the directories on the way to a
 *                    denied path (entry_broker.h)
 *   meta_broker.c    ... its chmod/chown/utimes/xattr calls (meta_broker.h)
 *   socket_grant.c   the host sockets the policy grants, by inode
 *                    (socket_grant.h)
 * devices/  the host's devices, judged by number
 *   device_explain.c --explain's items for them (device_grant.h)
 *   device_filter.c  a cgroup device program: only these numbers open
 *                    (device_filter.h)
 *   device_grant.c   which devices the policy's `devices` may grant
 *                    (device_grant.h)
 * limits/   the policy's limits
 *   cgroup.c         a cgroup v2 group of the sandbox's own, its kill
 *                    switch and keeper (cgroup.h)
 *   sandbox_limits.c how each limit is bounded on Linux, and its end
 *                    (sandbox_limits.h)
 *   shared_rlimits.c the caller's per-user rlimits, halved for the sandbox
 *                    (shared_rlimits.h)
 * mount/    the mounts, as the kernel lists them
 *   mount_id.c       the id of the mount a descriptor is on (mount_id.h:
 *                    its file needs <linux/stat.h>, not <sys/stat.h>)
 *   mountinfo.c      the mount table; which filesystems are kernel interfaces
 * process/  the processes of the sandbox
 *   broker_init.c    the middle process's life once the workload exists:
 *                    forward, reap, serve the brokers, report the status
 *   supervised_fork.c supervisor → middle process → workload: the one fork
 *                    sequence (supervised_fork.h)
 * seccomp/  the workload's filter
 *   seccomp_dump.c   developer tool: prints the filter for a policy
 *   seccomp_filter.c loads the program a backend's shape calls for
 *   seccomp_gen.c    build-time tool: writes the compiled programs, one per
 *                    shape, as seccomp_programs.c in the build tree
 *   seccomp_programs.h the shapes, and the programs seccomp_gen.c writes
 *   seccomp_rules.c  the one syscall table, compiled by libseccomp
 *                    (seccomp_rules.h)
 *
 * Errors: every function below that can fail writes one line into
 * err[errlen] (cause, path, fix) and returns -1.
 */
#ifndef HAS_LINUX_COMMON_H
#define HAS_LINUX_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "policy.h"
#include "policy_paths.h"

/* caps.c: every capability set empty, securebits locked (needs
 * CAP_SETPCAP: a caller without it has no capability to lock away, and
 * no_new_privs keeps execve from granting any), no_new_privs. */
int caps_drop_all(char *err, size_t errlen);

/* fd_hygiene.c: close every descriptor >= 3 but the n in keep[]
 * (ascending, >= 3). */
int fd_close_except(const int *keep, size_t n, char *err, size_t errlen);
/* The same for keep[] in any order (sorted in place; -1 entries ignored). */
int fd_close_except_unsorted(int *keep, size_t n, char *err, size_t errlen);

/* fd_path.c: "/proc/self/fd/N" for descriptor fd (fits any int). */
struct fd_path {
    char s[sizeof "/proc/self/fd/-2147483648"];
};
struct fd_path fd_path(int fd);

/* kernel_release.c: whether uname(2) names Linux major.minor or later (a
 * release it cannot read: no). */
bool kernel_at_least(unsigned major, unsigned minor);

/* fd_pass.c: one descriptor (-1: none) and a tag byte over a socket pair.
 * fd_pass_receive() returns 1 when the peer closed without sending. */
int fd_pass_send(int sock, char tag, int fd, char *err, size_t errlen);
int fd_pass_receive(int sock, char tag, int *fd, char *err, size_t errlen);

/* seccomp/seccomp_filter.c: load the filter for `shape`
 * (seccomp/seccomp_programs.h); *listener receives its notification
 * descriptor (close-on-exec), for the broker.  A program built for another
 * architecture than the kernel's kills the workload at its first syscall:
 * fails closed. */
struct seccomp_shape;
int seccomp_filter_install(const struct seccomp_shape *shape, int *listener, char *err, size_t errlen);
/* The same, then the listener over `link` to the broker (broker_init_run's
 * tag 's'); the listener is closed either way, `link` stays open. */
int seccomp_filter_install_brokered(const struct seccomp_shape *shape, int link, char *err, size_t errlen);

/*
 * brokers/connect_broker.c: what the broker lets through, decided by the
 * backend.  Every connect() of the workload reaches the broker; it copies
 * the address once and connects its own copy of the socket itself.
 */
struct entry_anchors;
struct connect_rules {
    /* Abstract AF_UNIX addresses are the sandbox's own (a network
     * namespace of its own); otherwise they are the host's, refused. */
    bool abstract_ok;
    /* A pathname socket `fd` (O_PATH, already a socket) may be reached:
     * 0, or -errno (EACCES: a host socket).  Required. */
    int (*unix_path_ok)(int fd, const struct stat *st, const void *arg);
    /* An AF_INET/AF_INET6 destination may be reached: 0 or -errno.  NULL:
     * the kernel judges (the network is the sandbox's own). */
    int (*inet_ok)(const struct sockaddr_storage *sa, socklen_t len, const void *arg);
    /* The file `fd` (O_PATH) may have its metadata changed (chmod, chown,
     * utimes, xattrs; brokers/meta_broker.c): 0 or -errno.  NULL: those
     * calls are not brokered (the seccomp shape sends none). */
    int (*path_writable)(int fd, const struct stat *st, const void *arg);
    /* The entry `name` of directory `dir` (O_PATH) may be made, replaced,
     * renamed or removed by the broker (brokers/entry_broker.c, in a
     * directory that is no anchor): it lies beneath a writable root and
     * neither is nor leads to a denied path.  0 or -errno.  NULL: refused. */
    int (*entry_writable)(int dir, const char *name, const void *arg);
    /* The directories on the way to a denied path, where the broker makes
     * and removes entries (brokers/entry_broker.h).  NULL: none. */
    const struct entry_anchors *anchors;
    const void *arg;
    /* Why each check above refuses, for the caller's report (README
     * "Refusal report"): the rule, in a few words.  NULL: a generic one. */
    const char *unix_refused;
    const char *inet_refused;
    const char *meta_refused;
};

#define CONNECT_BROKER_MAX_PENDING 256 /* blocking connect()s in progress at once */
struct connect_broker;
struct pollfd;
/* NULL when this kernel can run the broker, else why not, with the fix.
 * (openat2, of the same release, is not probed: a filter around the
 * supervisor may refuse it, and then every AF_UNIX connect is refused:
 * closed, not open.) */
const char *connect_broker_unsupported(void);
/* `rules` must outlive the broker.  report_fd: the caller's report
 * (backend.h), which gets a line for every call the rules refuse, or -1. */
struct connect_broker *connect_broker_new(int listener, const struct connect_rules *rules, int report_fd);
/* Answer one notification (the listener is readable).  0, or -1 when the
 * listener failed. */
int connect_broker_serve(struct connect_broker *b);
/* The pending connections to poll (at most CONNECT_BROKER_MAX_PENDING
 * entries written to fds; their count returned), and how long poll() may
 * wait for them (-1: no limit). */
size_t connect_broker_pollfds(const struct connect_broker *b, struct pollfd *fds, int *timeout_ms);
/* Finish what is ready among them, given poll()'s results in fds. */
void connect_broker_progress(struct connect_broker *b, const struct pollfd *fds);
/* What the `len` bytes at `addr`, given to connect() on an AF_UNIX socket,
 * name (pure, fuzzed: tests/linux-common/fuzz_connect_address.c).  For a
 * path, `path` receives it NUL-terminated. */
#define CONNECT_PATH_SIZE 109 /* sun_path and a NUL */
enum connect_address {
    CONNECT_ADDRESS_AS_GIVEN, /* unnamed, AF_UNSPEC, another family: the kernel judges it */
    CONNECT_ADDRESS_INVALID,  /* longer than struct sockaddr_un */
    CONNECT_ADDRESS_ABSTRACT,
    CONNECT_ADDRESS_PATH,
};
enum connect_address connect_address_classify(const void *addr, size_t len, char path[CONNECT_PATH_SIZE]);

/*
 * process/broker_init.c: the life of the process between the supervisor
 * and the workload once the workload is forked; never returns.  It forwards the
 * signals the supervisor forwards, reaps, makes the workload's connect()
 * calls once `link` brings the seccomp listener (tag 's'), and writes the
 * workload's wait status and whether it killed anything the workload left
 * (backend.h's status_fd: two ints) to status_fd.  kill_orphans: it is not
 * a PID-namespace init; it made itself the subreaper before the fork, and
 * kills what the workload left behind before it reports.  report_fd: the
 * caller's report, kept open for the broker (-1: none).  limits: the
 * policy's (limits/sandbox_limits.h), ended and reported with the workload,
 * or NULL.
 */
struct sandbox_limits;
void broker_init_run(pid_t workload, int status_fd, int link, const struct connect_rules *rules,
                     bool kill_orphans, int report_fd, const struct sandbox_limits *limits)
    __attribute__((noreturn));

/* landlock_sys.c */
/* The kernel's Landlock ABI version: 0 when Landlock is missing or
 * disabled. */
int landlock_abi(void);
/* Signals and abstract Unix sockets scoped to the caller's Landlock
 * domain (ABI >= 6, Linux >= 6.12); nothing on older kernels. */
int landlock_scope_ipc(char *err, size_t errlen);

/* mount/mountinfo.c */
/* A mount as /proc/self/mountinfo lists it. */
struct mount_info {
    unsigned long long id,
        parent;        /* the mount's id and its parent's (as mount_id_of(), mount/mount_id.h, gives them) */
    const char *point; /* the mount point, unescaped */
    const char *fstype;
    bool writable; /* the mount's own flags are not "ro" */
};
/* fn for every mount listed now; stops at (and returns) fn's first
 * non-zero.  -1 with err set when the table cannot be read. */
int mountinfo_each(int (*fn)(const struct mount_info *m, void *arg), void *arg, char *err, size_t errlen);
/* procfs, sysfs, cgroupfs, debugfs, ...: the kernel's own interfaces,
 * whose writes the kernel grants by uid alone. */
bool mount_is_kernel_interface(const char *fstype);
/* Those, and devtmpfs and devpts (the host's device nodes and ptys, whose
 * inodes a writable mount lets their owner change): what no writable mount
 * of a sandbox may show. */
bool mount_is_host_object_fs(const char *fstype);

/* keyring.c: the caller's session keys (Kerberos tickets, ecryptfs, ...)
 * are no longer possessed: a fresh anonymous session keyring. */
int keyring_join_fresh_session(char *err, size_t errlen);

/* paths.c: "FIELD: PATH: why" for a policy path that did not resolve with `error`
 * (an errno, or PATH_ERR_CWD_MOVED); `link_risk` says what a symbolic link
 * there would do.  Returns -1. */
/* Not an errno (those end at 4095): the working directory's name led to
 * another directory than the one the supervisor holds (backend.h, cwd_fd). */
#define PATH_ERR_CWD_MOVED 4096
int path_resolve_error(const char *field, const char *path, int error, const char *link_risk, char *err,
                       size_t errlen);

#endif
