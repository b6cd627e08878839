/*
 * signal_name.c — see signal_name.h.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>

#include "signal_name.h"

#define NAMED(s) \
    {            \
        s, #s    \
    }
static const struct {
    int sig;
    const char *name;
} names[] = {
    NAMED(SIGHUP),    NAMED(SIGINT),  NAMED(SIGQUIT),  NAMED(SIGILL),  NAMED(SIGTRAP), NAMED(SIGABRT),
    NAMED(SIGBUS),    NAMED(SIGFPE),  NAMED(SIGKILL),  NAMED(SIGUSR1), NAMED(SIGSEGV), NAMED(SIGUSR2),
    NAMED(SIGPIPE),   NAMED(SIGALRM), NAMED(SIGTERM),  NAMED(SIGCHLD), NAMED(SIGCONT), NAMED(SIGSTOP),
    NAMED(SIGTSTP),   NAMED(SIGTTIN), NAMED(SIGTTOU),  NAMED(SIGURG),  NAMED(SIGXCPU), NAMED(SIGXFSZ),
    NAMED(SIGVTALRM), NAMED(SIGPROF), NAMED(SIGWINCH), NAMED(SIGSYS),
#ifdef SIGSTKFLT
    NAMED(SIGSTKFLT),
#endif
#ifdef SIGPWR
    NAMED(SIGPWR),
#endif
#ifdef SIGIO
    NAMED(SIGIO),
#endif
};

const char *signal_name(int sig, char *buf, size_t len)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig) {
            snprintf(buf, len, "%s", names[i].name);
            return buf;
        }
#ifdef SIGRTMIN
    if (sig >= SIGRTMIN && sig <= SIGRTMAX) {
        snprintf(buf, len, "SIGRTMIN+%d", sig - SIGRTMIN);
        return buf;
    }
#endif
    snprintf(buf, len, "SIG%d", sig);
    return buf;
}
