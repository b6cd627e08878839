/*
 * device_explain.c — --explain's items for the policy's devices
 * (device_grant.h); a file of its own so that what links the judgement
 * alone (the unit tests) needs no core.
 */
#include "config.h"

#include <sys/sysmacros.h>

#include "devices/device_grant.h"

enum sandbox_result device_grants_explain(struct sandbox_ctx *ctx, struct sandbox_explain *out,
                                          const char *how)
{
    const struct string_list *devices = &ctx->policy->devices;
    char err[SANDBOX_ERROR_MAX];
    struct stat st;
    for (size_t i = 0; i < devices->count; i++) {
        if (device_grant_check(devices->items[i], &st, err, sizeof err) != 0)
            return sandbox_fail(ctx, "%s", err);
        sandbox_explain_add(ctx, out, "device", devices->items[i], "character device %u:%u, %s",
                            major(st.st_rdev), minor(st.st_rdev), how);
    }
    return SANDBOX_OK;
}
