#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "diag.h"
#include "signal_name.h"
#include "supervise.h"

/* SIGWINCH: a full-screen program in a session of its own learns of a
 * resized terminal only through us (its default action is to ignore). */
static const int forwarded[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGWINCH};
#define N_FORWARDED (sizeof forwarded / sizeof forwarded[0])

static volatile pid_t forward_pid;
static volatile sig_atomic_t forward_terminal_signals;

/*
 * Forward signals sent to us with kill(2) (si_code <= 0), and the terminal's
 * (si_code SI_KERNEL) only when the child is in a session of its own: else
 * the kernel already delivered them to the child's process group, and a
 * second copy would arrive.
 */
static void forward(int sig, siginfo_t *info, void *unused)
{
    (void)unused;
    if (!info || (info->si_code > 0 && !forward_terminal_signals))
        return;
    int saved = errno;
    kill(forward_pid, sig);
    errno = saved;
}

void forwarded_signals_block(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < N_FORWARDED; i++)
        sigaddset(&set, forwarded[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

void forward_signals_to(pid_t pid)
{
    forward_pid = pid; /* before the handler can run */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = forward;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < N_FORWARDED; i++)
        sigaction(forwarded[i], &sa, NULL);
}

void reproduce_status(int status)
{
    if (WIFEXITED(status))
        _exit(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        /* Die of the same signal: default action, unblocked, no core file
         * (RLIMIT_CORE is already 0, so a SIGSEGV/SIGQUIT reproduction does
         * not write one on the workload's behalf). */
        struct rlimit none = {0, 0};
        setrlimit(RLIMIT_CORE, &none);
        signal(sig, SIG_DFL);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, sig);
        sigprocmask(SIG_UNBLOCK, &set, NULL);
        raise(sig);
        /* A signal whose default action is not to terminate (SIGCHLD,
         * SIGURG, SIGWINCH) cannot kill a process at all; shells report those
         * deaths as 128 + S, and so do we. */
        _exit(128 + sig);
    }
    /* A stop or continue report (a tracer's view): not an end, and not
     * "the target never ran" either, so never a silent 125. */
    diag_fatal("the sandbox reported wait status 0x%x, which is neither an exit nor a death by signal",
               status);
}

/* The caller's terminal as it was, to hand it back as it was: a workload
 * that turned echo off (or raw mode) and died would otherwise leave the
 * caller's shell unusable.  Only from the terminal's foreground group: a
 * background process that writes terminal settings is stopped (SIGTTOU). */
static bool terminal_saved;
static struct termios terminal;

static void terminal_save(void)
{
    terminal_saved = isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp() &&
                     tcgetattr(STDIN_FILENO, &terminal) == 0;
}

static void terminal_restore(void)
{
    if (terminal_saved && tcgetpgrp(STDIN_FILENO) == getpgrp())
        (void)tcsetattr(STDIN_FILENO, TCSANOW, &terminal);
}

/* How the workload ended, as the status pipe says (backend.h). */
struct ended {
    int status;
    int killed; /* the sandbox killed processes the workload left */
};

/* The report's last line: how the workload ended. */
static void ended_fields(struct report_line *l, const void *arg)
{
    const struct ended *e = arg;
    char name[32];
    if (WIFEXITED(e->status))
        report_field_uint(l, "status", (unsigned long long)WEXITSTATUS(e->status));
    else if (WIFSIGNALED(e->status))
        report_field_string(l, "signal", signal_name(WTERMSIG(e->status), name, sizeof name), sizeof name);
    report_field_bool(l, "killedBySupervisor", e->killed != 0);
}

/* The child's death before it wrote the workload's status, for the report. */
struct unreported {
    const struct sandbox_monitor *monitor;
    int sig;
};

static void died_fields(struct report_line *l, const void *arg)
{
    const struct unreported *u = arg;
    char name[32];
    report_field_string(l, "process", u->monitor->role ? u->monitor->role : "child", 16);
    report_field_string(l, "signal", signal_name(u->sig, name, sizeof name), sizeof name);
}

/* The child that reports the workload's status died of a signal first (an
 * exit without the status is its own failure, already on stderr): said
 * here, since the status reproduced next is the child's, not the
 * workload's, which died with it. */
static void child_died_unreported(const struct sandbox_monitor *m, int status, int report_fd)
{
    if (!WIFSIGNALED(status))
        return;
    char name[32];
    diag("%s: the sandbox's %s process (pid %d) was killed by %s before it reported how the workload ended; "
         "the workload and everything it ran ended with it",
         m->backend ? m->backend : "sandbox", m->role ? m->role : "child", (int)m->pid,
         signal_name(WTERMSIG(status), name, sizeof name));
    report_write(report_fd, "sandbox-died", died_fields, &(struct unreported){m, WTERMSIG(status)});
}

void supervise(const struct sandbox_monitor *monitor, int report_fd)
{
    forward_terminal_signals = monitor->own_session;
    if (monitor->own_session)
        terminal_save();
    forward_signals_to(monitor->pid);
    struct ended e = {0, 0};
    while (waitpid(monitor->pid, &e.status, 0) < 0) {
        if (errno != EINTR)
            diag_fatal("waiting for the sandbox (pid %d) failed: %s", (int)monitor->pid, strerror(errno));
    }
    if (monitor->status_fd >= 0) {
        int reported[2];
        ssize_t got;
        do
            got = read(monitor->status_fd, reported, sizeof reported);
        while (got < 0 && errno == EINTR);
        if (got == (ssize_t)sizeof reported)
            e = (struct ended){reported[0], reported[1]};
        else
            child_died_unreported(monitor, e.status, report_fd);
        close(monitor->status_fd);
    }
    terminal_restore();
    if (WIFEXITED(e.status) || WIFSIGNALED(e.status))
        report_write_last(report_fd, "workload-ended", ended_fields, &e);
    report_descriptor_restore(report_fd);
    reproduce_status(e.status);
}
