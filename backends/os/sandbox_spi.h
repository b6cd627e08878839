/*
 * sandbox_spi.h — the libsandbox functions the Seatbelt backend calls.
 * They live in libSystem on macOS; no header declares them all (sandbox.h
 * has only the deprecated sandbox_init and sandbox_free_error), so they are
 * declared here once, as Chromium, Firefox and Codex declare them.  A plain
 * header of prototypes: the Linux tests include it to type-check their
 * fakes against exactly what the backend calls.
 */
#ifndef HAS_SANDBOX_SPI_H
#define HAS_SANDBOX_SPI_H

#include <stdint.h>
#include <sys/types.h>

/* flags 0: `profile` is SBPL source text.  0 on success; otherwise -1 and,
 * if errorbuf is not NULL, a message to free with sandbox_free_error(). */
int sandbox_init(const char *profile, uint64_t flags, char **errorbuf);
void sandbox_free_error(char *errorbuf);

/* Private.  With a NULL operation and type SANDBOX_FILTER_NONE (0):
 * non-zero when process `pid` is already inside a sandbox.  With an
 * operation ("file-read-data") and SANDBOX_FILTER_PATH (1), then a path:
 * 0 when the sandbox `pid` is in allows that operation on the path, 1 when
 * it denies it, -1 on error. */
int sandbox_check(pid_t pid, const char *operation, int type, ...);
/* A flag libsandbox exports, ORed into sandbox_check's type: the check
 * files no violation report. */
extern const int SANDBOX_CHECK_NO_REPORT;

#define SEATBELT_PROFILE_STRING 0 /* sandbox_init flags: profile is SBPL text */
#define SEATBELT_FILTER_NONE 0    /* sandbox_check type: no filter argument */
#define SEATBELT_FILTER_PATH 1    /* sandbox_check type: a path follows */

#endif
