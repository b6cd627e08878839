/*
 * seccomp_rules.c — THE syscall table of the workload, in one place, each
 * entry with the reason it is there, and its compilation by libseccomp.
 * Print the filter with `happy-agent-supervisor-seccomp-dump` (seccomp_dump.c,
 * built in backends/linux-common) to audit it.
 *
 * Shape: default ALLOW, a short deny list.  The boundary itself is made of
 * namespaces, mounts and zero capabilities; the filter removes kernel attack
 * surface a coding workload never needs and closes the known escapes that
 * namespaces do not (terminal injection, io_uring carrying socket operations
 * past the filter, nested user namespaces that give capabilities back,
 * socket families that no network namespace isolates, such as AF_VSOCK).
 *
 * Architecture: the filter names one architecture, the one the supervisor is
 * built for.  libseccomp makes every other AUDIT_ARCH value hit the "bad
 * arch" action, set here to KILL_PROCESS: i386 `int 0x80` on x86_64, compat
 * syscalls on arm64.  x32 shares AUDIT_ARCH_X86_64 and is told apart by bit
 * 0x40000000 of the syscall number; libseccomp's x86_64 filter (x32 not
 * added) sends every number with that bit to the bad-arch action as well
 * (checked by tests/linux-ns/seccomp.sh, which calls an x32 syscall and
 * expects SIGSYS).
 *
 * When it is compiled: at build time (seccomp_gen.c writes the programs into
 * the binary; seccomp_filter.c loads them).  The table depends on the
 * sandbox's shape (seccomp_programs.h: localBinding, the network around the
 * workload, what Landlock mediates), so there is one program per shape, and
 * compiling them in every launch cost 0.2-0.3 ms of CPU under musl's
 * allocator for a result that never changes.  The values below (TIOCSTI, CLONE_NEWUSER) are taken from
 * the headers of the compiler that builds the generator; they are the same
 * on every architecture the build supports (configure.ac).
 *
 * Errors: EPERM where the operation is refused by policy, ENOSYS where the
 * caller is expected to fall back (io_uring, clone3).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/btrfs.h>
#include <linux/fs.h>
#include <linux/fsverity.h>
#include <netinet/in.h>

#include "seccomp/seccomp_rules.h"

/* ext4's own spelling of FS_IOC_SETVERSION (fs/ext4/ext4.h, not uapi). */
#define EXT4_IOC_SETVERSION _IOW('f', 4, long)
#define EXT4_IOC32_SETVERSION _IOW('f', 4, int)

#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif

/* When a rule applies: always, or in the shapes that call for it. */
enum rule_when { ALWAYS, NO_LOCAL_BIND, HOST_NETWORK, PATH_TRUNCATE, SHARED_HOST };

/* One argument comparison: (args[arg] & mask) == value, or args[arg] !=
 * value when mask is NOT_EQUAL.  A rule matches when all of its
 * comparisons do (none: always). */
struct arg_test {
    unsigned arg;
    uint64_t mask, value;
};
#define NOT_EQUAL 0 /* a mask of 0 would match everything: it marks != instead */

struct rule {
    const char *name; /* resolved with seccomp_syscall_resolve_name() */
    int error;        /* errno returned, or NOTIFY */
    struct arg_test test[2];
    unsigned tests;
    enum rule_when when;
    const char *why;
};

/* The action "ask the sandbox init" (connect_broker.c) instead of an errno. */
#define NOTIFY (-1)

/* Argument tests, spelt once. */
#define NO_TEST {{0, 0, 0}}, 0
#define HAS_FLAG(a, flag) {{(a), (flag), (flag)}}, 1
/* A mode with neither set-id bit: with the SETID_MODE rules, every value
 * of these two bits hits exactly one rule. */
#define NO_SETID(a) {{(a), S_ISUID | S_ISGID, 0}}, 1
#define LOW32_EQ(a, v) {{(a), 0xffffffffULL, (v)}}, 1
/* args[a] != v as all 64 bits (a pid or a `which` with high garbage fails too). */
#define NOT_EQ(a, v) {{(a), NOT_EQUAL, (v)}}, 1
#define NOT_ZERO(a) NOT_EQ(a, 0)
#define BOTH_FLAGS(a, fa, b, fb) {{(a), (fa), (fa)}, {(b), (fb), (fb)}}, 2
/* socket(2) / socketpair(2) of this domain and type (flags masked off). */
#define DOMAIN_TYPE(d, t) {{0, 0xffffffffULL, (d)}, {1, 0xf, (t)}}, 2

/* A file mode with the set-user-ID or set-group-ID bit: one rule each. */
#define SETID_MODE(sys, a, why)                       \
    {sys, EPERM, HAS_FLAG(a, S_ISUID), ALWAYS, why},  \
    {                                                 \
        sys, EPERM, HAS_FLAG(a, S_ISGID), ALWAYS, why \
    }
/* O_TMPFILE is this bit plus O_DIRECTORY, whose value differs between
 * x86_64 and aarch64; the bit alone is the same on both (and the generator
 * of a cross build sees only its own headers). */
#define TMPFILE_BIT 020000000
_Static_assert((O_TMPFILE & TMPFILE_BIT) == TMPFILE_BIT, "O_TMPFILE carries the __O_TMPFILE bit");
_Static_assert(O_CREAT == 0100, "O_CREAT is 0100 on every architecture the build supports");

/* The same for a call that creates only with O_CREAT or O_TMPFILE in its
 * flags (the mode argument is meaningless, and may be garbage, without). */
#define SETID_CREATE(sys, fl, a, why)                                       \
    {sys, EPERM, BOTH_FLAGS(fl, O_CREAT, a, S_ISUID), ALWAYS, why},         \
        {sys, EPERM, BOTH_FLAGS(fl, O_CREAT, a, S_ISGID), ALWAYS, why},     \
        {sys, EPERM, BOTH_FLAGS(fl, TMPFILE_BIT, a, S_ISUID), ALWAYS, why}, \
    {                                                                       \
        sys, EPERM, BOTH_FLAGS(fl, TMPFILE_BIT, a, S_ISGID), ALWAYS, why    \
    }

/* open flags with O_CREAT and a mode with neither set-id bit. */
#define CREATE_NO_SETID(fl, a) {{(fl), O_CREAT, O_CREAT}, {(a), S_ISUID | S_ISGID, 0}}, 2
/* O_DIRECTORY is 0200000 on x86_64 and 040000 on arm64 (each the other's
 * O_DIRECT): a generator for another architecture sees only its own
 * headers, so both bits go to the broker, which tells them apart.  A
 * listing: read-only, neither O_CREAT nor O_TMPFILE (whose set-id rules
 * must stay apart). */
#define DIR_BIT_A 040000
#define DIR_BIT_B 0200000
_Static_assert(O_DIRECTORY == DIR_BIT_A || O_DIRECTORY == DIR_BIT_B, "O_DIRECTORY is one of the two");
/* The access mode's two bits, spelt out: musl's O_ACCMODE also holds
 * O_PATH (its O_SEARCH), glibc's does not, and a cross build's generator
 * and its target must build the same program. */
#define ACCESS_MODE_BITS 03
_Static_assert((O_ACCMODE & ACCESS_MODE_BITS) == ACCESS_MODE_BITS, "the access mode is the two low bits");
#define LISTING(fl, bit) {{(fl), (bit) | O_CREAT | TMPFILE_BIT | ACCESS_MODE_BITS, (bit)}}, 1

static const struct rule rules[] = {
    /* ---- policy ---- */
    {"bind", EPERM, NO_TEST, NO_LOCAL_BIND,
     "localBinding: false: no listening endpoint, on any address family"},
    {"listen", EPERM, NO_TEST, NO_LOCAL_BIND,
     "localBinding: false (a connected socket cannot listen either)"},

    /* ---- the host's network (no namespace of the sandbox's own): sendto
     * with MSG_FASTOPEN connects a TCP socket without connect(2), so
     * without the broker's check.  The socket families are refused by
     * add_family_rules() ---- */
    {"sendto", EPERM, HAS_FLAG(3, MSG_FASTOPEN), HOST_NETWORK,
     "TCP Fast Open: a connect() the broker never sees"},
    {"sendmsg", EPERM, HAS_FLAG(2, MSG_FASTOPEN), HOST_NETWORK,
     "TCP Fast Open: a connect() the broker never sees"},
    {"sendmmsg", EPERM, HAS_FLAG(3, MSG_FASTOPEN), HOST_NETWORK,
     "TCP Fast Open: a connect() the broker never sees"},

    /* ---- a Landlock without its TRUNCATE right (ABI < 3) does not
     * mediate truncate(2) by path: a file outside the writable roots
     * could be emptied ---- */
    {"truncate", EPERM, NO_TEST, PATH_TRUNCATE, "truncate by path, unmediated by Landlock ABI < 3"},

    /* ---- file metadata, which Landlock does not mediate: without a
     * read-only mount the workload could chmod, chown, touch or tag every
     * file its uid owns.  The broker makes these calls on the inode it
     * checked (meta_broker.c).  The newest forms, with their arguments in
     * structures, are refused.  The mode calls go to the broker only
     * without a set-id bit, the set-id rules below taking the others:
     * libseccomp drops a syscall's conditional rules when it also has an
     * unconditional one, so an unconditional NOTIFY here would silently
     * void them (the broker refuses set-id modes too). ---- */
    {"chmod", NOTIFY, NO_SETID(1), SHARED_HOST, "mode: beneath a writable root only"},
    {"fchmod", NOTIFY, NO_SETID(1), SHARED_HOST, "mode: beneath a writable root only"},
    {"fchmodat", NOTIFY, NO_SETID(2), SHARED_HOST, "mode: beneath a writable root only"},
    {"fchmodat2", NOTIFY, NO_SETID(2), SHARED_HOST, "mode: beneath a writable root only"},
    {"chown", NOTIFY, NO_TEST, SHARED_HOST, "owner: beneath a writable root only"},
    {"fchown", NOTIFY, NO_TEST, SHARED_HOST, "owner: beneath a writable root only"},
    {"lchown", NOTIFY, NO_TEST, SHARED_HOST, "owner: beneath a writable root only"},
    {"fchownat", NOTIFY, NO_TEST, SHARED_HOST, "owner: beneath a writable root only"},
    {"utime", NOTIFY, NO_TEST, SHARED_HOST, "times: beneath a writable root only"},
    {"utimes", NOTIFY, NO_TEST, SHARED_HOST, "times: beneath a writable root only"},
    {"futimesat", NOTIFY, NO_TEST, SHARED_HOST, "times: beneath a writable root only"},
    {"utimensat", NOTIFY, NO_TEST, SHARED_HOST, "times: beneath a writable root only"},
    {"setxattr", NOTIFY, NO_TEST, SHARED_HOST, "attributes: beneath a writable root only"},
    {"lsetxattr", NOTIFY, NO_TEST, SHARED_HOST, "attributes: beneath a writable root only"},
    {"fsetxattr", NOTIFY, NO_TEST, SHARED_HOST, "attributes: beneath a writable root only"},
    {"removexattr", NOTIFY, NO_TEST, SHARED_HOST, "attributes: beneath a writable root only"},
    {"lremovexattr", NOTIFY, NO_TEST, SHARED_HOST, "attributes: beneath a writable root only"},
    {"fremovexattr", NOTIFY, NO_TEST, SHARED_HOST, "attributes: beneath a writable root only"},
    {"ioctl", EPERM, LOW32_EQ(1, FS_IOC_SETFLAGS), SHARED_HOST, "chattr flags on any file its uid owns"},
    {"ioctl", EPERM, LOW32_EQ(1, FS_IOC32_SETFLAGS), SHARED_HOST, "chattr flags (the 32-bit request)"},
    {"ioctl", EPERM, LOW32_EQ(1, FS_IOC_FSSETXATTR), SHARED_HOST,
     "project ids and flags on any file it owns"},
    /* These need only ownership and a descriptor of any access mode: a
     * read-only one of a host file. */
    {"ioctl", EPERM, LOW32_EQ(1, FS_IOC_SETVERSION), SHARED_HOST,
     "inode generation of any file its uid owns"},
    {"ioctl", EPERM, LOW32_EQ(1, FS_IOC32_SETVERSION), SHARED_HOST, "inode generation (the 32-bit request)"},
    {"ioctl", EPERM, LOW32_EQ(1, EXT4_IOC_SETVERSION), SHARED_HOST, "inode generation (ext4's own request)"},
    {"ioctl", EPERM, LOW32_EQ(1, EXT4_IOC32_SETVERSION), SHARED_HOST, "inode generation (ext4's, 32-bit)"},
    {"ioctl", EPERM, LOW32_EQ(1, FS_IOC_ENABLE_VERITY), SHARED_HOST,
     "fs-verity: a file it can write made read-only for good, through a read-only descriptor"},
    {"ioctl", EPERM, LOW32_EQ(1, FS_IOC_SET_ENCRYPTION_POLICY), SHARED_HOST,
     "an encryption policy on an empty directory its uid owns (the host's files there then need the key)"},
    /* btrfs makes and removes subvolumes -- directory entries -- in an
     * ioctl, with a permission check of its own and no path hook that
     * Landlock sees: a read-only descriptor of a host directory the uid may
     * write to would take a new entry, and a subvolume it owns could be
     * made read-only or removed (a root caller's: the host's root). */
    {"ioctl", EPERM, LOW32_EQ(1, BTRFS_IOC_SNAP_CREATE), SHARED_HOST,
     "btrfs: a snapshot in any host directory"},
    {"ioctl", EPERM, LOW32_EQ(1, BTRFS_IOC_SNAP_CREATE_V2), SHARED_HOST,
     "btrfs: a snapshot in any host directory"},
    {"ioctl", EPERM, LOW32_EQ(1, BTRFS_IOC_SUBVOL_CREATE), SHARED_HOST,
     "btrfs: a subvolume in any host directory"},
    {"ioctl", EPERM, LOW32_EQ(1, BTRFS_IOC_SUBVOL_CREATE_V2), SHARED_HOST,
     "btrfs: a subvolume in any host directory"},
    {"ioctl", EPERM, LOW32_EQ(1, BTRFS_IOC_SNAP_DESTROY), SHARED_HOST, "btrfs: a host subvolume removed"},
    {"ioctl", EPERM, LOW32_EQ(1, BTRFS_IOC_SNAP_DESTROY_V2), SHARED_HOST, "btrfs: a host subvolume removed"},
    {"ioctl", EPERM, LOW32_EQ(1, BTRFS_IOC_SUBVOL_SETFLAGS), SHARED_HOST,
     "btrfs: a host subvolume made read-only"},
    {"ioctl", EPERM, LOW32_EQ(1, BTRFS_IOC_SET_RECEIVED_SUBVOL), SHARED_HOST,
     "btrfs: a host subvolume's received UUID"},

    /* ---- directory entries, which Landlock grants per directory and
     * everything beneath: the directories on the way to a denied path get
     * no right to make or remove entries (it would reach the denied path
     * too), nor one on the way to a read-denied path to be listed.  The
     * broker acts in those directories, and lets every other call go on
     * to Landlock (entry_broker.c).  The creating calls go there only
     * without a set-id bit (the rules below take the others; see above
     * why they must not overlap); openat2 is refused whole. ---- */
    {"open", NOTIFY, CREATE_NO_SETID(1, 2), SHARED_HOST,
     "a file made: in a directory above a denial, by the broker"},
    {"openat", NOTIFY, CREATE_NO_SETID(2, 3), SHARED_HOST,
     "a file made: in a directory above a denial, by the broker"},
    {"creat", NOTIFY, NO_SETID(1), SHARED_HOST, "a file made: in a directory above a denial, by the broker"},
    {"open", NOTIFY, LISTING(1, DIR_BIT_A), SHARED_HOST, "a listing of a directory above a read denial"},
    {"open", NOTIFY, LISTING(1, DIR_BIT_B), SHARED_HOST, "a listing of a directory above a read denial"},
    {"openat", NOTIFY, LISTING(2, DIR_BIT_A), SHARED_HOST, "a listing of a directory above a read denial"},
    {"openat", NOTIFY, LISTING(2, DIR_BIT_B), SHARED_HOST, "a listing of a directory above a read denial"},
    {"mknod", NOTIFY, NO_SETID(1), SHARED_HOST, "a FIFO or file made above a denial"},
    {"mknodat", NOTIFY, NO_SETID(2), SHARED_HOST, "a FIFO or file made above a denial"},
    {"mkdir", NOTIFY, NO_TEST, SHARED_HOST, "a directory made above a denial"},
    {"mkdirat", NOTIFY, NO_TEST, SHARED_HOST, "a directory made above a denial"},
    {"symlink", NOTIFY, NO_TEST, SHARED_HOST, "a symlink made above a denial"},
    {"symlinkat", NOTIFY, NO_TEST, SHARED_HOST, "a symlink made above a denial"},
    {"link", NOTIFY, NO_TEST, SHARED_HOST, "a hard link made above a denial"},
    {"linkat", NOTIFY, NO_TEST, SHARED_HOST, "a hard link made above a denial"},
    {"rename", NOTIFY, NO_TEST, SHARED_HOST, "an entry renamed above a denial"},
    {"renameat", NOTIFY, NO_TEST, SHARED_HOST, "an entry renamed above a denial"},
    {"renameat2", NOTIFY, NO_TEST, SHARED_HOST, "an entry renamed above a denial"},
    {"unlink", NOTIFY, NO_TEST, SHARED_HOST, "an entry removed above a denial"},
    {"unlinkat", NOTIFY, NO_TEST, SHARED_HOST, "an entry removed above a denial"},
    {"rmdir", NOTIFY, NO_TEST, SHARED_HOST, "a directory removed above a denial"},

    /* ---- other processes, with no PID namespace: the host's of the same
     * uid are in reach, and the kernel lets these calls change them with no
     * capability and no hook that Landlock's scopes use.  Only the caller
     * itself (pid 0, what getrlimit/setrlimit, nice and friends pass); a
     * pid with high garbage (the kernel reads an int) is refused too.
     * RLIMIT_CPU 0 on a host process is a SIGKILL the signal scope never
     * sees; PRIO_USER renices every process of the uid at once. ---- */
    {"prlimit64", EPERM, NOT_ZERO(0), SHARED_HOST, "limits of another process (RLIMIT_CPU 0 kills it)"},
    /* linux-ns's init (pid 1: the workload's parent, its connect() broker)
     * has the workload's uid, and lowering a limit needs no privilege, so
     * the init cannot guard its own: RLIMIT_CPU 0 would have the kernel
     * kill it and the whole sandbox, RLIMIT_NOFILE 0 stall every brokered
     * connect().  Its own (pid 0 or its pid) and its children's stay
     * allowed; under landlock the rule above already covers pid 1. */
    {"prlimit64", EPERM, LOW32_EQ(0, 1), ALWAYS, "limits of the sandbox's init (RLIMIT_CPU 0 kills it)"},
    {"setpriority", EPERM, NOT_ZERO(1), SHARED_HOST, "priority of another process, process group or user"},
    {"setpriority", EPERM, NOT_EQ(0, PRIO_PROCESS), SHARED_HOST, "priority of a process group or user"},
    {"ioprio_set", EPERM, NOT_ZERO(1), SHARED_HOST, "I/O priority of another process, group or user"},
    {"ioprio_set", EPERM, NOT_EQ(0, 1 /* IOPRIO_WHO_PROCESS */), SHARED_HOST,
     "I/O priority of a group or user"},
    {"sched_setaffinity", EPERM, NOT_ZERO(0), SHARED_HOST, "CPUs of another process"},
    {"sched_setscheduler", EPERM, NOT_ZERO(0), SHARED_HOST, "scheduling of another process"},
    {"sched_setparam", EPERM, NOT_ZERO(0), SHARED_HOST, "scheduling of another process"},
    {"sched_setattr", EPERM, NOT_ZERO(0), SHARED_HOST, "scheduling of another process"},
    {"migrate_pages", EPERM, NOT_ZERO(0), SHARED_HOST, "memory placement of another process"},
    {"move_pages", EPERM, NOT_ZERO(0), SHARED_HOST, "memory placement of another process"},

    /* A lease on a host file its uid owns would hold the host's next
     * write-open of it for up to lease-break-time (45 s). */
    {"fcntl", EPERM, LOW32_EQ(1, F_SETLEASE), SHARED_HOST, "a lease on a host file stalls its writers"},

    /* ---- IPC objects, with no IPC namespace: the host's (X11's shared
     * memory, a database's semaphores) -- refused; POSIX shared memory and
     * semaphores live in /dev/shm, which the ruleset does not open ---- */
    {"shmget", EPERM, NO_TEST, SHARED_HOST, "the host's SysV shared memory"},
    {"shmat", EPERM, NO_TEST, SHARED_HOST, "the host's SysV shared memory"},
    {"shmctl", EPERM, NO_TEST, SHARED_HOST, "the host's SysV shared memory"},
    {"msgget", EPERM, NO_TEST, SHARED_HOST, "the host's SysV message queues"},
    {"msgsnd", EPERM, NO_TEST, SHARED_HOST, "the host's SysV message queues"},
    {"msgrcv", EPERM, NO_TEST, SHARED_HOST, "the host's SysV message queues"},
    {"msgctl", EPERM, NO_TEST, SHARED_HOST, "the host's SysV message queues"},
    {"semget", EPERM, NO_TEST, SHARED_HOST, "the host's SysV semaphores"},
    {"semop", EPERM, NO_TEST, SHARED_HOST, "the host's SysV semaphores"},
    {"semtimedop", EPERM, NO_TEST, SHARED_HOST, "the host's SysV semaphores"},
    {"semctl", EPERM, NO_TEST, SHARED_HOST, "the host's SysV semaphores"},
    {"mq_open", EPERM, NO_TEST, SHARED_HOST, "the host's POSIX message queues"},
    {"mq_unlink", EPERM, NO_TEST, SHARED_HOST, "the host's POSIX message queues"},

    /* ---- io_uring: carries bind/listen/connect/openat as ring opcodes past
     * any syscall filter (IORING_OP_BIND/LISTEN on Linux >= 6.11); ENOSYS so
     * libuv, liburing and Node fall back to ordinary syscalls ---- */
    {"io_uring_setup", ENOSYS, NO_TEST, ALWAYS, "io_uring bypasses this filter"},
    {"io_uring_enter", ENOSYS, NO_TEST, ALWAYS, "io_uring bypasses this filter"},
    {"io_uring_register", ENOSYS, NO_TEST, ALWAYS, "io_uring bypasses this filter"},

    /* ---- terminal input injection: pushing characters into the caller's
     * terminal runs them as commands outside the sandbox once the workload
     * exits (CVE-2017-5226 and its class).  The kernel reads the request as
     * 32 bits, so only the low 32 bits are compared: a request with high
     * bits set must not slip past (CVE-2019-10063) ---- */
    {"ioctl", EPERM, LOW32_EQ(1, TIOCSTI), ALWAYS, "TIOCSTI: inject terminal input"},
    {"ioctl", EPERM, LOW32_EQ(1, TIOCLINUX), ALWAYS, "TIOCLINUX: console selection paste (injection)"},

    /* ---- namespaces: a nested user namespace hands every capability back
     * (within it) and re-opens mount, netfilter, ... attack surface ---- */
    {"unshare", EPERM, HAS_FLAG(0, CLONE_NEWUSER), ALWAYS, "nested user namespace"},
    {"clone", EPERM, HAS_FLAG(0, CLONE_NEWUSER), ALWAYS, "nested user namespace"},
    {"clone3", ENOSYS, NO_TEST, ALWAYS,
     "flags live in memory a filter cannot read; ENOSYS makes libc fall back to clone"},
    {"setns", EPERM, NO_TEST, ALWAYS, "joining another namespace"},

    /* ---- host Unix sockets: connect(2) on an AF_UNIX pathname socket needs
     * no writable mount, so a read-only view still reaches every host
     * service listening on a path ($HOME/.ssh control masters, gpg-agent,
     * engine sockets).  Every connect() goes to the sandbox init, which lets
     * other families through unchanged and connects AF_UNIX sockets itself,
     * to the inode it checked: only one on a writable mount of the
     * sandbox's view (a writable root, or made inside); it makes every
     * connect() itself, so nothing is looked up twice.  Datagram Unix
     * sockets can send to any path with sendto/sendmsg, which a filter
     * cannot inspect: they cannot be created (SOCK_RAW is a datagram
     * socket for AF_UNIX: unix_create() turns it into SOCK_DGRAM). ---- */
    {"connect", NOTIFY, NO_TEST, ALWAYS, "AF_UNIX: only sockets of the sandbox's writable mounts"},
    {"socket", EPERM, DOMAIN_TYPE(AF_UNIX, SOCK_DGRAM), ALWAYS, "AF_UNIX datagrams reach any host socket"},
    {"socket", EPERM, DOMAIN_TYPE(AF_UNIX, SOCK_RAW), ALWAYS, "AF_UNIX SOCK_RAW is SOCK_DGRAM"},
    {"socketpair", EPERM, DOMAIN_TYPE(AF_UNIX, SOCK_DGRAM), ALWAYS,
     "AF_UNIX datagrams reach any host socket (sendto an address)"},
    {"socketpair", EPERM, DOMAIN_TYPE(AF_UNIX, SOCK_RAW), ALWAYS, "AF_UNIX SOCK_RAW is SOCK_DGRAM"},

    /* ---- set-user-ID and set-group-ID files: run by a root caller, the
     * workload's files belong to the host's root, and a setuid copy of a
     * shell left in a writable root would make every local user who can
     * reach it root.  Refused for every caller (a setgid file of an ordinary
     * user hands out that user's group).  File capabilities need
     * CAP_SETFCAP, which the workload does not have. ---- */
    SETID_MODE("chmod", 1, "setuid/setgid mode"),
    SETID_MODE("fchmod", 1, "setuid/setgid mode"),
    SETID_MODE("fchmodat", 2, "setuid/setgid mode"),
    SETID_MODE("fchmodat2", 2, "setuid/setgid mode"),
    SETID_MODE("mknod", 1, "a regular file created setuid/setgid"),
    SETID_MODE("mknodat", 2, "a regular file created setuid/setgid"),
    SETID_MODE("creat", 1, "a file created setuid/setgid"),
    SETID_CREATE("open", 1, 2, "a file created setuid/setgid"),
    SETID_CREATE("openat", 2, 3, "a file created setuid/setgid"),
    {"openat2", ENOSYS, NO_TEST, ALWAYS,
     "its mode lives in memory a filter cannot read; ENOSYS makes callers fall back to openat"},

    /* ---- mounts: the workload has no capability to mount; refusing the
     * calls outright also removes their parsers from reach ---- */
    {"mount", EPERM, NO_TEST, ALWAYS, "remount/umount of the policy mounts"},
    {"umount2", EPERM, NO_TEST, ALWAYS, "unmounting a mask"},
    {"pivot_root", EPERM, NO_TEST, ALWAYS, "changing the root"},
    {"open_tree", EPERM, NO_TEST, ALWAYS, "new mount API"},
    {"move_mount", EPERM, NO_TEST, ALWAYS, "new mount API"},
    {"fsopen", EPERM, NO_TEST, ALWAYS, "new mount API (filesystem parsers)"},
    {"fsconfig", EPERM, NO_TEST, ALWAYS, "new mount API"},
    {"fsmount", EPERM, NO_TEST, ALWAYS, "new mount API"},
    {"fspick", EPERM, NO_TEST, ALWAYS, "new mount API (reconfigure a mount)"},
    {"mount_setattr", EPERM, NO_TEST, ALWAYS, "new mount API (clear read-only)"},

    /* ---- never needed by a coding workload; kernel attack surface ---- */
    {"keyctl", EPERM, NO_TEST, ALWAYS, "kernel keyrings: the caller's keys"},
    {"add_key", EPERM, NO_TEST, ALWAYS, "kernel keyrings"},
    {"request_key", EPERM, NO_TEST, ALWAYS, "kernel keyrings (also upcalls to the host)"},
    {"bpf", EPERM, NO_TEST, ALWAYS, "eBPF verifier attack surface"},
    {"perf_event_open", EPERM, NO_TEST, ALWAYS, "perf: attack surface and side channels"},
    {"userfaultfd", EPERM, NO_TEST, ALWAYS, "widens kernel race windows in exploits"},
    {"kexec_load", EPERM, NO_TEST, ALWAYS, "replacing the kernel"},
    {"kexec_file_load", EPERM, NO_TEST, ALWAYS, "replacing the kernel"},
    {"init_module", EPERM, NO_TEST, ALWAYS, "loading kernel code"},
    {"finit_module", EPERM, NO_TEST, ALWAYS, "loading kernel code"},
    {"delete_module", EPERM, NO_TEST, ALWAYS, "unloading kernel code"},
    {"process_vm_writev", EPERM, NO_TEST, ALWAYS,
     "writing another process's memory (ptrace stays for gdb/strace on the workload's own children)"},
    {"open_by_handle_at", EPERM, NO_TEST, ALWAYS,
     "opens files by handle, bypassing the mount view (the 'shocker' escape)"},
    {"name_to_handle_at", EPERM, NO_TEST, ALWAYS, "companion of open_by_handle_at"},
    {"acct", EPERM, NO_TEST, ALWAYS, "process accounting to a file"},
    {"swapon", EPERM, NO_TEST, ALWAYS, "swap configuration"},
    {"swapoff", EPERM, NO_TEST, ALWAYS, "swap configuration"},
    {"reboot", EPERM, NO_TEST, ALWAYS, "rebooting"},
    {"syslog", EPERM, NO_TEST, ALWAYS, "kernel log: addresses useful to exploits"},
    {"quotactl", EPERM, NO_TEST, ALWAYS, "quota configuration"},
};

static bool rule_applies(const struct rule *r, const struct seccomp_shape *shape)
{
    switch (r->when) {
    case NO_LOCAL_BIND: return !shape->local_binding;
    case HOST_NETWORK: return shape->net != SECCOMP_NET_OWN;
    case PATH_TRUNCATE: return shape->refuse_path_truncate;
    case SHARED_HOST: return shape->shared_host;
    default: return true;
    }
}

static int add_rule(scmp_filter_ctx f, const struct rule *r, int nr)
{
    /* Comparisons spelt out in full (not SCMP_A0()/SCMP_A1(), whose
     * expansion leaves fields implicit): (arg & datum_a) == datum_b. */
    struct scmp_arg_cmp cmp[2];
    for (unsigned i = 0; i < r->tests; i++)
        cmp[i] =
            r->test[i].mask == NOT_EQUAL
                ? (struct scmp_arg_cmp){.arg = r->test[i].arg, .op = SCMP_CMP_NE, .datum_a = r->test[i].value}
                : (struct scmp_arg_cmp){.arg = r->test[i].arg,
                                        .op = SCMP_CMP_MASKED_EQ,
                                        .datum_a = r->test[i].mask,
                                        .datum_b = r->test[i].value};
    uint32_t action = r->error == NOTIFY ? SCMP_ACT_NOTIFY : SCMP_ACT_ERRNO((uint32_t)r->error);
    return seccomp_rule_add_array(f, action, nr, r->tests, cmp);
}

/* The address families a socket may be created of (socket(2) and
 * socketpair(2)), by the network around the workload.  Whatever the
 * network, a workload needs AF_UNIX, AF_INET, AF_INET6 and AF_NETLINK
 * (ip(8), getaddrinfo's interface probe): every other family -- AF_VSOCK,
 * which no network namespace isolates and which reaches a VM's hypervisor,
 * AF_PACKET, Bluetooth, CAN, AF_ALG, AF_XDP, ... -- is not the policy's
 * "network" and is refused even with egress: true.  With the host's
 * network and only the proxy (TCP only), AF_NETLINK goes too; with none of
 * it, everything but AF_UNIX. */
static bool family_allowed(unsigned family, enum seccomp_net net)
{
    switch (family) {
    case AF_UNIX: return true;
    case AF_INET:
    case AF_INET6: return net != SECCOMP_NET_NONE;
    case AF_NETLINK: return net == SECCOMP_NET_OWN;
    default: return false;
    }
}

/* The refused families are compared as the 32 bits the kernel reads, every
 * number below FAMILY_LIMIT: past the build headers' AF_MAX too, for the
 * families a newer kernel may add (what is above the kernel's own AF_MAX it
 * refuses itself).  One rule per aligned power-of-two block of refused
 * numbers ((family & ~(size - 1)) == start), which keeps the program short. */
#define FAMILY_LIMIT 64
_Static_assert(AF_MAX <= FAMILY_LIMIT, "every family the headers know is covered");
_Static_assert((FAMILY_LIMIT & (FAMILY_LIMIT - 1)) == 0, "the blocks tile [0, FAMILY_LIMIT)");
#define SOCK_TYPE_BITS 0xf /* SOCK_TYPE_MASK: the flags above are masked off */
static struct scmp_arg_cmp masked_eq(unsigned arg, uint64_t mask, uint64_t value)
{
    return (struct scmp_arg_cmp){.arg = arg, .op = SCMP_CMP_MASKED_EQ, .datum_a = mask, .datum_b = value};
}

/* The size of the largest aligned block at `start` whose families are all refused. */
static unsigned refused_block(unsigned start, enum seccomp_net net)
{
    unsigned size = 1;
    for (;;) {
        unsigned bigger = size * 2;
        if (start % bigger != 0 || start + bigger > FAMILY_LIMIT)
            return size;
        for (unsigned f = start + size; f < start + bigger; f++)
            if (family_allowed(f, net))
                return size;
        size = bigger;
    }
}

static int add_family_refusals(scmp_filter_ctx f, enum seccomp_net net, int nr)
{
    int rc = 0;
    for (unsigned family = 0; family < FAMILY_LIMIT && rc == 0;) {
        if (family_allowed(family, net)) {
            family++;
            continue;
        }
        unsigned size = refused_block(family, net);
        rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EAFNOSUPPORT), nr, 1,
                              masked_eq(0, 0xffffffffULL & ~(uint64_t)(size - 1), family));
        family += size;
    }
    return rc;
}

/* With the proxy only, AF_INET/AF_INET6 sockets are TCP: stream sockets of
 * protocol 0 or IPPROTO_TCP -- SCTP, MPTCP and SMC stream sockets are not
 * TCP, and Landlock's TCP rules do not see them. */
static int add_tcp_only_rules(scmp_filter_ctx f, int nr_socket)
{
    int rc = 0;
    static const unsigned inet_families[] = {AF_INET, AF_INET6};
    for (size_t i = 0; i < sizeof inet_families / sizeof inet_families[0] && rc == 0; i++) {
        struct scmp_arg_cmp is_family = masked_eq(0, 0xffffffffULL, inet_families[i]);
        for (unsigned type = 0; type <= SOCK_TYPE_BITS && rc == 0; type++)
            if (type != SOCK_STREAM)
                rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), nr_socket, 2, is_family,
                                      masked_eq(1, SOCK_TYPE_BITS, type));
        /* Compared as 64 bits: a negative int or high garbage is above too. */
        if (rc == 0)
            rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPROTONOSUPPORT), nr_socket, 2, is_family,
                                  (struct scmp_arg_cmp){.arg = 2, .op = SCMP_CMP_GT, .datum_a = IPPROTO_TCP});
    }
    return rc;
}

/* socket(2) and socketpair(2) (which creates its two sockets before it
 * asks the family whether it can pair them) by family; socket(2) by type
 * and protocol with the proxy. */
static int add_family_rules(scmp_filter_ctx f, const struct seccomp_shape *shape)
{
    int rc = add_family_refusals(f, shape->net, seccomp_syscall_resolve_name("socket"));
    if (rc == 0)
        rc = add_family_refusals(f, shape->net, seccomp_syscall_resolve_name("socketpair"));
    if (rc == 0 && shape->net == SECCOMP_NET_TCP_ONLY)
        rc = add_tcp_only_rules(f, seccomp_syscall_resolve_name("socket"));
    return rc;
}

/* A filter that names `arch` only: libseccomp starts from the architecture
 * it was built for, which a cross build's generator does not run on. */
static int select_arch(scmp_filter_ctx f, uint32_t arch, char *err, size_t errlen)
{
    if (arch == SCMP_ARCH_NATIVE || arch == seccomp_arch_native())
        return 0;
    int rc = seccomp_arch_add(f, arch);
    if (rc == 0)
        rc = seccomp_arch_remove(f, SCMP_ARCH_NATIVE);
    if (rc != 0)
        snprintf(err, errlen, "seccomp: cannot build the filter for architecture 0x%x: %s", arch,
                 strerror(-rc));
    return rc;
}

/* libseccomp's API level 5: SCMP_ACT_KILL_PROCESS and SCMP_ACT_NOTIFY
 * (Linux >= 5.0; the sandbox needs >= 5.11 anyway).  Pinned rather than probed: the program is
 * built once, on a build machine whose kernel (a container's, qemu-user's)
 * may answer the probes differently from the kernels the binary will meet. */
#define SECCOMP_RULES_API_LEVEL 5

scmp_filter_ctx seccomp_rules_build(const struct seccomp_shape *shape, uint32_t arch, char *err,
                                    size_t errlen)
{
    int rc = seccomp_api_set(SECCOMP_RULES_API_LEVEL);
    if (rc != 0) {
        snprintf(err, errlen, "seccomp: cannot select libseccomp API level %d: %s", SECCOMP_RULES_API_LEVEL,
                 strerror(-rc));
        return NULL;
    }
    scmp_filter_ctx f = seccomp_init(SCMP_ACT_ALLOW);
    if (!f) {
        snprintf(err, errlen, "cannot create the seccomp filter (seccomp_init)");
        return NULL;
    }
    rc = seccomp_attr_set(f, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    if (rc != 0) {
        snprintf(err, errlen, "cannot set the seccomp bad-architecture action: %s", strerror(-rc));
        goto fail;
    }
    /* A binary tree of syscall numbers instead of a linear chain of
     * comparisons (libseccomp >= 2.5): the same rules and actions, fewer
     * instructions run per syscall and a shorter load. */
    rc = seccomp_attr_set(f, SCMP_FLTATR_CTL_OPTIMIZE, 2);
    if (rc != 0) {
        snprintf(err, errlen, "cannot select libseccomp's binary-tree filter layout: %s", strerror(-rc));
        goto fail;
    }
    if (select_arch(f, arch, err, errlen) != 0)
        goto fail;
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        const struct rule *r = &rules[i];
        if (!rule_applies(r, shape))
            continue;
        /* Resolved for the generator's own architecture: libseccomp
         * translates the number to `arch` by name when it adds the rule. */
        int nr = seccomp_syscall_resolve_name(r->name);
        if (nr == __NR_SCMP_ERROR) {
            snprintf(err, errlen,
                     "seccomp: libseccomp does not know the syscall '%s'; "
                     "rebuild against libseccomp >= 2.5",
                     r->name);
            goto fail;
        }
        if ((rc = add_rule(f, r, nr)) != 0) {
            snprintf(err, errlen, "seccomp: cannot add the rule for %s (%s): %s", r->name, r->why,
                     strerror(-rc));
            goto fail;
        }
    }
    if ((rc = add_family_rules(f, shape)) != 0) {
        snprintf(err, errlen, "seccomp: cannot add the socket family rules: %s", strerror(-rc));
        goto fail;
    }
    return f;
fail:
    seccomp_release(f);
    return NULL;
}

int seccomp_rules_export(scmp_filter_ctx f, unsigned char **prog, size_t *len, char *err, size_t errlen)
{
    /* libseccomp 2.5 exports to a descriptor only. */
    FILE *tmp = tmpfile();
    if (!tmp) {
        snprintf(err, errlen, "seccomp: cannot create a temporary file for the program: %s", strerror(errno));
        return -1;
    }
    int rc = seccomp_export_bpf(f, fileno(tmp));
    /* It wrote through the descriptor: the FILE's position knows nothing. */
    long size = rc == 0 && fseek(tmp, 0, SEEK_END) == 0 ? ftell(tmp) : -1;
    if (rc != 0 || size <= 0) {
        snprintf(err, errlen, "seccomp: cannot export the program: %s", strerror(rc ? -rc : EIO));
        fclose(tmp);
        return -1;
    }
    *prog = malloc((size_t)size);
    rewind(tmp);
    if (!*prog || fread(*prog, 1, (size_t)size, tmp) != (size_t)size) {
        snprintf(err, errlen, "seccomp: cannot read the exported program back");
        free(*prog);
        *prog = NULL;
        fclose(tmp);
        return -1;
    }
    fclose(tmp);
    *len = (size_t)size;
    return 0;
}
