/*
 * diag.h — how the supervisor speaks: one line on stderr, prefixed with the
 * program name, and exit status 125 for every supervisor-level failure so a
 * caller can tell it apart from the workload's own status (README.md, "Command line").
 */
#ifndef HAS_DIAG_H
#define HAS_DIAG_H

#define HAS_PROGRAM_NAME "happy-agent-supervisor"
#define HAS_EXIT_FAILURE 125

/* Print "happy-agent-supervisor: <message>\n" to stderr. */
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* diag() then _exit(125).  Safe after fork (no atexit handlers, no stdio
 * buffers of the parent flushed twice). */
void diag_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
