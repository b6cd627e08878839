/*
 * signal_name.h — a signal's name as the caller's tools spell it
 * ("SIGKILL"), for the report's workload-ended line.
 */
#ifndef HAS_SIGNAL_NAME_H
#define HAS_SIGNAL_NAME_H

#include <stddef.h>

/* "SIGTERM"; "SIGRTMIN+3" for a real-time signal; "SIG<n>" for a number
 * this table does not know.  Written into buf[len]; returns buf. */
const char *signal_name(int sig, char *buf, size_t len);

#endif
