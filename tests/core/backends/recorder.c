/*
 * recorder.c — an example backend module, built outside the core's tree and
 * loaded by tests/core/dynamic-backends.sh with --backend-module: it appends
 * "<name>:<hook>" to the file named by the workload's HAS_RECORDER_FILE, so
 * the test sees which hooks ran and in which order.  Built several times
 * with different RECORDER_* settings to make well-formed and broken modules.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"

#ifndef RECORDER_NAME
#define RECORDER_NAME "recorder"
#endif
#ifndef RECORDER_ORDER
#define RECORDER_ORDER 10
#endif
/* A module built against another contract: the signature and the size
 * of the ctx it was compiled with. */
#ifndef RECORDER_SIGNATURE
#define RECORDER_SIGNATURE SANDBOX_ABI_SIGNATURE
#endif
#ifndef RECORDER_CTX_SIZE
#define RECORDER_CTX_SIZE sizeof(struct sandbox_ctx)
#endif
/* What it claims and declares (backend.h, "How backends compose"). */
#ifndef RECORDER_ENFORCES
#define RECORDER_ENFORCES 0
#endif
#ifndef RECORDER_OFFERS
#define RECORDER_OFFERS 0
#endif
#ifndef RECORDER_NEEDS
#define RECORDER_NEEDS 0
#endif
#ifndef RECORDER_NEEDS_ONE_OF
#define RECORDER_NEEDS_ONE_OF 0
#endif
#ifndef RECORDER_ENTER_NEEDS_VIEW
#define RECORDER_ENTER_NEEDS_VIEW false
#endif

static enum sandbox_result record(struct sandbox_ctx *ctx, const char *hook)
{
    const char *file = sandbox_env_get(ctx, "HAS_RECORDER_FILE");
    if (!file)
        return sandbox_fail(ctx, "HAS_RECORDER_FILE is not set in the workload environment");
    int fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return sandbox_fail(ctx, "cannot open %s", file);
    char line[128];
    /* What the others offer, and whether a later enter() needs the
     * finished view, as the core told this hook. */
    int n = snprintf(line, sizeof line, "%s:%s%s%s\n", RECORDER_NAME, hook,
                     ctx->others_offer
                         ? (ctx->others_offer == (SANDBOX_OFFER_LOOPBACK_GRANTS | SANDBOX_OFFER_SUPERVISED)
                                ? " others=loopback,supervised"
                                : " others=other")
                         : "",
                     ctx->later_enter_needs_view ? " later-needs-view" : "");
    ssize_t w = write(fd, line, (size_t)n);
    close(fd);
    return w == n ? SANDBOX_OK : sandbox_fail(ctx, "cannot write %s", file);
}

static __attribute__((unused)) enum sandbox_result recorder_prepare(struct sandbox_ctx *ctx)
{
    return record(ctx, "prepare");
}
static enum sandbox_result recorder_enter(struct sandbox_ctx *ctx)
{
    return record(ctx, "enter");
}
static __attribute__((unused)) enum sandbox_result recorder_harden(struct sandbox_ctx *ctx)
{
    /* Show that a backend can shape the workload's environment. */
    if (sandbox_env_set(ctx, "HAS_RECORDED_BY_" RECORDER_NAME, "yes") != 0)
        return sandbox_fail(ctx, "out of memory");
    return record(ctx, "harden");
}

#ifdef RECORDER_OLD_DESCRIPTOR
/* What a module built before the ABI block exports: the descriptor of
 * backend ABI 4, a number where the block now starts. */
__attribute__((visibility("default"))) const struct {
    unsigned abi;
    const char *name;
    int order;
    unsigned enforces, offers, needs, needs_one_of;
    bool on_request;
    sandbox_hook prepare, enter, harden;
} sandbox_backend_descriptor = {
    4, RECORDER_NAME, RECORDER_ORDER, 0, 0, 0, 0, false, recorder_prepare, recorder_enter, recorder_harden,
};
#else
SANDBOX_BACKEND_DEFINE(recorder_backend) = {
    .abi = {SANDBOX_ABI_MAGIC, RECORDER_SIGNATURE, RECORDER_CTX_SIZE, sizeof(struct policy),
            sizeof(struct sandbox_backend)},
    .name = RECORDER_NAME,
    .order = RECORDER_ORDER,
    .enforces = RECORDER_ENFORCES,
    .offers = RECORDER_OFFERS,
    .needs = RECORDER_NEEDS,
    .needs_one_of = RECORDER_NEEDS_ONE_OF,
    .enter_needs_view = RECORDER_ENTER_NEEDS_VIEW,
#ifndef RECORDER_NO_PREPARE
    .prepare = recorder_prepare,
#endif
    .enter = recorder_enter,
#ifndef RECORDER_NO_HARDEN
    .harden = recorder_harden,
#endif
/* What README's recipe lacked once (a module of before --explain). */
#ifndef RECORDER_NO_EXPLAIN
    .explain = sandbox_explain_noop,
#endif
};
#endif
