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
 * non-zero when process `pid` is already inside a sandbox. */
int sandbox_check(pid_t pid, const char *operation, int type, ...);

#define SEATBELT_PROFILE_STRING 0 /* sandbox_init flags: profile is SBPL text */
#define SEATBELT_FILTER_NONE 0    /* sandbox_check type: no filter argument */

#endif
