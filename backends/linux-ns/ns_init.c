/*
 * ns_init.c — PID 1 of the sandbox's PID namespace, once the workload
 * (PID 2) exists.
 *
 * It forwards SIGHUP/SIGINT/SIGQUIT/SIGTERM sent to it (by the supervisor,
 * which forwards what it receives) to the workload (set up by backend.c
 * right after the fork; blocked from the clone on, so pending while the
 * init builds the sandbox, see init_main()), reaps every orphan that is
 * reparented to it, and when the workload ends writes the workload's raw
 * wait status (one int) to the status pipe and exits.  A PID-namespace init
 * cannot die of a signal it sends itself, hence the pipe; the supervisor
 * reproduces that status.  The init's exit makes the kernel SIGKILL
 * everything left in the namespace: nothing from the sandbox survives the
 * workload.
 *
 * It also makes the workload's connect() calls (connect_broker.c): the
 * workload's harden() hands it the seccomp listener over the link socket.
 *
 * The init holds no descriptor but 0-2, the status pipe, the link (until
 * the listener arrives), the listener and a signalfd for SIGCHLD; runs no
 * untrusted code, and is non-dumpable (userns.c), so the workload can neither
 * ptrace it nor open /proc/1/mem, /proc/1/root or /proc/1/cwd.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "linux_ns.h"
#include "supervise.h"

/* Write the workload's status to the supervisor and exit: the kernel then
 * kills whatever is left in the PID namespace. */
__attribute__((noreturn))
static void report(int status_fd, int status)
{
    ssize_t n;
    do
        n = write(status_fd, &status, sizeof status);
    while (n < 0 && errno == EINTR);
    if (n == (ssize_t)sizeof status)
        _exit(0);
    /* The status could not be sent: say as much as an exit code can. */
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

/* Reap every child that has ended; report when the workload has. */
static void reap(pid_t workload, int status_fd)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
        if (pid == workload)
            report(status_fd, status);
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

void ns_init_run(pid_t workload, int status_fd, int link, bool abstract_ok)
{
    char err[256];
    int keep[2] = {status_fd < link ? status_fd : link, status_fd < link ? link : status_fd};
    if (fd_close_except(keep, 2, err, sizeof err) != 0)
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
            if (listener >= 0 && !(broker = connect_broker_new(listener, abstract_ok))) {
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
