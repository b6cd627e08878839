/*
 * test_confine.c — CUnit: what the egress process can still do after
 * egress_confine(), and what it cannot.  Each check runs in a forked child
 * that confines itself and reports one byte per probe over a pipe.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "process/confine.h"
#include "process/resolver.h"
#include "../cunit_run.h"

enum probe {
    P_EXEC,
    P_FORK,
    P_WRITE_OPEN,
    P_CREATE,
    P_READ_OPEN,
    P_SIGNAL_PARENT,
    P_SIGNAL_SELF,
    P_PACKET_SOCKET,
    P_UNIX_SOCKET,
    P_NETLINK_SOCKET,
    P_INET_SOCKET,
    P_BIND,
    P_THREAD,
    P_RESOLVE,
    P_DUMPABLE,
    P_NO_NEW_PRIVS,
    P_UNSHARE,
    P_PTRACE,
    P_COUNT
};

static void *thread_main(void *arg)
{
    return arg;
}

/* 1 when the operation was permitted, 0 when refused. */
static void run_probes(int out, pid_t parent, const char *tmpl)
{
    unsigned char res[P_COUNT];
    memset(res, 0xee, sizeof res);
    char err[256] = "";
    if (egress_confine(parent, err, sizeof err) != 0) {
        fprintf(stderr, "confine failed: %s\n", err);
        _exit(3);
    }
    char *const argv[] = {"/bin/true", NULL};
    res[P_EXEC] = execve("/bin/true", argv, argv + 1) == 0;
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    res[P_FORK] = pid > 0;
    int fd = open(tmpl, O_WRONLY);
    res[P_WRITE_OPEN] = fd >= 0;
    fd = open("/tmp/has-confine-new", O_RDONLY | O_CREAT, 0600);
    res[P_CREATE] = fd >= 0;
    fd = open("/etc/hosts", O_RDONLY);
    res[P_READ_OPEN] = fd >= 0;
    res[P_SIGNAL_PARENT] = kill(parent, 0) == 0;
    res[P_SIGNAL_SELF] = kill(getpid(), 0) == 0;
    fd = socket(AF_PACKET, SOCK_RAW, 0);
    res[P_PACKET_SOCKET] = fd >= 0 || errno != EAFNOSUPPORT;
    fd = socket(AF_UNIX, SOCK_STREAM, 0);
    res[P_UNIX_SOCKET] = fd >= 0 || errno != EAFNOSUPPORT;
    fd = socket(AF_NETLINK, SOCK_RAW, 0);
    res[P_NETLINK_SOCKET] = fd >= 0 || errno != EAFNOSUPPORT;
    int s = socket(AF_INET, SOCK_STREAM, 0);
    res[P_INET_SOCKET] = s >= 0;
    struct sockaddr_in sin = {.sin_family = AF_INET};
    res[P_BIND] = bind(s, (struct sockaddr *)&sin, sizeof sin) == 0;
    pthread_t t;
    res[P_THREAD] = pthread_create(&t, NULL, thread_main, NULL) == 0 && pthread_join(t, NULL) == 0;
    struct resolve_job job = {.host = "localhost"};
    resolver_lookup(&job); /* the hosts file, through the egress process's own resolver */
    res[P_RESOLVE] = job.error == 0 && job.count > 0;
    res[P_DUMPABLE] = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0;
    res[P_NO_NEW_PRIVS] = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1;
    res[P_UNSHARE] = syscall(SYS_unshare, 0x10000000 /* CLONE_NEWUSER */) == 0;
    res[P_PTRACE] = syscall(SYS_ptrace, 16 /* PTRACE_ATTACH */, parent, 0, 0) == 0;
    ssize_t w = write(out, res, sizeof res);
    _exit(w == (ssize_t)sizeof res ? 0 : 4);
}

static void test_confinement(void)
{
    int p[2];
    char tmpl[] = "/tmp/has-confine-XXXXXX";
    int keep = mkstemp(tmpl); /* a file we own, to try to open for writing */
    CU_ASSERT_FATAL(keep >= 0);
    close(keep);
    CU_ASSERT_EQUAL_FATAL(pipe(p), 0);
    pid_t parent = getpid();
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        close(p[0]);
        run_probes(p[1], parent, tmpl);
    }
    close(p[1]);
    unsigned char res[P_COUNT];
    ssize_t n = read(p[0], res, sizeof res);
    int status;
    waitpid(pid, &status, 0);
    unlink("/tmp/has-confine-new");
    unlink(tmpl);
    CU_ASSERT_EQUAL_FATAL(n, (ssize_t)sizeof res);
    static const struct {
        enum probe p;
        int allowed;
        const char *what;
    } want[] = {
        {P_EXEC, 0, "execve"},
        {P_FORK, 0, "fork"},
        {P_WRITE_OPEN, 0, "open for writing"},
        {P_CREATE, 0, "O_CREAT"},
        {P_READ_OPEN, 1, "read-only open"},
        {P_SIGNAL_PARENT, 0, "signal another process"},
        {P_SIGNAL_SELF, 1, "signal itself"},
        {P_PACKET_SOCKET, 0, "AF_PACKET socket"},
        {P_UNIX_SOCKET, 0, "AF_UNIX socket"},
        {P_NETLINK_SOCKET, 0, "AF_NETLINK socket"},
        {P_INET_SOCKET, 1, "AF_INET socket"},
        {P_BIND, 0, "bind"},
        {P_THREAD, 1, "threads"},
        {P_RESOLVE, 1, "resolver_lookup(localhost)"},
        {P_DUMPABLE, 0, "dumpable"},
        {P_NO_NEW_PRIVS, 1, "no_new_privs"},
        {P_UNSHARE, 0, "unshare"},
        {P_PTRACE, 0, "ptrace"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        if (res[want[i].p] != want[i].allowed)
            fprintf(stderr, "\n  %s: %s, expected %s\n", want[i].what, res[want[i].p] ? "allowed" : "refused",
                    want[i].allowed ? "allowed" : "refused");
        CU_ASSERT_EQUAL(res[want[i].p], want[i].allowed);
    }
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("egress process confinement", NULL, NULL);
    CU_add_test(s, "confined egress process", test_confinement);
    return cunit_run_registry();
}
