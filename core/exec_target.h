/*
 * exec_target.h — the last step: execve the target with the workload's
 * environment, looking a bare name up in the workload's PATH (inside the
 * boundary, so the lookup sees what the workload will see).
 */
#ifndef HAS_EXEC_TARGET_H
#define HAS_EXEC_TARGET_H

#include "backend.h"

/* Never returns: execve succeeds, or a 125 diagnostic names the target and
 * the reason ("not found in PATH", "permission denied", ...). */
void exec_target(const struct sandbox_ctx *ctx) __attribute__((noreturn));

#endif
