/*
 * refusal_report.h — the refusal report (--refusal-report N): one JSON line
 * per destination the egress proxy refuses, for the caller (an agent
 * framework) to tell a policy refusal from a network fault.  Format: the
 * README's "Refusal report".  The formatter is pure; the writer never
 * blocks (backend.h, report_fd).
 */
#ifndef HAS_EGRESS_REFUSAL_REPORT_H
#define HAS_EGRESS_REFUSAL_REPORT_H

#include <stddef.h>

/* PIPE_BUF on Linux and macOS: a line this long is written atomically. */
#define REFUSAL_LINE_MAX 512

struct refusal_event {
    const char *time;        /* RFC 3339 UTC, e.g. "2026-12-01T10:51:11.123Z" */
    const char *front_end;   /* "http", "socks5" */
    const char *host;        /* as the client named it, normalised */
    unsigned port;
    const char *address;     /* the resolved address that was refused, or NULL */
    const char *rule;        /* "allowedHosts", "address-class", "numeric-host-spelling" */
    const char *reason;      /* the sentence the client was given */
    unsigned long dropped;   /* lines that could not be written before this one */
};

/* The line, with its "\n", into out; its length, or 0 if it does not fit
 * in cap (the reason is shortened first). */
size_t refusal_report_format(char *out, size_t cap, const struct refusal_event *e);

/* Stamp the time and write one line to fd, or count it as dropped when fd
 * cannot take it at once.  fd must be non-blocking. */
void refusal_report_write(int fd, struct refusal_event *e);

#endif
