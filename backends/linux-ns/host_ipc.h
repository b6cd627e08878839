/*
 * host_ipc.h — closing the host's IPC endpoints to the workload (see
 * host_ipc.c and README.md for what is and is not covered).
 */
#ifndef HAS_LINUX_NS_HOST_IPC_H
#define HAS_LINUX_NS_HOST_IPC_H

#include <stdbool.h>
#include <stddef.h>

#include "backend.h"
#include "brokers/socket_grant.h"
#include "mount_ops.h"

/* Called with each socket host_ipc_mask_sockets masks: the socket, open
 * (O_PATH, st filled), its name, and what names it ("SSH_AUTH_SOCK", ...).
 * Nonzero stops the walk. */
typedef int (*host_ipc_socket_fn)(const struct sp_node *sock, const char *path, const char *named_by,
                                  void *arg);

/* Each socket that exists now among those the environment names and the
 * well-known engine sockets; 0, or -1 when fn stopped it. */
int host_ipc_each_socket(const struct sandbox_ctx *ctx, host_ipc_socket_fn fn, void *arg);

/* Bind /dev/null over host sockets named by the workload's environment and
 * over well-known engine sockets: a second layer under the connect() check
 * (connect_broker.c). */
int host_ipc_mask_sockets(const struct sandbox_ctx *ctx, const struct socket_grants *granted,
                          const struct sp_node *devnull, bool legacy, char *err, size_t errlen);
/* prepare(): 125 for an allowedWritePaths entry that names one of those
 * sockets itself (its mask would win, unsaid); allowedUnixSockets grants
 * one. */
int host_ipc_check_write_grants(const struct sandbox_ctx *ctx, const struct socket_grants *granted, char *err,
                                size_t errlen);

/* The connect() check's rule for pathname sockets (struct connect_rules):
 * reachable only on a writable mount of the sandbox's view, or granted
 * (arg: the struct socket_grants). */
struct stat;
int host_ipc_socket_on_writable_mount(int fd, const struct stat *st, const void *arg);

/* dev.c: replace /dev by a minimal private one (with a private /dev/shm),
 * holding also the policy's `devices` at their paths. */
int private_dev(int root_fd, bool legacy, const struct string_list *devices, char *err, size_t errlen);
/* dev.c, after the writable roots: the host's nodes in it read-only again
 * wherever a writable root ("/", "/dev", "/dev/null", ...) covers them. */
int private_dev_nodes_read_only(int root_fd, bool legacy, const char *const *roots,
                                const struct string_list *devices, char *err, size_t errlen);

#endif
