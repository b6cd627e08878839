/*
 * egress_spawn.c — see egress_spawn.h.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "egress_env.h"
#include "egress_spawn.h"
#include "process/egress_process.h"

static struct egress_config *build_config(const struct policy *policy, const struct egress_secrets *secrets,
                                          unsigned front_ends, bool bind_loopback, int report_fd)
{
    struct egress_config *cfg = calloc(1, sizeof *cfg);
    if (!cfg || egress_compile_hosts(&policy->network, &cfg->policy) != 0) {
        free(cfg);
        return NULL;
    }
    cfg->creds = secrets->creds;
    cfg->upstream = secrets->upstream;
    cfg->front_ends = front_ends;
    cfg->bind_loopback = bind_loopback;
    cfg->report_fd = report_fd;
    return cfg;
}

static void free_config(struct egress_config *cfg)
{
    sandbox_wipe(&cfg->creds, sizeof cfg->creds);
    sandbox_wipe(&cfg->upstream, sizeof cfg->upstream);
    free(cfg->policy.rules);
    free(cfg);
}

enum sandbox_result egress_spawn(struct sandbox_ctx *ctx, const struct egress_secrets *secrets,
                                 unsigned front_ends, bool bind_loopback, int sp[2])
{
    struct egress_config *cfg = build_config(ctx->policy, secrets, front_ends, bind_loopback, ctx->report_fd);
    if (!cfg) {
        close(sp[0]);
        close(sp[1]);
        return sandbox_fail(ctx, "out of memory building the egress configuration");
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        free_config(cfg);
        close(sp[0]);
        close(sp[1]);
        return sandbox_fail(ctx, "cannot fork the egress process: %s", strerror(errno));
    }
    if (pid == 0) {
        close(sp[0]);
        egress_process_main(cfg, sp[1], parent);
    }
    free_config(cfg);
    close(sp[1]);
    return SANDBOX_OK;
}
