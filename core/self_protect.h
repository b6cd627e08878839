/*
 * self_protect.h — before it forks anything the supervisor makes
 * itself hard to read and refuses to carry loader variables of the caller's
 * choosing.
 */
#ifndef HAS_SELF_PROTECT_H
#define HAS_SELF_PROTECT_H

#include <stddef.h>

/*
 * Copy the current environment (the workload's) into a malloc'd
 * NULL-terminated vector, keeping only the last entry of a name given more
 * than once.  Must run before self_protect().
 */
char **environment_capture(size_t *count);

/*
 * No core dumps, non-dumpable (so /proc/<pid>/mem, ptrace and /proc/<pid>/environ
 * are refused to a same-user process), debugger attachment denied where the
 * platform has that, and LD_* / DYLD_* removed from this process's
 * environment.  Returns 0, or -1 with the failing step in err: the caller
 * must stop, not go on unprotected.
 */
int self_protect(char *err, size_t errlen);

#endif
