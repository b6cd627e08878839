/*
 * The template backend: the recipe of README.md "Adding a backend", as a
 * file that `make check` compiles and runs in both kinds of build.  It is
 * a sandbox backend that builds no boundary: it claims the filesystem
 * policy only so that --sandbox can select it, and its prepare() and
 * explain() refuse every policy that restricts the file system, so it
 * never runs a workload with less isolation than the policy asks for.
 * Copy it to backends/foo/backend.c, rename "template", and replace the
 * refusal with the boundary.
 */
#include "config.h"

#include "backend.h"

/* The check prepare() and explain() share (backend.h: explain() refuses
 * exactly when a launch would). */
static enum sandbox_result template_check(struct sandbox_ctx *ctx)
{
    if (ctx->policy->mode != POLICY_MODE_FULL_ACCESS)
        return sandbox_fail(ctx, "the template backend enforces nothing; it runs only full_access policies");
    return SANDBOX_OK;
}

static enum sandbox_result template_explain(struct sandbox_ctx *ctx, struct sandbox_explain *out)
{
    (void)out; /* nothing to describe, no query to answer */
    return template_check(ctx);
}

SANDBOX_BACKEND_DEFINE(template_backend) = {
    .abi = SANDBOX_BACKEND_ABI,
    /* What --sandbox names, and its line in --help. */
    .name = "template",
    .summary = "builds no boundary; runs only full_access policies",
    /* Unique: its place in each phase. */
    .order = 150,
    /* What it claims (the core trusts it), and how it composes with the
     * others (backend.h, "How backends compose"). */
    .enforces = SANDBOX_ENFORCES_FILESYSTEM,
    .offers = 0,
    .needs = 0,
    .needs_one_of = 0,
    /* Selected only by --sandbox, unless it is to be the default. */
    .on_request = true,
    /* Whether its enter() needs the earlier backends' finished sandbox. */
    .enter_needs_view = false,
    /* Every hook is required: a phase with nothing to do uses
     * sandbox_hook_noop, an explain() with nothing to say
     * sandbox_explain_noop. */
    .prepare = template_check,
    .enter = sandbox_hook_noop,
    .harden = sandbox_hook_noop,
    .explain = template_explain,
};
