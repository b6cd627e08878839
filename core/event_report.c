/*
 * event_report.c — see event_report.h.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "event_report.h"
#include "text_escape.h"

static void put_raw(struct report_line *l, const char *s)
{
    size_t n = strlen(s);
    if (!l->ok || l->at + n >= l->cap) {
        l->ok = false;
        return;
    }
    memcpy(l->out + l->at, s, n);
    l->at += n;
}

/* s[0..len) as a JSON string (quotes included), at most max bytes of it,
 * escaped as --explain's JSON escapes it (text_escape.h): a line never
 * holds a control byte raw nor a byte that is not UTF-8, and a shortened
 * value ends at a whole character. */
static void put_string(struct report_line *l, const char *s, size_t len, size_t max)
{
    const unsigned char *p = (const unsigned char *)s;
    if (!l->ok || l->at + 1 >= l->cap) {
        l->ok = false;
        return;
    }
    l->out[l->at++] = '"';
    for (size_t i = 0; i < len;) {
        char esc[TEXT_ESCAPE_MAX];
        size_t used, n = text_escape_next(p + i, len - i, true, esc, &used);
        if (i + used > max)
            break;
        if (l->at + n + 1 >= l->cap) {
            l->ok = false;
            return;
        }
        memcpy(l->out + l->at, esc, n);
        l->at += n;
        i += used;
    }
    l->out[l->at++] = '"';
}

static void put_key(struct report_line *l, const char *key)
{
    put_raw(l, ",\"");
    put_raw(l, key);
    put_raw(l, "\":");
}

void report_field_string(struct report_line *l, const char *key, const char *value, size_t max)
{
    put_key(l, key);
    if (value)
        put_string(l, value, strlen(value), max);
    else
        put_raw(l, "null");
}

void report_field_bytes(struct report_line *l, const char *key, const char *value, size_t len)
{
    put_key(l, key);
    put_string(l, value, len, l->text_max);
}

void report_field_text(struct report_line *l, const char *key, const char *value)
{
    report_field_string(l, key, value, l->text_max);
}

void report_field_uint(struct report_line *l, const char *key, unsigned long long value)
{
    char num[32];
    snprintf(num, sizeof num, "%llu", value);
    put_key(l, key);
    put_raw(l, num);
}

void report_field_bool(struct report_line *l, const char *key, bool value)
{
    put_key(l, key);
    put_raw(l, value ? "true" : "false");
}

static size_t format_with(struct report_line *l, const char *event, const char *time, unsigned long dropped,
                          report_fields_fn fields, const void *arg)
{
    char tail[48];
    put_raw(l, "{\"event\":");
    put_string(l, event, strlen(event), 40);
    put_raw(l, ",\"time\":");
    put_string(l, time, strlen(time), 40);
    fields(l, arg);
    snprintf(tail, sizeof tail, ",\"dropped\":%lu}\n", dropped);
    put_raw(l, tail);
    return l->ok ? l->at : 0;
}

size_t report_format(char *out, size_t cap, const char *event, const char *time, unsigned long dropped,
                     report_fields_fn fields, const void *arg)
{
    /* Long names leave less room for the sentences, never a cut line. */
    for (size_t text_max = 400;; text_max /= 2) {
        struct report_line l = {.out = out, .cap = cap, .ok = true, .text_max = text_max};
        size_t n = format_with(&l, event, time, dropped, fields, arg);
        if (n || text_max == 0)
            return n;
    }
}

/* RFC 3339 UTC with milliseconds, or "" when the clock cannot say. */
static void stamp_now(char stamp[64])
{
    struct timespec ts;
    struct tm tm;
    char date[40];
    stamp[0] = '\0';
    if (clock_gettime(CLOCK_REALTIME, &ts) == 0 && gmtime_r(&ts.tv_sec, &tm) &&
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm))
        snprintf(stamp, 64, "%s.%03dZ", date, (int)(ts.tv_nsec / 1000000 % 1000));
}

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Whether the kernel takes a line of fd whole or not at all: a pipe (up
 * to PIPE_BUF), a regular file, a Unix socket (one buffer a send), a
 * datagram or packet socket.  Not a TCP-like stream or a terminal, which
 * take what fits. */
static bool takes_whole(int fd)
{
    struct stat st;
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    int type = 0;
    socklen_t tlen = sizeof type;
    if (fstat(fd, &st) != 0)
        return false;
    if (S_ISFIFO(st.st_mode) || S_ISREG(st.st_mode))
        return true;
    if (!S_ISSOCK(st.st_mode))
        return false;
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tlen) == 0 && type != SOCK_STREAM)
        return true;
    return getsockname(fd, (struct sockaddr *)&ss, &len) == 0 && ss.ss_family == AF_UNIX;
}

/* Wait until fd takes bytes, or until `deadline` (now_ms()) has passed. */
static bool room_by(int fd, long deadline)
{
    for (;;) {
        long left = deadline - now_ms();
        if (left <= 0)
            return false;
        struct pollfd p = {.fd = fd, .events = POLLOUT};
        int r = poll(&p, 1, (int)left);
        if (r >= 0 || errno != EINTR)
            return r > 0 && (p.revents & POLLOUT);
    }
}

/* One write without waiting: a socket is sent to with MSG_DONTWAIT (its
 * description is the caller's and stays blocking); anything else went
 * through report_descriptor_nonblocking. */
static ssize_t put_once(int fd, const char *buf, size_t n)
{
    ssize_t w;
    do
        w = send(fd, buf, n, MSG_DONTWAIT | MSG_NOSIGNAL);
    while (w < 0 && errno == EINTR);
    if (w < 0 && errno == ENOTSOCK)
        do
            w = write(fd, buf, n);
        while (w < 0 && errno == EINTR);
    return w;
}

/* The whole line[0..n) to fd, or nothing of it: begun within wait_ms, on
 * a descriptor that may take part of a line only when poll() says it
 * takes bytes now; once part of it is out, the rest, for as long as the
 * reader takes some every REPORT_FINISH_MS: else half a line stays out. */
static bool send_line(int fd, const char *line, size_t n, int wait_ms)
{
    long deadline = now_ms() + wait_ms;
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    if (!takes_whole(fd) && poll(&p, 1, wait_ms) <= 0)
        return false; /* no room now: lost whole */
    size_t done = 0;
    for (;;) {
        ssize_t w = put_once(fd, line + done, n - done);
        if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
            return false; /* a gone reader (EPIPE) */
        if (w > 0 && (size_t)w < n - done)
            deadline = now_ms() + REPORT_FINISH_MS; /* while the reader takes bytes */
        done += w > 0 ? (size_t)w : 0;
        if (done == n)
            return true;
        if (!room_by(fd, deadline))
            return false;
    }
}

static void write_line(int fd, const char *event, report_fields_fn fields, const void *arg, int wait_ms)
{
    static unsigned long dropped; /* this process's, since its last line */
    if (fd < 0)
        return;
    char stamp[64], line[REPORT_LINE_MAX];
    stamp_now(stamp);
    size_t n = report_format(line, sizeof line, event, stamp, dropped, fields, arg);
    int saved = errno;
    if (n && send_line(fd, line, n, wait_ms))
        dropped = 0;
    else
        dropped++; /* a full pipe (EAGAIN), a gone reader (EPIPE) */
    errno = saved;
}

void report_write(int fd, const char *event, report_fields_fn fields, const void *arg)
{
    write_line(fd, event, fields, arg, 0);
}

void report_write_last(int fd, const char *event, report_fields_fn fields, const void *arg)
{
    write_line(fd, event, fields, arg, REPORT_LAST_WAIT_MS);
}

/* The caller's file status flags, when we had to set O_NONBLOCK on the
 * description the caller shares; -1 otherwise. */
static int shared_flags = -1;

/*
 * O_NONBLOCK on the caller's open file description would be shared with
 * every other holder of it: "--refusal-report 3 3>&1" would make the
 * workload's own stdout non-blocking (EAGAIN in programs that never asked
 * for it, and in the caller's shell after we exit).  So:
 * - a socket: nothing to do, report_write sends with MSG_DONTWAIT;
 * - a regular file: a write does not wait for a reader; left alone;
 * - a FIFO or a character device (a pipe, a terminal) on Linux: reopened
 *   through /proc/self/fd, a description of our own, with O_NONBLOCK (no
 *   file offset to lose for these), under the same number;
 * - otherwise, or where the reopen fails (no /proc, macOS): the shared
 *   O_NONBLOCK -- never waiting beats being polite -- given back by
 *   report_descriptor_restore before the supervisor exits.
 */
void report_descriptor_nonblocking(int fd)
{
    struct stat st;
    bool known = fstat(fd, &st) == 0;
    if (known && (S_ISSOCK(st.st_mode) || S_ISREG(st.st_mode)))
        return;
    int fd_flags = fcntl(fd, F_GETFD);
#ifdef __linux__
    if (known && fd_flags >= 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
        char path[40];
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        int own = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (own >= 0) {
            int moved = dup2(own, fd);
            close(own);
            if (moved == fd) {
                fcntl(fd, F_SETFD, fd_flags); /* dup2 cleared close-on-exec */
                return;
            }
        }
    }
#endif
    (void)fd_flags;
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0 && !(flags & O_NONBLOCK) && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0)
        shared_flags = flags;
}

void report_descriptor_restore(int fd)
{
    if (fd >= 0 && shared_flags >= 0)
        fcntl(fd, F_SETFL, shared_flags);
    shared_flags = -1;
}
