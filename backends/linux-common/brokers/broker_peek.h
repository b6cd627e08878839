/*
 * broker_peek.h — what the broker reads of the workload for a seccomp
 * notification: its descriptors (pidfd_getfd), its memory
 * (process_vm_readv), its paths resolved as the calling thread would, and
 * the answer.  Shared by connect_broker.c, meta_broker.c and
 * entry_broker.c; each value read is checked by its caller before use.
 */
#ifndef HAS_LINUX_COMMON_BROKER_PEEK_H
#define HAS_LINUX_COMMON_BROKER_PEEK_H

#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* This kernel has pidfd_getfd(2) (Linux >= 5.6), without which no
 * descriptor of the workload can be fetched. */
bool broker_peek_supported(void);
/* The notification is still pending (its thread did not die, its id was
 * not reused). */
bool broker_id_valid(int listener, __u64 id);
/* Our copy of the workload's descriptor `fd` (0, or -errno; the id is
 * checked first). */
int broker_fetch_fd(int listener, const struct seccomp_notif *req, int fd, int *out);
/* `len` bytes of the workload's memory at `addr`: 0, or -EFAULT. */
int broker_read(pid_t pid, uint64_t addr, void *buf, size_t len);
/* A NUL-terminated string of at most size - 1 bytes: 0, -EFAULT, or
 * -ENAMETOOLONG. */
int broker_read_string(pid_t pid, uint64_t addr, char *buf, size_t size);
/* Resolve `path` as thread `tid` would, from `base` (a descriptor of ours,
 * or -1 for the thread's working directory), following ordinary symlinks
 * (unless `nofollow` for the last component) but no magic link.  An O_PATH
 * descriptor, or -errno. */
int broker_resolve(pid_t tid, int base, const char *path, bool nofollow);
/* Answer notification `id`: 0, or the -errno the call returns. */
void broker_respond(int listener, __u64 id, int error);

#endif
