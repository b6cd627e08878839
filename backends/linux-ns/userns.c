/*
 * userns.c — split into the new namespaces and become root of the user
 * namespace.
 *
 * clone(2) is called directly (no separate stack, fork semantics) with
 * CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID, so the child is already PID 1
 * of the new PID namespace: no intermediate process; and with
 * CLONE_NEWIPC (the host's SysV IPC and POSIX message queues are otherwise
 * shared, even read_only with egress off), CLONE_NEWUTS (a hostname the
 * workload can set without renaming the host, and that does not name it)
 * and CLONE_NEWCGROUP (/proc/self/cgroup no longer shows the caller's
 * cgroup path).  The network namespace is created afterwards by the
 * workload, in parallel with the mounts (netns.c).
 *
 * Dying with the supervisor: the child sets PR_SET_PDEATHSIG = SIGKILL.  The
 * usual getppid() re-check does not work across a PID namespace (the parent
 * is outside, getppid() is 0), so a "lifeline" pipe is used instead: the
 * supervisor keeps the write end open for its whole life and never writes;
 * once the child has set PDEATHSIG it closes its own copy of the write end
 * and polls the read end: POLLHUP means the supervisor is already gone.
 * When the init dies, the kernel kills everything left in its PID namespace.
 *
 * Id maps: the caller's uid and gid map to themselves (one line each,
 * setgroups denied), which an unprivileged process may write for itself:
 * `id` inside says what it says outside (tools that refuse to run as root,
 * initdb or Chromium, work), and for a non-root caller uid 0 is not mapped,
 * so nothing inside can become it (setuid(0) fails with EINVAL).  The init
 * still holds every capability of the new namespace, whatever its uid (the
 * kernel gives them to a user namespace's first process), until it forks
 * the workload, which drops them all in harden() (caps.c).  The
 * supervisor is non-dumpable (self_protect.c), which makes the /proc/self id-map files
 * owned by global root (uid_map and friends) and unwritable to an unprivileged caller; the child
 * is made dumpable only while it writes them (nothing untrusted exists yet)
 * and non-dumpable again before anything else, so the init that the workload
 * later sees as PID 1 cannot be read through /proc/1/mem or ptrace'd.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "linux_ns.h"

static int lifeline[2] = {-1, -1};

pid_t userns_clone(char *err, size_t errlen)
{
    if (userns_limits_read(err, errlen) != 0)
        return -1;
    if (pipe2(lifeline, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot create the lifeline pipe: %s", strerror(errno));
        return -1;
    }
    unsigned long flags =
        CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP | SIGCHLD;
    /* The caller blocks the forwarded signals across this call
     * (linux-common's process/supervised_fork.c). */
    long pid = syscall(SYS_clone, flags, NULL, NULL, NULL, NULL);
    if (pid < 0) {
        int e = errno;
        close(lifeline[0]);
        close(lifeline[1]);
        kernel_diag_userns("cannot create the sandbox namespaces (clone)", e, err, errlen);
        return -1;
    }
    /* The supervisor keeps lifeline[1] open until it dies (O_CLOEXEC; it
     * never execs); the child's ends are userns_child_setup()'s. */
    if (pid > 0)
        close(lifeline[0]);
    return (pid_t)pid;
}

static int write_file(const char *path, const char *text, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        char step[96];
        snprintf(step, sizeof step, "cannot write %s", path);
        kernel_diag_userns(step, e, err, errlen);
        return -1;
    }
    close(fd);
    return 0;
}

static int write_id_maps(const struct linux_ns_state *st, char *err, size_t errlen)
{
    char line[64];
    if (write_file("/proc/self/setgroups", "deny", err, errlen) != 0)
        return -1;
    snprintf(line, sizeof line, "%lu %lu 1\n", (unsigned long)st->uid, (unsigned long)st->uid);
    if (write_file("/proc/self/uid_map", line, err, errlen) != 0)
        return -1;
    snprintf(line, sizeof line, "%lu %lu 1\n", (unsigned long)st->gid, (unsigned long)st->gid);
    return write_file("/proc/self/gid_map", line, err, errlen);
}

int userns_child_setup(const struct linux_ns_state *st, char *err, size_t errlen)
{
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) {
        snprintf(err, errlen, "cannot tie the sandbox to the supervisor (PR_SET_PDEATHSIG): %s",
                 strerror(errno));
        return -1;
    }
    close(lifeline[1]);
    /* Only POLLHUP says the supervisor is gone; an interrupted poll does
     * not (the caller keeps signals blocked here, but this check must never
     * turn a signal into a failed launch). */
    struct pollfd pfd = {.fd = lifeline[0], .events = POLLIN};
    int ready;
    while ((ready = poll(&pfd, 1, 0)) < 0 && errno == EINTR)
        ;
    if (ready < 0) {
        snprintf(err, errlen, "cannot check that the supervisor is alive (poll): %s", strerror(errno));
        return -1;
    }
    if (ready > 0 && (pfd.revents & POLLHUP)) {
        /* The supervisor died between clone and PDEATHSIG. */
        snprintf(err, errlen, "the supervisor exited while the sandbox was being created");
        return -1;
    }
    close(lifeline[0]);
    if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0) {
        snprintf(err, errlen, "prctl(PR_SET_DUMPABLE, 1): %s", strerror(errno));
        return -1;
    }
    int rc = write_id_maps(st, err, errlen);
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
        snprintf(err, errlen, "cannot make the sandbox init non-dumpable again: %s", strerror(errno));
        return -1;
    }
    return rc;
}

/* The name the workload sees: resolvable everywhere (/etc/hosts), and not
 * the host's. */
#define SANDBOX_HOSTNAME "localhost"

int userns_init_session(char *err, size_t errlen)
{
    /* A session of its own, inherited by the workload: kill(0, sig) and
     * killpg() no longer reach the caller's process group (its shell and
     * other jobs), and with no controlling terminal TIOCSPGRP / tcsetpgrp
     * cannot make the sandbox the terminal's foreground group.  On kernels
     * with Landlock's signal scope that is a second layer; before 6.12 it is
     * the only one.  The supervisor stays in the caller's process group and
     * forwards the terminal's ^C, ^\ and window changes. */
    if (setsid() < 0) {
        snprintf(err, errlen, "cannot give the sandbox a session of its own (setsid): %s", strerror(errno));
        return -1;
    }
    if (sethostname(SANDBOX_HOSTNAME, sizeof SANDBOX_HOSTNAME - 1) != 0) {
        /* EPERM here is a container's seccomp profile (Docker's and
         * podman's allow sethostname only with CAP_SYS_ADMIN outside). */
        kernel_diag_userns("cannot set the sandbox's hostname in its UTS namespace", errno, err, errlen);
        return -1;
    }
    return 0;
}

int userns_probe(const struct linux_ns_state *st, char *err, size_t errlen)
{
    int said[2];
    if (pipe2(said, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot create a pipe for the namespace probe: %s", strerror(errno));
        return -1;
    }
    pid_t pid = userns_clone(err, errlen);
    if (pid < 0) {
        close(said[0]);
        close(said[1]);
        return -1;
    }
    if (pid == 0) {
        /* The launch's init, up to its first mount, then nothing more. */
        char why[SANDBOX_ERROR_MAX] = "";
        if (userns_child_setup(st, why, sizeof why) == 0 && userns_limits_write(why, sizeof why) == 0 &&
            userns_init_session(why, sizeof why) == 0 &&
            mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
            /* mount_policy_apply()'s first step, where AppArmor's restriction shows. */
            kernel_diag_userns("cannot make the mount namespace private", errno, why, sizeof why);
        ssize_t w = write(said[1], why, strlen(why));
        _exit(w < 0 ? 1 : 0);
    }
    close(said[1]);
    size_t got = 0;
    ssize_t n;
    while (got + 1 < errlen &&
           ((n = read(said[0], err + got, errlen - 1 - got)) > 0 || (n < 0 && errno == EINTR)))
        got += n > 0 ? (size_t)n : 0;
    err[got] = '\0';
    close(said[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    close(lifeline[1]); /* the child's proof that we live, not needed now */
    if (got == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        snprintf(err, errlen, "the namespace probe ended with wait status 0x%x", status);
    return err[0] ? -1 : 0;
}
