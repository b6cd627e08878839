/*
 * egress_compat.h — the few calls the egress process makes that Linux and
 * macOS spell differently, and which of the two front-end designs a build
 * uses.
 *
 * EGRESS_HOST_LOOPBACK: the front-ends are bound by the egress process
 * itself on the host's 127.0.0.1 with kernel-chosen ports (macOS, where
 * Seatbelt, not a network namespace, keeps the workload from going around
 * the proxy).  On Linux it is set only by -DEGRESS_PORTABLE, which the build
 * passes to test programs alone (tests/egress-proxy/local.mk): no release
 * binary can be switched onto that path, at build time or at run time.
 */
#ifndef HAS_EGRESS_COMPAT_H
#define HAS_EGRESS_COMPAT_H

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#if defined(__APPLE__) || defined(EGRESS_PORTABLE)
#define EGRESS_HOST_LOOPBACK 1
#endif

/* The Linux release build uses the atomic flag forms; the portable build
 * (macOS, and its Linux test build, so the fallback is exercised) sets the
 * flags afterwards.  The egress process is single-threaded apart from the
 * resolver workers and never execs, so the window between the two calls
 * cannot leak a descriptor into a child. */
#if defined(__linux__) && !defined(EGRESS_PORTABLE)
#define EGRESS_ATOMIC_FLAGS 1
#endif

#ifndef MSG_NOSIGNAL
/* macOS SDKs without it: SIGPIPE is ignored in the egress process anyway. */
#define MSG_NOSIGNAL 0
#endif

static inline int egress_set_flags(int fd, int nonblock)
{
    if (fd < 0)
        return fd;
    if (fcntl(fd, F_SETFD, FD_CLOEXEC) != 0 ||
        (nonblock && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0)) {
        close(fd);
        return -1;
    }
    return fd;
}

/* A non-blocking, close-on-exec TCP socket of `family`. */
static inline int egress_socket_nb(int family)
{
#ifdef EGRESS_ATOMIC_FLAGS
    return socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
#else
    return egress_set_flags(socket(family, SOCK_STREAM, 0), 1);
#endif
}

/* accept() a client as a non-blocking, close-on-exec socket. */
static inline int egress_accept_nb(int listen_fd)
{
#ifdef EGRESS_ATOMIC_FLAGS
    return accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
#else
    return egress_set_flags(accept(listen_fd, NULL, NULL), 1);
#endif
}

/* A close-on-exec pipe. */
static inline int egress_pipe_cloexec(int p[2])
{
#ifdef EGRESS_ATOMIC_FLAGS
    return pipe2(p, O_CLOEXEC);
#else
    if (pipe(p) != 0)
        return -1;
    if (egress_set_flags(p[0], 0) < 0 || egress_set_flags(p[1], 0) < 0)
        return -1;
    return 0;
#endif
}

#endif
