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
 * The init holds no descriptor but 0-2 and the status pipe, runs no
 * untrusted code, and is non-dumpable (userns.c), so the workload can neither
 * ptrace it nor open /proc/1/mem, /proc/1/root or /proc/1/cwd.
 */
#include "config.h"

#include <errno.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "linux_ns.h"
#include "supervise.h"

#ifndef SYS_close_range
#define SYS_close_range 436
#endif

/* Keep 0-2 and the status pipe; anything else inherited from the caller is
 * of no use to the init (the workload has its own copy, closed in harden). */
static void close_others(int keep)
{
    if (keep > 3)
        syscall(SYS_close_range, 3U, (unsigned)keep - 1, 0U);
    syscall(SYS_close_range, (unsigned)keep + 1, ~0U, 0U);
}

void ns_init_run(pid_t workload, int status_fd)
{
    close_others(status_fd);
    for (;;) {
        int status;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            _exit(125); /* ECHILD: cannot happen while the workload lives */
        }
        if (pid != workload)
            continue; /* an orphan, reaped */
        ssize_t n;
        do
            n = write(status_fd, &status, sizeof status);
        while (n < 0 && errno == EINTR);
        if (n == (ssize_t)sizeof status)
            _exit(0);
        /* The status could not be sent: say as much as an exit code can. */
        _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    }
}
