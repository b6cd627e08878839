/*
 * egress_backend.c — the egress-proxy backend's hooks (SPEC §5).
 *
 * prepare (supervisor, host side): the workload's proxy variables; for a
 *   policy with an outgoing proxy, the secret, the socketpair and the
 *   egress process, which must be confined and ready before we go on.
 * enter (Linux: PID 2 of the sandbox, inside its network namespace): the
 *   loopback listeners, handed to the egress process with SCM_RIGHTS.
 * harden: nothing (linux-ns closes descriptors and installs seccomp).
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"
#include "proxy_auth.h"

#ifdef __linux__
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/random.h>

#include "egress_process.h"
#endif

/* Front-end ports on the sandbox's own loopback.  The network namespace is
 * private, so fixed, familiar ports cannot collide with anything of the
 * host's; the workload starts only after they are bound. */
#define HTTP_PORT 3128
#define SOCKS5_PORT 1080
#define START_TIMEOUT_MS 10000

static const char *const http_vars[] = {"HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"};
static const char *const socks_vars[] = {"ALL_PROXY", "all_proxy"};
/* Set by neither front-end, so a caller's value would point the workload
 * at a proxy the policy never configured: always removed. */
static const char *const foreign_vars[] = {"FTP_PROXY", "ftp_proxy"};
static const char *const no_proxy_vars[] = {"NO_PROXY", "no_proxy"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void unset_all(struct sandbox_ctx *ctx, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sandbox_env_unset(ctx, names[i]);
}

#ifdef __linux__

static int set_all(struct sandbox_ctx *ctx, const char *const *names, size_t n, const char *value)
{
    for (size_t i = 0; i < n; i++) {
        /* sandbox_env_set replaces the first copy only; a hand-built
         * environment may hold more, and some runtimes (Python's
         * os.environ) let the last one win. */
        sandbox_env_unset(ctx, names[i]);
        if (sandbox_env_set(ctx, names[i], value) != 0)
            return -1;
    }
    return 0;
}

struct egress_state {
    int control;               /* sandbox end of the socketpair */
    struct stat host_netns;
    unsigned front_ends;
};

/* Wait for one message from the egress process. */
static enum sandbox_result await_ready(struct sandbox_ctx *ctx, int control, const char *stage)
{
    struct pollfd pfd = {.fd = control, .events = POLLIN};
    int r;
    do
        r = poll(&pfd, 1, START_TIMEOUT_MS);
    while (r < 0 && errno == EINTR);
    if (r == 0)
        return sandbox_fail(ctx, "the egress process did not answer within %d s (%s)",
                            START_TIMEOUT_MS / 1000, stage);
    char msg[600];
    ssize_t n = recv(control, msg, sizeof msg - 1, 0);
    if (n <= 0)
        return sandbox_fail(ctx, "the egress process ended during %s", stage);
    msg[n] = '\0';
    if (msg[0] == EGRESS_MSG_READY)
        return SANDBOX_OK;
    return sandbox_fail(ctx, "egress process (%s): %s", stage, msg[0] == EGRESS_MSG_ERROR ? msg + 1 : "unexpected reply");
}

static struct egress_config *build_config(const struct policy *policy, const struct proxy_creds *creds)
{
    struct egress_config *cfg = calloc(1, sizeof *cfg);
    size_t n = policy->network.allowed_hosts.count;
    if (!cfg || !(cfg->policy.rules = calloc(n ? n : 1, sizeof *cfg->policy.rules))) {
        free(cfg);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        host_rule_compile(policy->network.allowed_hosts.items[i], &cfg->policy.rules[i]);
    cfg->policy.count = n;
    cfg->creds = *creds;
    return cfg;
}

static void free_config(struct egress_config *cfg)
{
    explicit_bzero(&cfg->creds, sizeof cfg->creds);
    free(cfg->policy.rules);
    free(cfg);
}

static enum sandbox_result make_secret(struct sandbox_ctx *ctx, struct proxy_creds *creds)
{
    unsigned char raw[PROXY_SECRET_BYTES];
    size_t got = 0;
    while (got < sizeof raw) {
        ssize_t r = getrandom(raw + got, sizeof raw - got, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return sandbox_fail(ctx, "cannot generate the proxy secret (getrandom): %s", strerror(errno));
        got += (size_t)r;
    }
    snprintf(creds->user, sizeof creds->user, "%s", PROXY_USER);
    hex_encode(raw, sizeof raw, creds->secret);
    explicit_bzero(raw, sizeof raw);
    return SANDBOX_OK;
}

/*
 * NO_PROXY: the loopback spellings, so a workload reaches its own loopback
 * (a dev server under localBinding: true) directly rather than through a
 * proxy that would refuse it -- except those the policy names in
 * allowedHosts: naming "127.0.0.1" or "localhost" asks for the host's
 * loopback, which only the proxy can reach.  False when none is left (the
 * variable is then unset).
 */
static bool no_proxy_value(const struct policy *policy, char *out, size_t len)
{
    static const char *const loopback[] = {"localhost", "127.0.0.1", "::1"};
    const struct string_list *hosts = &policy->network.allowed_hosts;
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; i < COUNT(loopback); i++) {
        /* "Named" exactly as the egress process will judge it, so
         * "LOCALHOST.", "[::1]" or "0:0::1" count too. */
        struct dest_host host;
        bool named = false;
        dest_host_parse(loopback[i], strlen(loopback[i]), &host);
        for (size_t j = 0; j < hosts->count && !named; j++) {
            struct host_rule rule;
            host_rule_compile(hosts->items[j], &rule);
            named = host_rules_match(&rule, 1, &host) != NULL;
        }
        if (named)
            continue;
        int n = snprintf(out + at, len - at, "%s%s", at ? "," : "", loopback[i]);
        if (n > 0 && (size_t)n < len - at)
            at += (size_t)n;
    }
    return at > 0;
}

static enum sandbox_result set_proxy_env(struct sandbox_ctx *ctx, const struct proxy_creds *creds,
                                         unsigned front_ends)
{
    char url[160];
    int bad = 0;
    if (front_ends & POLICY_FRONT_END_HTTP) {
        snprintf(url, sizeof url, "http://%s:%s@127.0.0.1:%d", creds->user, creds->secret, HTTP_PORT);
        bad |= set_all(ctx, http_vars, COUNT(http_vars), url);
        ctx->proxy_ports[ctx->proxy_port_count++] = HTTP_PORT;
    }
    if (front_ends & POLICY_FRONT_END_SOCKS5) {
        snprintf(url, sizeof url, "socks5h://%s:%s@127.0.0.1:%d", creds->user, creds->secret, SOCKS5_PORT);
        bad |= set_all(ctx, socks_vars, COUNT(socks_vars), url);
        ctx->proxy_ports[ctx->proxy_port_count++] = SOCKS5_PORT;
    }
    char no_proxy[64];
    if (no_proxy_value(ctx->policy, no_proxy, sizeof no_proxy))
        bad |= set_all(ctx, no_proxy_vars, COUNT(no_proxy_vars), no_proxy);
    explicit_bzero(url, sizeof url);
    return bad ? sandbox_fail(ctx, "out of memory setting the proxy variables") : SANDBOX_OK;
}

static enum sandbox_result start_egress_process(struct sandbox_ctx *ctx, struct egress_state *st,
                                                const struct proxy_creds *creds)
{
    int sp[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) != 0)
        return sandbox_fail(ctx, "cannot create the egress socketpair: %s", strerror(errno));
    struct egress_config *cfg = build_config(ctx->policy, creds);
    if (!cfg)
        return sandbox_fail(ctx, "out of memory building the egress configuration");
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        free_config(cfg);
        return sandbox_fail(ctx, "cannot fork the egress process: %s", strerror(errno));
    }
    if (pid == 0) {
        close(sp[0]);
        egress_process_main(cfg, sp[1], parent);
    }
    free_config(cfg);
    close(sp[1]);
    st->control = sp[0];
    return await_ready(ctx, st->control, "start-up");
}

static enum sandbox_result egress_prepare(struct sandbox_ctx *ctx)
{
    const struct policy_network *net = &ctx->policy->network;
    unsigned fe = net->has_outgoing_proxy ? net->front_ends : 0;
    /* SPEC §5: a proxy variable the caller set but the policy did not
     * configure arrives unset, with or without a proxy. */
    unset_all(ctx, foreign_vars, COUNT(foreign_vars));
    unset_all(ctx, no_proxy_vars, COUNT(no_proxy_vars));
    if (!(fe & POLICY_FRONT_END_HTTP))
        unset_all(ctx, http_vars, COUNT(http_vars));
    if (!(fe & POLICY_FRONT_END_SOCKS5))
        unset_all(ctx, socks_vars, COUNT(socks_vars));
    if (!fe)
        return SANDBOX_OK;
    struct egress_state *st = calloc(1, sizeof *st);
    if (!st)
        return sandbox_fail(ctx, "out of memory");
    st->control = -1;
    st->front_ends = fe;
    *sandbox_state(ctx) = st;
    if (stat("/proc/self/ns/net", &st->host_netns) != 0)
        return sandbox_fail(ctx, "cannot identify the host network namespace (/proc/self/ns/net): %s",
                            strerror(errno));
    struct proxy_creds creds;
    enum sandbox_result r = make_secret(ctx, &creds);
    r = r == SANDBOX_OK ? set_proxy_env(ctx, &creds, fe) : r;
    r = r == SANDBOX_OK ? start_egress_process(ctx, st, &creds) : r;
    explicit_bzero(&creds, sizeof creds);
    return r;
}

static int loopback_listener(unsigned short port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons(port)};
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0 || listen(fd, 4096) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

static enum sandbox_result send_listeners(struct sandbox_ctx *ctx, struct egress_state *st,
                                          const int *fds, const char *kinds, size_t n)
{
    char payload[1 + EGRESS_MAX_LISTENERS];
    payload[0] = EGRESS_MSG_LISTENERS;
    memcpy(payload + 1, kinds, n);
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(sizeof(int) * EGRESS_MAX_LISTENERS)];
    } cmsg;
    memset(&cmsg, 0, sizeof cmsg);
    struct iovec iov = {payload, 1 + n};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cmsg.buf,
                         .msg_controllen = CMSG_SPACE(sizeof(int) * n)};
    struct cmsghdr *h = CMSG_FIRSTHDR(&msg);
    h->cmsg_level = SOL_SOCKET;
    h->cmsg_type = SCM_RIGHTS;
    h->cmsg_len = CMSG_LEN(sizeof(int) * n);
    memcpy(CMSG_DATA(h), fds, sizeof(int) * n);
    if (sendmsg(st->control, &msg, MSG_NOSIGNAL) < 0)
        return sandbox_fail(ctx, "cannot hand the front-ends to the egress process: %s", strerror(errno));
    return await_ready(ctx, st->control, "front-end hand-over");
}

static enum sandbox_result egress_enter(struct sandbox_ctx *ctx)
{
    struct egress_state *st = *sandbox_state(ctx);
    if (!st)
        return SANDBOX_OK;
    /* Fail closed: in the host's namespace the front-ends would be
     * reachable from outside and the workload would not need them. */
    struct stat here;
    if (stat("/proc/self/ns/net", &here) != 0)
        return sandbox_fail(ctx, "cannot identify the sandbox network namespace: %s", strerror(errno));
    if (here.st_ino == st->host_netns.st_ino && here.st_dev == st->host_netns.st_dev)
        return sandbox_fail(ctx, "the outgoing proxy needs the sandbox in its own network namespace, "
                                 "and no backend created one (is linux-ns loaded?)");
    int fds[EGRESS_MAX_LISTENERS];
    char kinds[EGRESS_MAX_LISTENERS];
    size_t n = 0;
    enum sandbox_result r = SANDBOX_OK;
    static const struct { unsigned bit; unsigned short port; char kind; } fronts[] = {
        {POLICY_FRONT_END_HTTP, HTTP_PORT, 'H'},
        {POLICY_FRONT_END_SOCKS5, SOCKS5_PORT, 'S'},
    };
    for (size_t i = 0; i < COUNT(fronts) && r == SANDBOX_OK; i++) {
        if (!(st->front_ends & fronts[i].bit))
            continue;
        int fd = loopback_listener(fronts[i].port);
        if (fd < 0)
            r = sandbox_fail(ctx, "cannot listen on 127.0.0.1:%u in the sandbox: %s",
                             (unsigned)fronts[i].port, strerror(errno));
        else {
            fds[n] = fd;
            kinds[n++] = fronts[i].kind;
        }
    }
    if (r == SANDBOX_OK)
        r = send_listeners(ctx, st, fds, kinds, n);
    /* The egress process holds its own copies now; none stay here. */
    for (size_t i = 0; i < n; i++)
        close(fds[i]);
    close(st->control);
    st->control = -1;
    return r;
}

SANDBOX_BACKEND_DEFINE(egress_proxy_backend) = {
    .abi = SANDBOX_BACKEND_ABI,
    .name = "egress-proxy",
    .order = 200,
    .enforces = SANDBOX_ENFORCES_EGRESS_PROXY,
    .prepare = egress_prepare,
    .enter = egress_enter,
    .harden = sandbox_hook_noop,
};

#else /* !__linux__ */

/*
 * Elsewhere this build only removes the proxy variables a caller set; it
 * does not claim SANDBOX_ENFORCES_EGRESS_PROXY, so the core refuses a
 * policy with an outgoing proxy instead of running it unfiltered.
 */
static enum sandbox_result egress_prepare(struct sandbox_ctx *ctx)
{
    unset_all(ctx, foreign_vars, COUNT(foreign_vars));
    unset_all(ctx, no_proxy_vars, COUNT(no_proxy_vars));
    unset_all(ctx, http_vars, COUNT(http_vars));
    unset_all(ctx, socks_vars, COUNT(socks_vars));
    return SANDBOX_OK;
}

SANDBOX_BACKEND_DEFINE(egress_proxy_backend) = {
    .abi = SANDBOX_BACKEND_ABI,
    .name = "egress-proxy",
    .order = 200,
    .enforces = 0,
    .prepare = egress_prepare,
    .enter = sandbox_hook_noop,
    .harden = sandbox_hook_noop,
};

#endif
