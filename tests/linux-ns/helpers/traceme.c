/*
 * traceme MODE [ARG...] — a workload that makes its parent its tracer
 * (ptrace(PTRACE_TRACEME): the sandbox's init, or landlock's broker), writes
 * the file "traced" in its working directory, then:
 *
 *   exit N          exits with N
 *   raise SIG       raise(SIG) (tgkill), then exits 0 if it survived
 *   kill-self SIG   kill(getpid(), SIG), then exits 0 if it survived
 *   exec PATH...    execv(PATH, ...)
 *   stop-exit N     raise(SIGSTOP), then exits with N
 *   group-stop N    a second, untraced thread stops the whole process (a
 *                   group-stop the traced thread reports), then exits with N
 *   orphan          a grandchild, once reparented, does the PTRACE_TRACEME
 *                   and raise(SIGSTOP) and then writes "orphan-resumed";
 *                   exits 0 once that file exists, 1 after 5 s without it
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void touch(const char *name)
{
    int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || close(fd) != 0) {
        fprintf(stderr, "traceme: cannot write %s: %s\n", name, strerror(errno));
        _exit(2);
    }
}

static void traceme(void)
{
    if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0) {
        fprintf(stderr, "traceme: PTRACE_TRACEME: %s\n", strerror(errno));
        _exit(2);
    }
}

static void *stop_all(void *unused)
{
    (void)unused;
    syscall(SYS_tgkill, getpid(), (pid_t)syscall(SYS_gettid), SIGSTOP);
    return NULL;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int orphan(void)
{
    pid_t middle = fork();
    if (middle == 0) {
        pid_t parent = getpid(); /* the grandchild's parent until it is reparented */
        if (fork() == 0) {
            while (getppid() == parent) /* until the middle process is gone */
                sleep_ms(10);
            traceme();
            raise(SIGSTOP);
            touch("orphan-resumed");
            _exit(0);
        }
        _exit(0);
    }
    waitpid(middle, NULL, 0);
    for (int i = 0; i < 500; i++, sleep_ms(10))
        if (access("orphan-resumed", F_OK) == 0)
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "orphan") != 0 && argc < 3)) {
        fprintf(stderr, "usage: traceme exit N | raise SIG | kill-self SIG | exec PATH... | stop-exit N | "
                        "group-stop N | orphan\n");
        return 2;
    }
    const char *mode = argv[1];
    if (strcmp(mode, "orphan") == 0)
        return orphan();
    traceme();
    touch("traced");
    int n = atoi(argv[2]);
    if (strcmp(mode, "exit") == 0)
        return n;
    if (strcmp(mode, "raise") == 0)
        return raise(n) == 0 ? 0 : 2;
    if (strcmp(mode, "kill-self") == 0)
        return kill(getpid(), n) == 0 ? 0 : 2;
    if (strcmp(mode, "exec") == 0) {
        execv(argv[2], argv + 2);
        fprintf(stderr, "traceme: %s: %s\n", argv[2], strerror(errno));
        return 127;
    }
    if (strcmp(mode, "stop-exit") == 0) {
        raise(SIGSTOP);
        return n;
    }
    if (strcmp(mode, "group-stop") == 0) {
        pthread_t t;
        if (pthread_create(&t, NULL, stop_all, NULL) != 0 || pthread_join(t, NULL) != 0)
            return 2;
        return n;
    }
    fprintf(stderr, "traceme: unknown mode %s\n", mode);
    return 2;
}
