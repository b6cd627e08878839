/*
 * fd_pass.c — one descriptor over the socket pair between the workload and
 * the process outside it (supervised_fork.c), with SCM_RIGHTS: the network
 * namespace the workload made (linux-ns's netns.c) and the seccomp
 * notification descriptor of its filter (seccomp_filter.c), each with one
 * tag byte saying which it is.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linux_common.h"

int fd_pass_send(int sock, char tag, int fd, char *err, size_t errlen)
{
    struct iovec iov = {.iov_base = &tag, .iov_len = 1};
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int))];
    } u;
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
    if (fd >= 0) {
        memset(&u, 0, sizeof u);
        msg.msg_control = u.buf;
        msg.msg_controllen = sizeof u.buf;
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof fd);
    }
    ssize_t n;
    do
        n = sendmsg(sock, &msg, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    if (n == 1)
        return 0;
    snprintf(err, errlen, "cannot hand descriptor '%c' to the sandbox init: %s", tag, strerror(errno));
    return -1;
}

/* The descriptor passed with the message, or -1. */
static int passed_fd(struct msghdr *msg)
{
    for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
            c->cmsg_len == CMSG_LEN(sizeof(int))) {
            int fd;
            memcpy(&fd, CMSG_DATA(c), sizeof fd);
            return fd;
        }
    return -1;
}

int fd_pass_receive(int sock, char tag, int *fd, char *err, size_t errlen)
{
    char got;
    struct iovec iov = {.iov_base = &got, .iov_len = 1};
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int))];
    } u;
    struct msghdr msg = {
        .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf};
    ssize_t n;
    do
        n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    while (n < 0 && errno == EINTR);
    *fd = -1;
    if (n == 0)
        return 1; /* the workload died (and said why) */
    int passed = n == 1 ? passed_fd(&msg) : -1;
    if (n != 1 || got != tag || (msg.msg_flags & (MSG_CTRUNC | MSG_TRUNC))) {
        if (passed >= 0)
            close(passed);
        snprintf(err, errlen, "the workload did not hand over descriptor '%c': %s", tag,
                 n < 0 ? strerror(errno) : "malformed message");
        return -1;
    }
    *fd = passed;
    return 0;
}
