/*
 * broker_init.c — the process between the supervisor and the workload,
 * once the workload exists: linux-ns's PID 1, landlock's broker process.
 *
 * It forwards SIGHUP/SIGINT/SIGQUIT/SIGTERM sent to it (by the supervisor,
 * which forwards what it receives) to the workload (set up right after the
 * fork by supervised_fork.c, with those signals blocked until then), reaps
 * every orphan that is reparented to it, lets go of every child that made
 * it its tracer (release_tracee), and when the workload ends writes the
 * workload's raw wait status, and whether anything the workload left still
 * ran and was killed (two ints), to the status pipe and exits.  A
 * PID-namespace init cannot die of a signal it sends itself, hence the
 * pipe; the supervisor reproduces that status.
 *
 * Nothing from the sandbox survives the workload: a PID-namespace init's
 * exit makes the kernel SIGKILL everything left in the namespace; without
 * one (kill_orphans) this process, made the subreaper
 * (PR_SET_CHILD_SUBREAPER) by the backend before it forked the workload,
 * kills what is left before it reports.
 *
 * It also makes the workload's connect() calls (connect_broker.c): the
 * workload's harden() hands it the seccomp listener over the link socket.
 *
 * It holds no descriptor but 0-2, the status pipe, the link (until the
 * listener arrives), the listener, a signalfd for SIGCHLD, the anchors
 * of entry_broker.c (directories and unnamed files pinned at launch) and
 * the caller's report (where the broker says what it refused); runs no
 * untrusted code, and is non-dumpable (the backend makes it so), so the
 * workload can neither ptrace it nor open its /proc/PID/mem, root or cwd.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "brokers/entry_broker.h"
#include "limits/sandbox_limits.h"
#include "linux_common.h"

static bool kill_orphans_first;
static const struct sandbox_limits *limits;         /* NULL: none */
static const struct entry_anchors *pools_to_remove; /* entry_broker.c's, removed before the report */

/* SIGKILL each child of ours that /proc lists; true if there was one.  A
 * child's pid cannot be reused before we reap it, so the kill reaches
 * exactly it; its own children are then reparented to us, and found by
 * the next round. */
static bool kill_children(void)
{
    DIR *d = opendir("/proc");
    if (!d)
        return false;
    pid_t self = getpid();
    bool found = false;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char *end, path[64], line[512];
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0)
            continue;
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        FILE *f = fopen(path, "re");
        if (!f)
            continue;
        char *got = fgets(line, sizeof line, f);
        fclose(f);
        /* "pid (comm) state ppid ...": comm may hold spaces and ')'. */
        char *close_paren = got ? strrchr(line, ')') : NULL;
        int ppid;
        if (close_paren && sscanf(close_paren + 1, " %*c %d", &ppid) == 1 && ppid == self) {
            kill((pid_t)pid, SIGKILL);
            found = true;
        }
    }
    closedir(d);
    return found;
}

/* Reap the children that have ended already: a zombie still has a /proc
 * entry and takes a signal, and must not count as killed. */
static void reap_ended(void)
{
    int status;
    while (waitpid(-1, &status, WNOHANG) > 0)
        ;
}

/* Kill and reap everything left, round by round, until no child remains;
 * true if anything was still running. */
static bool kill_leftovers(void)
{
    int status;
    bool killed = false;
    reap_ended();
    while (kill_children()) {
        killed = true;
        reap_ended();
    }
    while (waitpid(-1, &status, 0) > 0)
        ;
    return killed;
}

/* A PID-namespace init: whether anything but itself still runs in the
 * namespace (its exit makes the kernel kill that; kill(-1) from the init
 * reaches exactly the namespace's processes, and fails with ESRCH when
 * there is none). */
static bool namespace_leftovers(void)
{
    if (getpid() != 1)
        return false;
    reap_ended();
    return kill(-1, SIGKILL) == 0;
}

/* Write the workload's status and whether the sandbox killed anything the
 * workload left (two ints, one write) to the supervisor and exit (with a
 * PID namespace, the kernel then kills whatever is left in it). */
__attribute__((noreturn)) static void report(int status_fd, int status)
{
    bool killed = kill_orphans_first ? kill_leftovers() : namespace_leftovers();
    if (limits && sandbox_limits_end(limits))
        killed = true;
    /* Nothing of the sandbox runs any more: what is left of the pools of
     * directories goes (the supervisor waits for this report). */
    entry_broker_remove_pools(pools_to_remove);
    int out[2] = {status, killed};
    ssize_t n;
    do
        n = write(status_fd, out, sizeof out);
    while (n < 0 && errno == EINTR);
    if (n == (ssize_t)sizeof out)
        _exit(0);
    /* The status could not be sent: say as much as an exit code can. */
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

/* A stop signal (the kernel's sig_kernel_stop()). */
static bool is_stop_signal(int sig)
{
    return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

/* `pid` stopped for us as its tracer: a child that called
 * ptrace(PTRACE_TRACEME) (the workload, or an orphan reparented to us).
 * This process is nobody's debugger: it lets the tracee go at once, as if
 * it had never been traced, so that the only status it reports is the
 * workload's exit or death.  The signal that stopped it is delivered on
 * the way out, except:
 *  - the SIGTRAP that execve sends a PTRACE_TRACEME tracee (SI_USER from
 *    itself: an untraced exec gets none; a kill(getpid(), SIGTRAP) looks
 *    the same and is dropped too);
 *  - a stop signal (SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU): delivered, it would
 *    stop the process with no job-control shell here to resume it;
 *  - nothing for a group-stop (PTRACE_GETSIGINFO fails); it is resumed
 *    after the detach instead, for the same reason.
 * ESRCH (not our tracee after all, or already dead) leaves it as it is. */
static void release_tracee(pid_t pid, int status)
{
    int sig = WSTOPSIG(status);
    siginfo_t si;
    bool group_stop = ptrace(PTRACE_GETSIGINFO, pid, NULL, &si) != 0;
    if (group_stop || is_stop_signal(sig) || (sig == SIGTRAP && si.si_code == SI_USER && si.si_pid == pid))
        sig = 0;
    if (ptrace(PTRACE_DETACH, pid, NULL, (void *)(long)sig) == 0 && group_stop)
        kill(pid, SIGCONT);
}

/* Reap every child that has ended, and let go of every one that stopped
 * for us as its tracer; report when the workload has ended.  Without
 * WUNTRACED only a tracee's stops are reported. */
static void reap(pid_t workload, int status_fd)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        if (WIFSTOPPED(status))
            release_tracee(pid, status);
        else if (pid == workload)
            report(status_fd, status);
    }
    if (pid < 0 && errno == ECHILD)
        _exit(125); /* cannot happen while the workload lives */
}

/* The listener from the workload's harden(), or -1 (it died first). */
static int take_listener(int link)
{
    char err[256];
    int fd;
    if (fd_pass_receive(link, 's', &fd, err, sizeof err) != 0)
        fd = -1;
    close(link);
    return fd;
}

void broker_init_run(pid_t workload, int status_fd, int link, const struct connect_rules *rules,
                     bool kill_orphans, int report_fd, const struct sandbox_limits *lim)
{
    char err[256];
    kill_orphans_first = kill_orphans;
    limits = lim;
    pools_to_remove = rules ? rules->anchors : NULL;
    /* The status pipe, the link, the report, the limits' descriptors, and
     * the anchors the broker acts from. */
    static int keep[3 + CGROUP_KEPT_FDS + ENTRY_BROKER_MAX_FDS];
    keep[0] = status_fd;
    keep[1] = link;
    keep[2] = report_fd;
    size_t nkeep = 3 + (lim ? sandbox_limits_fds(lim, keep + 3) : 0);
    nkeep += entry_broker_fds(rules, keep + nkeep, ENTRY_BROKER_MAX_FDS);
    if (fd_close_except_unsorted(keep, nkeep, err, sizeof err) != 0)
        _exit(125);
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, NULL);
    int sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
    if (sfd < 0)
        _exit(125);
    struct connect_broker *broker = NULL;
    int listener = -1;
    reap(workload, status_fd); /* it may have ended before SIGCHLD was blocked */
    static struct pollfd p[3 + CONNECT_BROKER_MAX_PENDING];
    for (;;) {
        int timeout = -1;
        size_t n = broker ? connect_broker_pollfds(broker, p + 3, &timeout) : 0;
        p[0] = (struct pollfd){.fd = sfd, .events = POLLIN};
        p[1] = (struct pollfd){.fd = link, .events = POLLIN};
        p[2] = (struct pollfd){.fd = listener, .events = POLLIN};
        if (poll(p, 3 + n, timeout) < 0)
            continue; /* EINTR: a forwarded signal */
        if (p[1].revents) {
            listener = take_listener(link);
            link = -1;
            /* No broker (out of memory): the workload's connect() calls
             * then fail (ENOSYS once the listener is closed), never pass. */
            if (listener >= 0 && !(broker = connect_broker_new(listener, rules, report_fd))) {
                close(listener);
                listener = -1;
            }
        }
        if (broker)
            connect_broker_progress(broker, p + 3);
        if (p[2].revents & POLLIN)
            connect_broker_serve(broker);
        if (p[2].revents & (POLLHUP | POLLERR | POLLNVAL))
            listener = -1; /* no process has the filter any more: stop polling (the broker keeps it) */
        if (p[0].revents) {
            struct signalfd_siginfo si;
            while (read(sfd, &si, sizeof si) == (ssize_t)sizeof si)
                ;
            reap(workload, status_fd);
        }
    }
}
