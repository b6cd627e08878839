/*
 * socket_grant.h — the host Unix sockets the policy's
 * network.allowedUnixSockets grants (socket_grant.c), by inode.
 *
 * Each path is resolved once, at launch, without following a symbolic link
 * anywhere on it, and what is granted is the socket found there: its
 * device and inode, held open (O_PATH, close-on-exec, closed by the
 * workload's descriptor hygiene) by every process of the launch but the
 * workload, so that no other file can be given its number while the
 * sandbox runs (ext4 and xfs reuse a freed inode's number at once).  The connect() broker opens the workload's address
 * and connects through that descriptor (connect_broker.c), so the socket it
 * judged is the one reached; a path renamed or replaced since launch leads
 * to another inode, which the grant does not cover.
 */
#ifndef HAS_SOCKET_GRANT_H
#define HAS_SOCKET_GRANT_H

#include <stddef.h>
#include <sys/stat.h>

#include "policy.h"

struct socket_grant {
    int fd; /* O_PATH, held for the launch: the inode, and so its number, cannot be reused */
    dev_t dev;
    ino_t ino;
    const char *path; /* the policy's, for messages */
};

struct socket_grants {
    struct socket_grant *items;
    size_t count;
};

/* Resolve every path of `paths`: 0, or -1 with `err` naming the path and
 * why (missing, through a symbolic link, not a socket, with other hard
 * links, beneath one of `read_denied`). */
int socket_grants_open(const struct string_list *paths, const struct string_list *read_denied,
                       struct socket_grants *out, char *err, size_t errlen);
/* Close the held descriptors (--explain; a launch keeps them to its end). */
void socket_grants_free(struct socket_grants *g);

/* The grant that covers the socket `st` describes, or NULL. */
const struct socket_grant *socket_grants_find(const struct socket_grants *g, const struct stat *st);

#endif
