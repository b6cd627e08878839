/*
 * policy_read.h — get the policy text from its transport, never reading more
 * than POLICY_MAX_BYTES + 1 bytes whatever the source (a 2 GiB file, an
 * endless pipe, /dev/zero).
 */
#ifndef HAS_POLICY_READ_H
#define HAS_POLICY_READ_H

#include <stddef.h>

/*
 * Read the policy from descriptor `fd`, then close it (also on failure), so
 * it can never reach the workload.  Returns a malloc'd buffer (NUL appended,
 * not counted in *len) or NULL with a one-line reason in `err`.
 */
char *policy_read_fd(int fd, size_t *len, char *err, size_t errlen);

/* Open, read and close `path` (O_CLOEXEC, no controlling tty). */
char *policy_read_file(const char *path, size_t *len, char *err, size_t errlen);

#endif
