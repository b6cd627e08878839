/*
 * refusal_report.c — see refusal_report.h.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <unistd.h>

#include "refusal_report.h"

/* Append s as a JSON string (quotes included), at most max bytes of it. */
static bool put_string(char *out, size_t cap, size_t *at, const char *s, size_t max)
{
    if (*at + 1 >= cap)
        return false;
    out[(*at)++] = '"';
    for (size_t i = 0; s[i] && i < max; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc[8];
        size_t n = 1;
        if (c == '"' || c == '\\')
            n = (size_t)snprintf(esc, sizeof esc, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            n = (size_t)snprintf(esc, sizeof esc, "\\u%04x", c);
        else
            esc[0] = (char)c;
        if (*at + n + 1 >= cap)
            return false;
        memcpy(out + *at, esc, n);
        *at += n;
    }
    out[(*at)++] = '"';
    return true;
}

static bool put_raw(char *out, size_t cap, size_t *at, const char *s)
{
    size_t n = strlen(s);
    if (*at + n >= cap)
        return false;
    memcpy(out + *at, s, n);
    *at += n;
    return true;
}

static size_t format_with(char *out, size_t cap, const struct refusal_event *e, size_t reason_max)
{
    char num[64];
    size_t at = 0;
    bool ok = put_raw(out, cap, &at, "{\"event\":\"egress-refused\",\"time\":") &&
              put_string(out, cap, &at, e->time, 40) && put_raw(out, cap, &at, ",\"frontEnd\":") &&
              put_string(out, cap, &at, e->front_end, 16) && put_raw(out, cap, &at, ",\"host\":") &&
              put_string(out, cap, &at, e->host, 260);
    snprintf(num, sizeof num, ",\"port\":%u,\"address\":", e->port);
    ok = ok && put_raw(out, cap, &at, num) &&
         (e->address ? put_string(out, cap, &at, e->address, 64) : put_raw(out, cap, &at, "null")) &&
         put_raw(out, cap, &at, ",\"rule\":") && put_string(out, cap, &at, e->rule, 40) &&
         put_raw(out, cap, &at, ",\"reason\":") && put_string(out, cap, &at, e->reason, reason_max);
    snprintf(num, sizeof num, ",\"dropped\":%lu}\n", e->dropped);
    ok = ok && put_raw(out, cap, &at, num);
    return ok ? at : 0;
}

size_t refusal_report_format(char *out, size_t cap, const struct refusal_event *e)
{
    /* A long host leaves less room for the reason, never a cut line. */
    for (size_t reason_max = 400; ; reason_max /= 2) {
        size_t n = format_with(out, cap, e, reason_max);
        if (n || reason_max == 0)
            return n;
    }
}

void refusal_report_write(int fd, struct refusal_event *e)
{
    static unsigned long dropped;
    struct timespec ts;
    struct tm tm;
    char stamp[64] = "", date[40];
    clock_gettime(CLOCK_REALTIME, &ts);
    if (gmtime_r(&ts.tv_sec, &tm) && strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm))
        snprintf(stamp, sizeof stamp, "%s.%03dZ", date, (int)(ts.tv_nsec / 1000000 % 1000));
    e->time = stamp;
    e->dropped = dropped;
    char line[REFUSAL_LINE_MAX];
    size_t n = refusal_report_format(line, sizeof line, e);
    ssize_t w;
    /* A socket is sent to with MSG_DONTWAIT (its description is the
     * caller's and stays blocking); anything else was made non-blocking by
     * egress_process.c's report_nonblocking. */
    do
        w = n ? send(fd, line, n, MSG_DONTWAIT | MSG_NOSIGNAL) : -1;
    while (w < 0 && errno == EINTR);
    if (n && w < 0 && errno == ENOTSOCK)
        do
            w = write(fd, line, n);
        while (w < 0 && errno == EINTR);
    if (w == (ssize_t)n && n)
        dropped = 0;
    else
        dropped++;   /* a full pipe (EAGAIN), a gone reader (EPIPE), a short write */
}
