/*
 * egress_loopback.c — the host-loopback variant (egress_platform.h): macOS
 * with Seatbelt, Linux with the landlock backend.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "egress_env.h"
#include "egress_platform.h"
#include "egress_spawn.h"
#include "process/egress_compat.h"
#include "process/egress_process.h"

/*
 * The egress process binds
 * the front-ends on the host's 127.0.0.1 with kernel-chosen ports before
 * the boundary exists, and reports them here; they are granted to the
 * boundary backend (SANDBOX_OFFER_LOOPBACK_GRANTS), which allows the
 * workload exactly those ports and forks it (SANDBOX_OFFER_SUPERVISED);
 * this backend's enter() runs in that workload process.
 */
struct egress_state {
    int control; /* supervisor end of the socketpair */
};

/* Read the egress process's one line (see egress_process.h) within the
 * start-up timeout. */
static enum sandbox_result read_line(struct sandbox_ctx *ctx, int control, char *line, size_t cap)
{
    size_t len = 0;
    int waited_ms = 0;
    while (len == 0 || line[len - 1] != '\n') {
        if (len + 1 >= cap)
            return sandbox_fail(ctx, "the egress process sent an overlong start-up message");
        struct pollfd pfd = {.fd = control, .events = POLLIN};
        int r = poll(&pfd, 1, 100);
        if (r < 0 && errno != EINTR)
            return sandbox_fail(ctx, "waiting for the egress process: %s", strerror(errno));
        if (r <= 0) {
            if ((waited_ms += 100) >= EGRESS_START_TIMEOUT_MS)
                return sandbox_fail(ctx, "the egress process did not report its ports within %d s",
                                    EGRESS_START_TIMEOUT_MS / 1000);
            continue;
        }
        ssize_t n = recv(control, line + len, cap - 1 - len, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return sandbox_fail(ctx, "the egress process ended during start-up");
        len += (size_t)n;
    }
    line[len - 1] = '\0';
    return SANDBOX_OK;
}

/* A configured front-end has a real port, an unconfigured one none. */
static bool port_fits(unsigned long port, bool configured)
{
    return configured ? port >= 1 && port <= 65535 : port == 0;
}

static enum sandbox_result await_ports(struct sandbox_ctx *ctx, int control, unsigned fe,
                                       unsigned short *http_port, unsigned short *socks_port)
{
    char line[EGRESS_LINE_MAX];
    if (read_line(ctx, control, line, sizeof line) != SANDBOX_OK)
        return SANDBOX_FAIL;
    if (line[0] == EGRESS_MSG_ERROR)
        return sandbox_fail(ctx, "egress process (start-up): %s", line + 1);
    char *end = NULL;
    unsigned long h = line[0] == EGRESS_MSG_PORTS ? strtoul(line + 1, &end, 10) : 0;
    unsigned long s = end && *end == ' ' ? strtoul(end + 1, &end, 10) : 0;
    if (!end || *end != '\0' || !port_fits(h, fe & POLICY_FRONT_END_HTTP) ||
        !port_fits(s, fe & POLICY_FRONT_END_SOCKS5))
        return sandbox_fail(ctx, "egress process (start-up): unexpected reply");
    *http_port = (unsigned short)h;
    *socks_port = (unsigned short)s;
    return SANDBOX_OK;
}

/* The ports are the kernel's choice, known only once the egress process
 * reports them; the workload's variables are set then. */
static enum sandbox_result loopback_start(struct sandbox_ctx *ctx, const struct egress_secrets *secrets,
                                          unsigned fe)
{
    struct egress_state *st = calloc(1, sizeof *st);
    if (!st)
        return sandbox_fail(ctx, "out of memory");
    st->control = -1;
    *sandbox_state(ctx) = st;
    /* A stream: macOS has no SOCK_SEQPACKET for AF_UNIX, and no
     * SOCK_CLOEXEC either. */
    int sp[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp) != 0)
        return sandbox_fail(ctx, "cannot create the egress socketpair: %s", strerror(errno));
    if (egress_set_flags(sp[0], 0) < 0) {
        close(sp[1]);
        return sandbox_fail(ctx, "cannot make the egress socketpair close-on-exec: %s", strerror(errno));
    }
    if (egress_set_flags(sp[1], 0) < 0) {
        close(sp[0]);
        return sandbox_fail(ctx, "cannot make the egress socketpair close-on-exec: %s", strerror(errno));
    }
    if (egress_spawn(ctx, secrets, fe, true, sp) != SANDBOX_OK)
        return SANDBOX_FAIL;
    st->control = sp[0];
    unsigned short http_port = 0, socks_port = 0;
    if (await_ports(ctx, st->control, fe, &http_port, &socks_port) != SANDBOX_OK)
        return SANDBOX_FAIL;
    /* The boundary backend (SANDBOX_OFFER_LOOPBACK_GRANTS) opens exactly
     * these ports to the workload; a front-end not configured has none. */
    const unsigned short ports[] = {http_port, socks_port};
    for (size_t i = 0; i < sizeof ports / sizeof ports[0]; i++)
        if (ports[i] && sandbox_grant_loopback_port(ctx, ports[i]) != 0)
            return sandbox_fail(ctx, "more proxy front-ends than loopback grants (%d)",
                                SANDBOX_MAX_LOOPBACK_GRANTS);
    return egress_env_set(ctx, &secrets->creds, fe, http_port, socks_port);
}

/*
 * In the process that becomes the workload: the control socket is the
 * supervisor's alone.  Its end of stream is how the egress process learns
 * that the supervisor is gone (macOS has no PR_SET_PDEATHSIG), so a copy
 * kept alive by the workload would keep the proxy alive after it.
 */
static enum sandbox_result loopback_enter(struct sandbox_ctx *ctx)
{
    struct egress_state *st = *sandbox_state(ctx);
    if (st && st->control >= 0) {
        close(st->control);
        st->control = -1;
    }
    return SANDBOX_OK;
}

/* Kernel-chosen ports on the host's loopback, which the boundary must open
 * to the workload alone. */
const struct egress_variant egress_via_loopback = {
    .needs = SANDBOX_OFFER_LOOPBACK_GRANTS,
    /* No network namespace to put a resolver and a relay in. */
    .front_ends = POLICY_FRONT_END_HTTP | POLICY_FRONT_END_SOCKS5,
    .start = loopback_start,
    .enter = loopback_enter,
};
