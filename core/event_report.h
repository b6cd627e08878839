/*
 * event_report.h — the caller's report (--refusal-report N, backend.h's
 * report_fd): the one writer of its lines, for the core and every backend.
 *
 * A line is one JSON object: {"event":KIND,"time":...,FIELDS...,"dropped":N}
 * and a newline, at most REPORT_LINE_MAX bytes, valid UTF-8, written whole
 * or not at all, without waiting for the reader; a line that cannot be
 * written at once is dropped and counted in the `dropped` of the next line
 * this process writes.  Kinds and fields: README "Refusal report".
 */
#ifndef HAS_EVENT_REPORT_H
#define HAS_EVENT_REPORT_H

#include <stdbool.h>
#include <stddef.h>

/* PIPE_BUF on Linux and macOS: a line this long is written atomically, so
 * lines of several processes never interleave. */
#define REPORT_LINE_MAX 512

/* Once part of a line is out (a TCP-like stream, a terminal), how long
 * the writer waits for the reader to take more of the rest. */
#define REPORT_FINISH_MS 1000
/* How long the supervisor waits for the reader to take the last line. */
#define REPORT_LAST_WAIT_MS 5000

/* A line being formatted into out[cap]; `text_max` bounds each free-text
 * field (report_field_text), lowered until the line fits. */
struct report_line {
    char *out;
    size_t cap;
    size_t at;
    bool ok; /* false once something did not fit */
    size_t text_max;
};

/* The fields of one kind, appended after "time" by a caller's function. */
typedef void (*report_fields_fn)(struct report_line *line, const void *arg);

/* ,"key":"value" (escaped, at most `max` bytes of value; NULL: null). */
void report_field_string(struct report_line *line, const char *key, const char *value, size_t max);
/* The same for a sentence: at most line->text_max bytes of it. */
void report_field_text(struct report_line *line, const char *key, const char *value);
/* The same for `len` bytes that may hold NULs (an abstract socket name). */
void report_field_bytes(struct report_line *line, const char *key, const char *value, size_t len);
void report_field_uint(struct report_line *line, const char *key, unsigned long long value);
void report_field_bool(struct report_line *line, const char *key, bool value);

/* Pure: the whole line with its "\n" into out[cap], free text shortened
 * until it fits; its length, or 0 when not even the shortest fits. */
size_t report_format(char *out, size_t cap, const char *event, const char *time, unsigned long dropped,
                     report_fields_fn fields, const void *arg);

/* Stamp the time and write one line of kind `event` to fd without waiting
 * (a socket: MSG_DONTWAIT; else fd must have been through
 * report_descriptor_nonblocking), or count it as dropped -- whole: where
 * the kernel took part of it, the rest follows (REPORT_FINISH_MS).
 * fd < 0: nothing. */
void report_write(int fd, const char *event, report_fields_fn fields, const void *arg);
/* The same for the report's last line, waiting up to REPORT_LAST_WAIT_MS
 * for the reader to make room rather than losing it. */
void report_write_last(int fd, const char *event, report_fields_fn fields, const void *arg);

/* Make writes to fd never wait, without touching the caller's open file
 * description where that can be avoided (see event_report.c); fd keeps its
 * number and its close-on-exec flag. */
void report_descriptor_nonblocking(int fd);
/* Give the caller's description back its file status flags, if
 * report_descriptor_nonblocking had to change them (before exiting). */
void report_descriptor_restore(int fd);

#endif
