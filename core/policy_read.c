#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy.h"
#include "policy_read.h"

/* Reads until EOF or until one byte past the limit, whichever comes first;
 * the extra byte is how an oversize input is told apart from one exactly at
 * the limit without reading the rest of it. */
static char *read_bounded(int fd, const char *what, size_t *len, char *err, size_t errlen)
{
    size_t cap = 4096, used = 0;
    char *buf = malloc(cap);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", what);
        return NULL;
    }
    for (;;) {
        if (used == cap) {
            size_t next = cap * 2;
            if (next > POLICY_MAX_BYTES + 2)
                next = POLICY_MAX_BYTES + 2;
            char *grown = realloc(buf, next);
            if (!grown) {
                free(buf);
                snprintf(err, errlen, "%s: out of memory", what);
                return NULL;
            }
            buf = grown;
            cap = next;
        }
        size_t want = cap - used;
        if (used + want > POLICY_MAX_BYTES + 1)
            want = POLICY_MAX_BYTES + 1 - used;
        ssize_t got = read(fd, buf + used, want);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            snprintf(err, errlen, "%s: read failed: %s", what, strerror(errno));
            free(buf);
            return NULL;
        }
        if (got == 0)
            break;
        used += (size_t)got;
        if (used > POLICY_MAX_BYTES) {
            snprintf(err, errlen, "%s: the policy is larger than the limit of %u bytes (1 MiB)", what,
                     POLICY_MAX_BYTES);
            free(buf);
            return NULL;
        }
    }
    buf[used] = '\0'; /* cap >= used + 1: the loop stops growing at limit + 2 */
    *len = used;
    return buf;
}

char *policy_read_fd(int fd, size_t *len, char *err, size_t errlen)
{
    char what[48];
    snprintf(what, sizeof what, "--policy-fd %d", fd);
    if (fcntl(fd, F_GETFD) < 0) {
        snprintf(err, errlen, "%s: descriptor is not open; pass the policy on an open descriptor", what);
        return NULL;
    }
    char *text = read_bounded(fd, what, len, err, errlen);
    close(fd);
    return text;
}

char *policy_read_file(const char *path, size_t *len, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        snprintf(err, errlen, "--policy-file %s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "--policy-file %s: not a readable file", path);
        close(fd);
        return NULL;
    }
    if (S_ISREG(st.st_mode) && st.st_size > (off_t)POLICY_MAX_BYTES) {
        snprintf(err, errlen, "--policy-file %s: the policy is larger than the limit of %u bytes (1 MiB)",
                 path, POLICY_MAX_BYTES);
        close(fd);
        return NULL;
    }
    char what[64];
    snprintf(what, sizeof what, "--policy-file %.40s", path);
    char *text = read_bounded(fd, what, len, err, errlen);
    close(fd);
    return text;
}
