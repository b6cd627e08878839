/*
 * ns_attack — attacks the linux-ns tests run inside (and, as a control,
 * outside) the sandbox.  Usage: ns_attack ATTACK [ARG...]
 *
 * Exit status: 0 the attack was refused as the test expects, 1 the attack
 * SUCCEEDED (the boundary failed), 2 usage or setup error, 3 refused but
 * not in the expected way (the message says how).  Attacks the filter must
 * kill (i386, x32) never return: the test expects death by SIGSYS.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int refused(const char *what, int want)
{
    int e = errno;
    if (want && e != want) {
        printf("refused-other: %s: %s (wanted %s)\n", what, strerror(e), strerror(want));
        return 3;
    }
    printf("refused: %s: %s\n", what, strerror(e));
    return 0;
}

static int escaped(const char *what)
{
    printf("ESCAPED: %s\n", what);
    return 1;
}

static int a_ptrace1(void)
{
    if (ptrace(PTRACE_ATTACH, 1, 0, 0) == 0)
        return escaped("ptrace attach to PID 1");
    return refused("ptrace attach to PID 1", 0);
}

static int a_mem1(void)
{
    int fd = open("/proc/1/mem", O_RDWR);
    if (fd >= 0)
        return escaped("opened /proc/1/mem");
    fd = open("/proc/1/mem", O_RDONLY);
    if (fd >= 0)
        return escaped("opened /proc/1/mem read-only");
    return refused("open /proc/1/mem", 0);
}

static int a_kill(const char *arg)
{
    pid_t pid = (pid_t)atoi(arg);
    if (pid <= 2)
        return 2;
    if (kill(pid, SIGKILL) == 0)
        return escaped("kill(host pid) succeeded");
    return refused("kill host process", 0);
}

static int tcp_socket(void)
{
    return socket(AF_INET, SOCK_STREAM, 0);
}

static int a_bind(void)
{
    int s = tcp_socket();
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(s, (struct sockaddr *)&a, sizeof a) == 0)
        return escaped("bind 127.0.0.1");
    return refused("bind", EPERM);
}

static int a_listen(void)
{
    int s = tcp_socket();
    if (listen(s, 1) == 0) /* autobind */
        return escaped("listen");
    return refused("listen", EPERM);
}

static int a_bind_ok(void)
{
    int s = tcp_socket();
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(s, (struct sockaddr *)&a, sizeof a) != 0 || listen(s, 1) != 0) {
        printf("bind/listen failed: %s\n", strerror(errno));
        return 3;
    }
    socklen_t len = sizeof a;
    getsockname(s, (struct sockaddr *)&a, &len);
    int c = tcp_socket();
    if (connect(c, (struct sockaddr *)&a, sizeof a) != 0) {
        printf("connect to own listener failed: %s\n", strerror(errno));
        return 3;
    }
    printf("bind+listen+connect on loopback work\n");
    return 0;
}

/* ---- io_uring: IORING_OP_BIND / IORING_OP_LISTEN (Linux >= 6.11) ---- */
#define OP_BIND 56
#define OP_LISTEN 57

struct ring {
    int fd;
    unsigned *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
    struct io_uring_sqe *sqes;
    struct io_uring_cqe *cqes;
};

static int ring_setup(struct ring *r)
{
    struct io_uring_params p;
    memset(&p, 0, sizeof p);
    r->fd = (int)syscall(__NR_io_uring_setup, 4, &p);
    if (r->fd < 0)
        return -1;
    char *sq = mmap(NULL, p.sq_off.array + p.sq_entries * sizeof(unsigned), PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQ_RING);
    char *cq = mmap(NULL, p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe), PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_CQ_RING);
    r->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
    if (sq == MAP_FAILED || cq == MAP_FAILED || r->sqes == MAP_FAILED)
        return -2;
    r->sq_tail = (unsigned *)(sq + p.sq_off.tail);
    r->sq_mask = (unsigned *)(sq + p.sq_off.ring_mask);
    r->sq_array = (unsigned *)(sq + p.sq_off.array);
    r->cq_head = (unsigned *)(cq + p.cq_off.head);
    r->cq_tail = (unsigned *)(cq + p.cq_off.tail);
    r->cq_mask = (unsigned *)(cq + p.cq_off.ring_mask);
    r->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
    return 0;
}

/* Submit one SQE and return its result (-errno or >= 0). */
static int ring_run(struct ring *r, struct io_uring_sqe *tmpl)
{
    unsigned tail = *r->sq_tail;
    unsigned idx = tail & *r->sq_mask;
    r->sqes[idx] = *tmpl;
    r->sq_array[idx] = idx;
    __atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
    if (syscall(__NR_io_uring_enter, r->fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
        return -errno;
    unsigned head = *r->cq_head;
    if (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE))
        return -EAGAIN;
    int res = r->cqes[head & *r->cq_mask].res;
    __atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
    return res;
}

static int a_uring_bind(void)
{
    struct ring r;
    int rc = ring_setup(&r);
    if (rc == -1)
        return refused("io_uring_setup", ENOSYS);
    if (rc != 0) {
        printf("io_uring mmap failed: %s\n", strerror(errno));
        return 2;
    }
    int s = tcp_socket();
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    struct io_uring_sqe sqe;
    memset(&sqe, 0, sizeof sqe);
    sqe.opcode = OP_BIND;
    sqe.fd = s;
    sqe.addr = (uint64_t)(uintptr_t)&a;
    sqe.off = sizeof a;
    int res = ring_run(&r, &sqe);
    if (res < 0) {
        errno = -res;
        return refused("IORING_OP_BIND", 0);
    }
    memset(&sqe, 0, sizeof sqe);
    sqe.opcode = OP_LISTEN;
    sqe.fd = s;
    sqe.len = 1;
    res = ring_run(&r, &sqe);
    if (res < 0) {
        errno = -res;
        printf("io_uring bind worked, listen refused: %s\n", strerror(errno));
        return 1;
    }
    return escaped("bind+listen through io_uring");
}

static int a_tiocsti(void)
{
    char c = ' ';
    int rc = 0;
    if (ioctl(0, TIOCSTI, &c) == 0)
        return escaped("TIOCSTI");
    rc |= refused("TIOCSTI", EPERM);
    if (syscall(SYS_ioctl, 0, (unsigned long)TIOCSTI | (1UL << 32), &c) == 0)
        return escaped("TIOCSTI with high bits set");
    rc |= refused("TIOCSTI | 1<<32", EPERM);
    return rc;
}

static int a_tioclinux(void)
{
    char sub = 2; /* TIOCL_SETSEL */
    if (ioctl(0, TIOCLINUX, &sub) == 0)
        return escaped("TIOCLINUX");
    return refused("TIOCLINUX", EPERM);
}

static int a_i386(void)
{
#if defined(__x86_64__)
    long ret;
    __asm__ volatile("int $0x80" : "=a"(ret) : "a"(20L) : "memory"); /* i386 getpid */
    printf("ESCAPED: i386 int 0x80 returned %ld\n", ret);
    return 1;
#else
    printf("not x86_64\n");
    return 2;
#endif
}

static int a_x32(void)
{
#if defined(__x86_64__)
    long ret = syscall(0x40000000L | 39L); /* x32 getpid */
    printf("ESCAPED: x32 syscall returned %ld (%s)\n", ret, ret < 0 ? strerror(errno) : "ok");
    return 1;
#else
    printf("not x86_64\n");
    return 2;
#endif
}

static int a_userns(void)
{
    if (unshare(CLONE_NEWUSER) == 0)
        return escaped("unshare(CLONE_NEWUSER)");
    int rc = refused("unshare(CLONE_NEWUSER)", EPERM);
    long pid = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, NULL, NULL, NULL, NULL);
    if (pid == 0)
        _exit(0);
    if (pid > 0)
        return escaped("clone(CLONE_NEWUSER)");
    rc |= refused("clone(CLONE_NEWUSER)", EPERM);
    uint64_t args[11] = {0};
    args[0] = CLONE_NEWUSER;
    args[4] = SIGCHLD;
    pid = syscall(435 /* clone3 */, args, sizeof args);
    if (pid == 0)
        _exit(0);
    if (pid > 0)
        return escaped("clone3(CLONE_NEWUSER)");
    rc |= refused("clone3", ENOSYS);
    return rc;
}

static int a_keyctl(void)
{
    /* KEYCTL_GET_KEYRING_ID (0) of the session keyring (-3) */
    if (syscall(SYS_keyctl, 0, -3, 0) >= 0)
        return escaped("keyctl on the session keyring");
    int rc = refused("keyctl", EPERM);
    if (syscall(SYS_add_key, "user", "x", "y", 1, -3) >= 0)
        return escaped("add_key");
    rc |= refused("add_key", EPERM);
    return rc;
}

/* A caller that is not root becomes root inside by no means: uid and gid 0
 * are not mapped (set*id fails), setgroups is denied and the id maps, once
 * written, cannot be rewritten. */
static int write_map(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    int e = errno;
    close(fd);
    errno = e;
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

static int a_become_root(void)
{
    int rc = 0;
    if (syscall(SYS_setuid, 0) == 0)
        return escaped("setuid(0)");
    rc |= refused("setuid(0)", 0);
    if (syscall(SYS_setresuid, 0, 0, 0) == 0)
        return escaped("setresuid(0, 0, 0)");
    rc |= refused("setresuid(0, 0, 0)", 0);
    if (syscall(SYS_setgid, 0) == 0)
        return escaped("setgid(0)");
    rc |= refused("setgid(0)", 0);
    if (syscall(SYS_setresgid, 0, 0, 0) == 0)
        return escaped("setresgid(0, 0, 0)");
    rc |= refused("setresgid(0, 0, 0)", 0);
    return rc;
}

static int a_rewrite_maps(void)
{
    int rc = 0;
    if (syscall(SYS_setgroups, 0, NULL) == 0)
        return escaped("setgroups(0, NULL)");
    rc |= refused("setgroups", EPERM);
    if (write_map("/proc/self/uid_map", "0 0 1\n") == 0)
        return escaped("wrote /proc/self/uid_map");
    rc |= refused("write /proc/self/uid_map", 0);
    if (write_map("/proc/self/gid_map", "0 0 1\n") == 0)
        return escaped("wrote /proc/self/gid_map");
    rc |= refused("write /proc/self/gid_map", 0);
    if (write_map("/proc/self/setgroups", "allow") == 0)
        return escaped("wrote allow to /proc/self/setgroups");
    rc |= refused("write /proc/self/setgroups", 0);
    return rc;
}

static int a_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return 2;
    int bad = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        int fd = atoi(e->d_name);
        if (e->d_name[0] == '.' || fd <= 2 || fd == dirfd(d))
            continue;
        char link[256] = "";
        char p[64];
        snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(p, link, sizeof link - 1);
        link[n > 0 ? n : 0] = '\0';
        printf("ESCAPED: inherited descriptor %d -> %s\n", fd, link);
        bad = 1;
    }
    closedir(d);
    if (!bad)
        printf("only 0, 1, 2\n");
    return bad;
}

/* Remount read-write / unmount `path`, directly and from a user namespace
 * of our own. */
static int mount_attempts(const char *path, const char *where)
{
    char what[256];
    if (mount(NULL, path, NULL, MS_REMOUNT | MS_BIND, NULL) == 0) {
        snprintf(what, sizeof what, "%s: remount,rw %s", where, path);
        return escaped(what);
    }
    if (mount(NULL, path, NULL, MS_REMOUNT, NULL) == 0) {
        snprintf(what, sizeof what, "%s: remount %s", where, path);
        return escaped(what);
    }
    if (umount2(path, MNT_DETACH) == 0) {
        snprintf(what, sizeof what, "%s: umount %s", where, path);
        return escaped(what);
    }
    snprintf(what, sizeof what, "%s: remount/umount %s", where, path);
    return refused(what, 0);
}

static int a_mount(const char *path)
{
    int rc = mount_attempts(path, "sandbox");
    if (rc == 1)
        return 1;
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
        return rc | refused("unshare(CLONE_NEWUSER|CLONE_NEWNS) for a nested attempt", 0);
    printf("ESCAPED: nested user namespace created (the filter should have refused it)\n");
    mount_attempts(path, "nested userns");
    return 1;
}

/* Rename (or, with RENAME_EXCHANGE, swap) `from` and `to`: inside a
 * writable root this must fail with EBUSY when either is on the way to a
 * denied path.  renameat2 by syscall: older libcs have no wrapper. */
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
static int a_rename(const char *from, const char *to, unsigned flags)
{
    char what[512];
    snprintf(what, sizeof what, "%s %s %s", flags ? "exchange" : "rename", from, to);
    if (!*from || !*to)
        return 2;
    if (syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, flags) == 0)
        return escaped(what);
    return refused(what, EBUSY);
}

/* The attacks that take arguments: ATTACK ARG [ARG2]. */
static int w_kill(const char *arg, const char *arg2)
{
    (void)arg2;
    return a_kill(arg);
}

static int w_mount(const char *arg, const char *arg2)
{
    (void)arg2;
    return a_mount(arg);
}

static int w_rename(const char *from, const char *to)
{
    return a_rename(from, to, 0);
}

static int w_exchange(const char *from, const char *to)
{
    return a_rename(from, to, RENAME_EXCHANGE);
}

/* ATTACK's name, and its function: with no argument, or with two. */
static const struct {
    const char *name;
    int (*plain)(void);
    int (*with_args)(const char *arg, const char *arg2);
} attacks[] = {
    {"ptrace1", a_ptrace1, NULL},
    {"mem1", a_mem1, NULL},
    {"kill", NULL, w_kill},
    {"bind", a_bind, NULL},
    {"listen", a_listen, NULL},
    {"bind-ok", a_bind_ok, NULL},
    {"uring-bind", a_uring_bind, NULL},
    {"tiocsti", a_tiocsti, NULL},
    {"tioclinux", a_tioclinux, NULL},
    {"i386", a_i386, NULL},
    {"x32", a_x32, NULL},
    {"userns", a_userns, NULL},
    {"keyctl", a_keyctl, NULL},
    {"fds", a_fds, NULL},
    {"become-root", a_become_root, NULL},
    {"rewrite-maps", a_rewrite_maps, NULL},
    {"mount", NULL, w_mount},
    {"rename", NULL, w_rename},
    {"exchange", NULL, w_exchange},
};

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc < 2)
        return 2;
    const char *a = argv[1], *arg = argc > 2 ? argv[2] : "", *arg2 = argc > 3 ? argv[3] : "";
    for (size_t i = 0; i < sizeof attacks / sizeof attacks[0]; i++)
        if (!strcmp(a, attacks[i].name))
            return attacks[i].plain ? attacks[i].plain() : attacks[i].with_args(arg, arg2);
    fprintf(stderr, "unknown attack %s\n", a);
    return 2;
}
