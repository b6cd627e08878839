/*
 * darwin_shim.h — TEST ONLY.  Lets backends/seatbelt/seatbelt_darwin.c be
 * compiled on Linux (make check) so that typos and type errors are caught
 * without a Mac.  It declares, with their Darwin signatures, the Darwin
 * header items the glue uses; ptrace is renamed so the test links a fake
 * instead of Linux's ptrace(2), whose request numbers mean other things.
 * The sandbox_* functions are declared by the glue itself, so the check
 * covers those declarations too.
 */
#ifndef HAS_DARWIN_SHIM_H
#define HAS_DARWIN_SHIM_H

#include <sys/types.h>

#define PT_DENY_ATTACH 31 /* <sys/ptrace.h> on Darwin */

#define ptrace seatbelt_shim_ptrace
int ptrace(int request, pid_t pid, caddr_t addr, int data);

#endif
