/*
 * egress_backend.c — the egress-proxy backend's hooks (backends/egress-proxy/README.md).
 *
 * prepare (supervisor, host side): the workload's proxy variables; for a
 *   policy with an outgoing proxy, the secret, the socketpair and the
 *   egress process, which must be confined and ready before we go on.
 *   Host-loopback builds (macOS): the egress process has bound the
 *   front-ends on 127.0.0.1 and reported their ports before this returns,
 *   so ctx->proxy_ports is final for the Seatbelt profile.
 * enter (Linux: PID 2 of the sandbox, inside its network namespace): the
 *   loopback listeners, handed to the egress process with SCM_RIGHTS.
 *   Host-loopback builds (the workload process Seatbelt forked): drop the
 *   control socket, which must stay with the supervisor alone.
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
#include "egress_compat.h"
#include "proxy_auth.h"

#if defined(__linux__) || defined(EGRESS_HOST_LOOPBACK)
#define EGRESS_PROCESS_BUILD 1
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/random.h>

#include "egress_process.h"
#endif

/* Linux: front-end ports on the sandbox's own loopback.  The network
 * namespace is private, so fixed, familiar ports cannot collide with
 * anything of the host's; the workload starts only after they are bound.
 * (Host-loopback builds use kernel-chosen ports instead.) */
#define HTTP_PORT 3128
#define SOCKS5_PORT 1080
#define START_TIMEOUT_MS 10000

static const char *const http_vars[] = {"HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"};
static const char *const socks_vars[] = {"ALL_PROXY", "all_proxy"};
/* Node's fetch and http read HTTP_PROXY only with this set (Node >= 22.19). */
static const char *const node_vars[] = {"NODE_USE_ENV_PROXY"};
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

#ifdef EGRESS_PROCESS_BUILD

/* explicit_bzero is not in macOS's libc. */
static void wipe(void *p, size_t n)
{
#ifdef __APPLE__
    volatile unsigned char *v = p;
    while (n--)
        *v++ = 0;
#else
    explicit_bzero(p, n);
#endif
}

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

/* An entry the policy parser accepted, split by the parser's own rule. */
static void compile_entry(const char *entry, struct host_rule *rule)
{
    size_t host_len;
    unsigned port;
    if (policy_host_entry_split(entry, &host_len, &port) != NULL)
        host_len = 0;   /* cannot happen for a parsed policy; matches nothing */
    host_rule_compile(entry, host_len, port, rule);
}

static struct egress_config *build_config(const struct policy *policy, const struct proxy_creds *creds,
                                          unsigned front_ends, int report_fd)
{
    struct egress_config *cfg = calloc(1, sizeof *cfg);
    size_t n = policy->network.allowed_hosts.count;
    if (!cfg || !(cfg->policy.rules = calloc(n ? n : 1, sizeof *cfg->policy.rules))) {
        free(cfg);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        compile_entry(policy->network.allowed_hosts.items[i], &cfg->policy.rules[i]);
    cfg->policy.count = n;
    cfg->creds = *creds;
    cfg->front_ends = front_ends;
    cfg->report_fd = report_fd;
    return cfg;
}

static void free_config(struct egress_config *cfg)
{
    wipe(&cfg->creds, sizeof cfg->creds);
    free(cfg->policy.rules);
    free(cfg);
}

static enum sandbox_result make_secret(struct sandbox_ctx *ctx, struct proxy_creds *creds)
{
    unsigned char raw[PROXY_SECRET_BYTES];
#ifdef EGRESS_HOST_LOOPBACK
    /* macOS has no getrandom(2); getentropy(2) is its CSPRNG call (<= 256 bytes). */
    if (getentropy(raw, sizeof raw) != 0)
        return sandbox_fail(ctx, "cannot generate the proxy secret (getentropy): %s", strerror(errno));
#else
    size_t got = 0;
    while (got < sizeof raw) {
        ssize_t r = getrandom(raw + got, sizeof raw - got, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return sandbox_fail(ctx, "cannot generate the proxy secret (getrandom): %s", strerror(errno));
        got += (size_t)r;
    }
#endif
    snprintf(creds->user, sizeof creds->user, "%s", PROXY_USER);
    hex_encode(raw, sizeof raw, creds->secret);
    wipe(raw, sizeof raw);
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
            compile_entry(hosts->items[j], &rule);
            named = host_rules_name(&rule, 1, &host) != NULL;   /* on any port */
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
                                         unsigned front_ends, unsigned short http_port,
                                         unsigned short socks_port)
{
    char url[160];
    int bad = 0;
    if (front_ends & POLICY_FRONT_END_HTTP) {
        snprintf(url, sizeof url, "http://%s:%s@127.0.0.1:%u", creds->user, creds->secret, (unsigned)http_port);
        bad |= set_all(ctx, http_vars, COUNT(http_vars), url);
        bad |= set_all(ctx, node_vars, COUNT(node_vars), "1");
        ctx->proxy_ports[ctx->proxy_port_count++] = http_port;
    }
    if (front_ends & POLICY_FRONT_END_SOCKS5) {
        snprintf(url, sizeof url, "socks5h://%s:%s@127.0.0.1:%u", creds->user, creds->secret, (unsigned)socks_port);
        bad |= set_all(ctx, socks_vars, COUNT(socks_vars), url);
        ctx->proxy_ports[ctx->proxy_port_count++] = socks_port;
    }
    char no_proxy[64];
    if (no_proxy_value(ctx->policy, no_proxy, sizeof no_proxy))
        bad |= set_all(ctx, no_proxy_vars, COUNT(no_proxy_vars), no_proxy);
    wipe(url, sizeof url);
    return bad ? sandbox_fail(ctx, "out of memory setting the proxy variables") : SANDBOX_OK;
}

/*
 * backends/egress-proxy/README.md: a proxy variable the caller set but the policy did not configure
 * arrives unset, with or without a proxy.  Returns the front-ends to start.
 */
static unsigned remove_caller_vars(struct sandbox_ctx *ctx)
{
    const struct policy_network *net = &ctx->policy->network;
    unsigned fe = net->has_outgoing_proxy ? net->front_ends : 0;
    unset_all(ctx, foreign_vars, COUNT(foreign_vars));
    unset_all(ctx, no_proxy_vars, COUNT(no_proxy_vars));
    if (!(fe & POLICY_FRONT_END_HTTP)) {
        unset_all(ctx, http_vars, COUNT(http_vars));
        unset_all(ctx, node_vars, COUNT(node_vars));
    }
    if (!(fe & POLICY_FRONT_END_SOCKS5))
        unset_all(ctx, socks_vars, COUNT(socks_vars));
    return fe;
}

/* Fork the egress process on the socketpair sp; sp[0] stays here. */
static enum sandbox_result fork_egress(struct sandbox_ctx *ctx, const struct proxy_creds *creds,
                                       unsigned front_ends, int sp[2])
{
    struct egress_config *cfg = build_config(ctx->policy, creds, front_ends, ctx->report_fd);
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

#ifndef EGRESS_HOST_LOOPBACK

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

/* For egress_prepare(): the ports are fixed (the sandbox's own network
 * namespace), so the workload's variables are known before the process
 * starts. */
static enum sandbox_result egress_start(struct sandbox_ctx *ctx, struct egress_state *st,
                                        const struct proxy_creds *creds, unsigned fe)
{
    st->front_ends = fe;
    if (stat("/proc/self/ns/net", &st->host_netns) != 0)
        return sandbox_fail(ctx, "cannot identify the host network namespace (/proc/self/ns/net): %s",
                            strerror(errno));
    if (set_proxy_env(ctx, creds, fe, HTTP_PORT, SOCKS5_PORT) != SANDBOX_OK)
        return SANDBOX_FAIL;
    int sp[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) != 0)
        return sandbox_fail(ctx, "cannot create the egress socketpair: %s", strerror(errno));
    if (fork_egress(ctx, creds, fe, sp) != SANDBOX_OK)
        return SANDBOX_FAIL;
    st->control = sp[0];
    return await_ready(ctx, st->control, "start-up");
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
        {POLICY_FRONT_END_HTTP, HTTP_PORT, EGRESS_KIND_HTTP},
        {POLICY_FRONT_END_SOCKS5, SOCKS5_PORT, EGRESS_KIND_SOCKS5},
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

#else /* EGRESS_HOST_LOOPBACK */

/*
 * macOS (and the Linux test build of this path): the egress process binds
 * the front-ends on the host's 127.0.0.1 with kernel-chosen ports before
 * the Seatbelt profile exists, and reports them here.  Seatbelt (order 100)
 * then allows the workload exactly those ports and forks it; this backend's
 * enter() runs in that workload process.
 */
struct egress_state {
    int control;               /* supervisor end of the socketpair */
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
            if ((waited_ms += 100) >= START_TIMEOUT_MS)
                return sandbox_fail(ctx, "the egress process did not report its ports within %d s",
                                    START_TIMEOUT_MS / 1000);
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

/* For egress_prepare(): the ports are the kernel's choice, known only once
 * the egress process reports them. */
static enum sandbox_result egress_start(struct sandbox_ctx *ctx, struct egress_state *st,
                                        const struct proxy_creds *creds, unsigned fe)
{
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
    if (fork_egress(ctx, creds, fe, sp) != SANDBOX_OK)
        return SANDBOX_FAIL;
    st->control = sp[0];
    unsigned short http_port = 0, socks_port = 0;
    if (await_ports(ctx, st->control, fe, &http_port, &socks_port) != SANDBOX_OK)
        return SANDBOX_FAIL;
    return set_proxy_env(ctx, creds, fe, http_port, socks_port);
}

/*
 * In the process that becomes the workload: the control socket is the
 * supervisor's alone.  Its end of stream is how the egress process learns
 * that the supervisor is gone (macOS has no PR_SET_PDEATHSIG), so a copy
 * kept alive by the workload would keep the proxy alive after it.
 */
static enum sandbox_result egress_enter(struct sandbox_ctx *ctx)
{
    struct egress_state *st = *sandbox_state(ctx);
    if (st && st->control >= 0) {
        close(st->control);
        st->control = -1;
    }
    return SANDBOX_OK;
}

#endif

/* The same on both paths: the per-invocation secret exists in this process
 * only in `creds`, wiped whatever happens; egress_start() is the platform's
 * way to start the egress process and give the workload its variables. */
static enum sandbox_result egress_prepare(struct sandbox_ctx *ctx)
{
    unsigned fe = remove_caller_vars(ctx);
    if (!fe)
        return SANDBOX_OK;
    struct egress_state *st = calloc(1, sizeof *st);
    if (!st)
        return sandbox_fail(ctx, "out of memory");
    st->control = -1;
    *sandbox_state(ctx) = st;
    struct proxy_creds creds;
    enum sandbox_result r = make_secret(ctx, &creds);
    r = r == SANDBOX_OK ? egress_start(ctx, st, &creds, fe) : r;
    wipe(&creds, sizeof creds);
    return r;
}

#else /* neither Linux nor macOS */

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
    unset_all(ctx, node_vars, COUNT(node_vars));
    unset_all(ctx, socks_vars, COUNT(socks_vars));
    return SANDBOX_OK;
}

/* Nothing to enforce here, so nothing is claimed (see above). */
#define EGRESS_ENFORCES 0
#define egress_enter sandbox_hook_noop

#endif

#ifndef EGRESS_ENFORCES
#define EGRESS_ENFORCES SANDBOX_ENFORCES_EGRESS_PROXY
#endif

/* One descriptor for every platform: what differs is which prepare/enter
 * the branches above define, and whether a proxy is enforced at all. */
SANDBOX_BACKEND_DEFINE(egress_proxy_backend) = {
    .abi = SANDBOX_BACKEND_ABI,
    .name = "egress-proxy",
    .order = 200,
    .enforces = EGRESS_ENFORCES,
    .prepare = egress_prepare,
    .enter = egress_enter,
    .harden = sandbox_hook_noop,
};
