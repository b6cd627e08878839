/*
 * host_ipc.h — closing the host's IPC endpoints to the workload (see
 * host_ipc.c and README.md for what is and is not covered).
 */
#ifndef HAS_LINUX_NS_HOST_IPC_H
#define HAS_LINUX_NS_HOST_IPC_H

#include <stdbool.h>
#include <stddef.h>

#include "backend.h"
#include "mount_ops.h"

/* Directories replaced by a private overlay: their host view stays readable
 * through `lower_fd` (held open so binds can take their source from the host
 * directory, not from the private copy). */
struct ipc_private_dir {
    const char *path;  /* "/tmp", "/run" */
    int lower_fd;      /* -1 when not overlaid */
};

#define IPC_PRIVATE_DIRS 2

/* Overlay /tmp and /run (host content readable, writes private, host
 * sockets unreachable) — except a directory that is itself inside a
 * writable root (`writable`, NULL-terminated): the policy grants writing
 * the host directory there, sockets included. */
int host_ipc_private_dirs(int root_fd, const char *const *writable, struct ipc_private_dir dirs[IPC_PRIVATE_DIRS],
                          char *err, size_t errlen);

/* Bind /dev/null over host sockets named by the workload's environment and
 * over well-known engine sockets outside the private directories. */
int host_ipc_mask_sockets(const struct sandbox_ctx *ctx, const struct sp_node *devnull, bool legacy,
                          char *err, size_t errlen);

/* dev.c: replace /dev by a minimal private one (with a private /dev/shm). */
int private_dev(int root_fd, bool legacy, char *err, size_t errlen);

#endif
