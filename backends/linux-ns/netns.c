/*
 * netns.c — the sandbox's network namespace, created by the workload process
 * (PID 2) itself while the init builds the mounts.
 *
 * Why not in the clone() that creates the other namespaces: a network
 * namespace costs ~0.5 ms of kernel work (sysctl tables, the loopback
 * device), about as much as the whole mount policy.  Forked right after the
 * id maps, the workload runs unshare(CLONE_NEWNET) on the second CPU while
 * the init mounts; it runs nothing but this file's code until the init says
 * the sandbox is complete (backend.c), so it never sees a half-built view.
 *
 * The init must then join the same namespace: /proc/PID/net is readable
 * without any ptrace check, so an init left in the host's namespace would
 * show the workload the host's sockets and interfaces in /proc/1/net.  The
 * init cannot open /proc/2/ns/net (the workload is non-dumpable, exactly as
 * the init is to the workload), so the workload sends the namespace over an
 * AF_UNIX socketpair (SCM_RIGHTS), taken from its socket with SIOCGSKNS (no
 * path lookup while the init is changing the mounts), and the init setns()
 * into it before it says "go".
 *
 * The new namespace starts with `lo` down; it is brought up so the workload
 * (and the egress backend's loopback front-ends) can use 127.0.0.1 and ::1.
 * Nothing else exists in the namespace: no route out.
 */
#include "config.h"

#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linux_ns.h"

#ifndef SIOCGSKNS
#define SIOCGSKNS 0x894C /* Linux >= 4.9 */
#endif

static int loopback_up(int s, char *err, size_t errlen)
{
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    strcpy(ifr.ifr_name, "lo");
    int rc = ioctl(s, SIOCGIFFLAGS, &ifr);
    if (rc == 0) {
        ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
        rc = ioctl(s, SIOCSIFFLAGS, &ifr);
    }
    if (rc != 0)
        snprintf(err, errlen, "cannot bring up lo in the sandbox's network namespace: %s", strerror(errno));
    return rc;
}

int netns_create(int *nsfd, char *err, size_t errlen)
{
    if (unshare(CLONE_NEWNET) != 0) {
        kernel_diag_userns("cannot create the sandbox's network namespace (unshare)", errno, err, errlen);
        return -1;
    }
    int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (s < 0) {
        snprintf(err, errlen, "cannot open a socket to configure lo: %s", strerror(errno));
        return -1;
    }
    int rc = loopback_up(s, err, errlen);
    if (rc == 0 && (*nsfd = ioctl(s, SIOCGSKNS)) < 0) {
        snprintf(err, errlen, "cannot take the network namespace of a socket (SIOCGSKNS): %s",
                 strerror(errno));
        rc = -1;
    }
    close(s);
    return rc;
}

int netns_send(int sock, int nsfd, char *err, size_t errlen)
{
    return fd_pass_send(sock, 'n', nsfd, err, errlen);
}

int netns_receive_join(int sock, bool join, char *err, size_t errlen)
{
    int fd;
    int rc = fd_pass_receive(sock, 'n', &fd, err, errlen);
    if (rc != 0)
        return rc;
    if (join && fd < 0) {
        snprintf(err, errlen, "the workload did not hand over its network namespace");
        rc = -1;
    } else if (join && setns(fd, CLONE_NEWNET) != 0) {
        snprintf(err, errlen, "the sandbox init cannot join the sandbox's network namespace: %s",
                 strerror(errno));
        rc = -1;
    }
    if (fd >= 0)
        close(fd);
    return rc;
}
