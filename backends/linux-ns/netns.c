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
#include <sys/uio.h>
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
        snprintf(err, errlen, "cannot take the network namespace of a socket (SIOCGSKNS): %s", strerror(errno));
        rc = -1;
    }
    close(s);
    return rc;
}

int netns_send(int sock, int nsfd, char *err, size_t errlen)
{
    char byte = 'n';
    struct iovec iov = {.iov_base = &byte, .iov_len = 1};
    union { struct cmsghdr align; char buf[CMSG_SPACE(sizeof(int))]; } u;
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
    if (nsfd >= 0) {
        memset(&u, 0, sizeof u);
        msg.msg_control = u.buf;
        msg.msg_controllen = sizeof u.buf;
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &nsfd, sizeof nsfd);
    }
    ssize_t n;
    do
        n = sendmsg(sock, &msg, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    if (n == 1)
        return 0;
    snprintf(err, errlen, "cannot hand the network namespace to the sandbox init: %s", strerror(errno));
    return -1;
}

/* The descriptor passed with the message, or -1. */
static int passed_fd(struct msghdr *msg)
{
    for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int))) {
            int fd;
            memcpy(&fd, CMSG_DATA(c), sizeof fd);
            return fd;
        }
    return -1;
}

int netns_receive_join(int sock, bool join, char *err, size_t errlen)
{
    char byte;
    struct iovec iov = {.iov_base = &byte, .iov_len = 1};
    union { struct cmsghdr align; char buf[CMSG_SPACE(sizeof(int))]; } u;
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf};
    ssize_t n;
    do
        n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    while (n < 0 && errno == EINTR);
    if (n == 0)
        return 1; /* the workload died (and said why): nothing to join */
    int fd = n == 1 ? passed_fd(&msg) : -1;
    int rc = 0;
    if (n != 1 || (join && fd < 0) || (msg.msg_flags & (MSG_CTRUNC | MSG_TRUNC))) {
        snprintf(err, errlen, "the workload did not hand over its network namespace: %s",
                 n < 0 ? strerror(errno) : "malformed message");
        rc = -1;
    } else if (join && setns(fd, CLONE_NEWNET) != 0) {
        snprintf(err, errlen, "the sandbox init cannot join the sandbox's network namespace: %s", strerror(errno));
        rc = -1;
    }
    if (fd >= 0)
        close(fd);
    return rc;
}
