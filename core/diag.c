#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"

/* Format into one buffer and write it with one write(2), so a line is never
 * interleaved with the workload's output and nothing depends on stdio state
 * inherited across fork(). */
__attribute__((format(printf, 1, 0))) static void diag_write(const char *fmt, va_list ap)
{
    char line[16384]; /* room for the 33 items of a policy error list */
    int prefix = snprintf(line, sizeof line, "%s: ", HAS_PROGRAM_NAME);
    int body = vsnprintf(line + prefix, sizeof line - (size_t)prefix - 1, fmt, ap);
    size_t len = (size_t)prefix + (body < 0 ? 0 : (size_t)body);
    if (len > sizeof line - 2)
        len = sizeof line - 2;
    line[len++] = '\n';
    ssize_t unused = write(STDERR_FILENO, line, len);
    (void)unused;
}

void diag(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_write(fmt, ap);
    va_end(ap);
}

void diag_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_write(fmt, ap);
    va_end(ap);
    _exit(HAS_EXIT_FAILURE);
}
