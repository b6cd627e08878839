/*
 * test_relay.c — the egress loop and its relay as one component, in
 * process: the loop runs in a thread on a real listener, an origin on
 * 127.0.0.1 serves from other threads, and clients tunnel through the HTTP
 * front-end.  Built twice from this source: test_relay (evpoll_epoll.c +
 * relay.c: splice, the Linux release relay) and test_relay_portable
 * (evpoll_poll.c + relay_copy.c: poll and recv/send, macOS's), so both
 * implementations meet the same contract: large transfers intact (by hash,
 * both ways at once), half-close both ways, resets passed on as errors,
 * a stalled reader costing no CPU and not slowing anyone else, hostile
 * clients refused or dropped without harm, many tunnels at once.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "process/conn.h"
#include "process/egress_compat.h"
#include "process/egress_loop.h"
#include "../cunit_run.h"

#define SECRET "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define BIG (64u * 1024 * 1024)

static struct egress_loop loop;
static struct listener front;
static struct host_rule rule;
static int control[2] = {-1, -1};
static pthread_t loop_thread;
static clockid_t loop_clock;
static volatile int loop_clock_ok;
static unsigned short origin_port, proxy_port;
static char auth[128];

/* ---- helpers -------------------------------------------------------------- */

static void base64(const char *in, char *out)
{
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t n = strlen(in), o = 0;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned char)in[i] << 16;
        if (i + 1 < n)
            v |= (unsigned char)in[i + 1] << 8;
        if (i + 2 < n)
            v |= (unsigned char)in[i + 2];
        out[o++] = a[(v >> 18) & 63];
        out[o++] = a[(v >> 12) & 63];
        out[o++] = i + 1 < n ? a[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < n ? a[v & 63] : '=';
    }
    out[o] = '\0';
}

static int listen_any(unsigned short *port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in sin = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof sin;
    if (fd < 0 || bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0 || listen(fd, 512) != 0 ||
        getsockname(fd, (struct sockaddr *)&sin, &len) != 0)
        return -1;
    *port = ntohs(sin.sin_port);
    return fd;
}

static void timeouts(int fd, int seconds)
{
    struct timeval tv = {.tv_sec = seconds};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

static int connect_to(unsigned short port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in sin = {
        .sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (fd < 0 || connect(fd, (struct sockaddr *)&sin, sizeof sin) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    timeouts(fd, 20);
    return fd;
}

static int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Everything until end of stream; -1 on an error (a reset included). */
static ssize_t read_all(int fd, char *buf, size_t cap)
{
    size_t got = 0;
    for (;;) {
        ssize_t r = recv(fd, buf + got, cap - got, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0 || (got += (size_t)r) == cap)
            return (ssize_t)got;
    }
}

static void rst_close(int fd)
{
    struct linger lg = {.l_onoff = 1, .l_linger = 0};
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
    close(fd);
}

/* The response head to a request, byte by byte (nothing beyond it read). */
static int read_head(int fd, char *head, size_t cap)
{
    size_t n = 0;
    while (n + 1 < cap) {
        ssize_t r = recv(fd, head + n, 1, 0);
        if (r <= 0)
            break;
        n++;
        if (n >= 4 && memcmp(head + n - 4, "\r\n\r\n", 4) == 0)
            break;
    }
    head[n] = '\0';
    return (int)n;
}

/* A CONNECT tunnel to the origin, whose first byte picks its behaviour. */
static int tunnel(char mode)
{
    int fd = connect_to(proxy_port);
    if (fd < 0)
        return -1;
    char req[256], head[512];
    int n =
        snprintf(req, sizeof req, "CONNECT 127.0.0.1:%u HTTP/1.1\r\nProxy-Authorization: Basic %s\r\n\r\n",
                 (unsigned)origin_port, auth);
    if (write_all(fd, req, (size_t)n) != 0 || read_head(fd, head, sizeof head) <= 0 ||
        strncmp(head, "HTTP/1.1 200", 12) != 0 || write_all(fd, &mode, 1) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

static void fill_random(uint64_t *state, unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        p[i] = (unsigned char)*state;
    }
}

static int64_t loop_cpu_us(void)
{
    struct timespec ts;
    if (!loop_clock_ok || clock_gettime(loop_clock, &ts) != 0)
        return -1;
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* ---- the origin ----------------------------------------------------------- */

static void origin_echo(int fd)
{
    char buf[65536];
    ssize_t r;
    while ((r = recv(fd, buf, sizeof buf, 0)) > 0)
        if (write_all(fd, buf, (size_t)r) != 0)
            return;
    shutdown(fd, SHUT_WR);
    while (recv(fd, buf, sizeof buf, 0) > 0) {
    }
}

/* Reply only after the client's end of stream: the way back must stay
 * open after a half-close. */
static void origin_delayed(int fd)
{
    static char buf[1 << 16];
    ssize_t n = read_all(fd, buf, sizeof buf);
    usleep(200 * 1000);
    if (n > 0)
        write_all(fd, buf, (size_t)n);
}

static void origin_flood(int fd)
{
    static const char chunk[65536];
    while (write_all(fd, chunk, sizeof chunk) == 0) {
    }
}

static void *origin_conn(void *arg)
{
    int fd = (int)(intptr_t)arg;
    char mode = 0;
    timeouts(fd, 30);
    if (recv(fd, &mode, 1, 0) == 1) {
        switch (mode) {
        case 'E': origin_echo(fd); break;
        case 'D': origin_delayed(fd); break;
        case 'F': origin_flood(fd); break;
        case 'X': rst_close(fd); return NULL;
        default: break;
        }
    }
    close(fd);
    return NULL;
}

static void *origin_main(void *arg)
{
    int lfd = (int)(intptr_t)arg;
    for (;;) {
        int fd = accept(lfd, NULL, NULL);
        if (fd < 0)
            continue;
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&t, &attr, origin_conn, (void *)(intptr_t)fd) != 0)
            close(fd);
        pthread_attr_destroy(&attr);
    }
    return NULL;
}

static void *loop_main(void *arg)
{
    (void)arg;
    static char err[256];
    if (pthread_getcpuclockid(pthread_self(), &loop_clock) == 0)
        loop_clock_ok = 1;
    if (egress_loop_run(&loop, &front, 1, control[1], err, sizeof err) != 0)
        fprintf(stderr, "egress loop: %s\n", err);
    return NULL;
}

static int suite_init(void)
{
    signal(SIGPIPE, SIG_IGN); /* as egress_process_main does */
    unsigned short port;
    int ofd = listen_any(&origin_port);
    int pfd = listen_any(&port);
    if (ofd < 0 || pfd < 0 || egress_set_flags(pfd, 1) < 0)
        return -1;
    proxy_port = port;
    pthread_t t;
    if (pthread_create(&t, NULL, origin_main, (void *)(intptr_t)ofd) != 0)
        return -1;
    host_rule_compile("127.0.0.1", 9, 0, &rule);
    loop.policy.rules = &rule;
    loop.policy.count = 1;
    snprintf(loop.creds.user, sizeof loop.creds.user, "%s", PROXY_USER);
    snprintf(loop.creds.secret, sizeof loop.creds.secret, "%s", SECRET);
    loop.max_conns = 1024;
    loop.report_fd = -1;
    base64(PROXY_USER ":" SECRET, auth);
    front = (struct listener){.fd = pfd, .front = &http_front_end};
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, control) != 0)
        return -1;
    return pthread_create(&loop_thread, NULL, loop_main, NULL) == 0 ? 0 : -1;
}

static int suite_clean(void)
{
    char bye = 'Q';
    if (write(control[0], &bye, 1) != 1)
        return -1;
    return pthread_join(loop_thread, NULL) == 0 ? 0 : -1;
}

/* ---- tests ---------------------------------------------------------------- */

struct sender {
    int fd;
    uint64_t hash;
    size_t sent;
};

static void *send_big(void *arg)
{
    struct sender *s = arg;
    static unsigned char buf[1 << 16];
    uint64_t state = 0x9e3779b97f4a7c15ULL;
    s->hash = 0xcbf29ce484222325ULL;
    while (s->sent < BIG) {
        fill_random(&state, buf, sizeof buf);
        s->hash = fnv(s->hash, buf, sizeof buf);
        if (write_all(s->fd, buf, sizeof buf) != 0)
            break;
        s->sent += sizeof buf;
    }
    shutdown(s->fd, SHUT_WR);
    return NULL;
}

/* 64 MiB up and the same 64 MiB back down at once: back-pressure both ways,
 * and the client's end of stream travels to the origin and back. */
static void test_large_transfer(void)
{
    struct sender s = {.fd = tunnel('E')};
    CU_ASSERT_FATAL(s.fd >= 0);
    pthread_t t;
    CU_ASSERT_FATAL(pthread_create(&t, NULL, send_big, &s) == 0);
    static unsigned char buf[1 << 16];
    uint64_t h = 0xcbf29ce484222325ULL;
    size_t got = 0;
    ssize_t r;
    while ((r = recv(s.fd, buf, sizeof buf, 0)) > 0) {
        h = fnv(h, buf, (size_t)r);
        got += (size_t)r;
    }
    pthread_join(t, NULL);
    CU_ASSERT_EQUAL(r, 0); /* a clean end of stream, not an error */
    CU_ASSERT_EQUAL(s.sent, BIG);
    CU_ASSERT_EQUAL(got, BIG);
    CU_ASSERT_EQUAL(h, s.hash);
    close(s.fd);
}

static void test_half_close(void)
{
    int fd = tunnel('D');
    CU_ASSERT_FATAL(fd >= 0);
    static const char msg[] = "sent before the half-close, answered after it";
    CU_ASSERT_EQUAL(write_all(fd, msg, sizeof msg - 1), 0);
    shutdown(fd, SHUT_WR);
    char buf[256];
    ssize_t n = read_all(fd, buf, sizeof buf);
    CU_ASSERT_EQUAL(n, (ssize_t)sizeof msg - 1);
    CU_ASSERT(n > 0 && memcmp(buf, msg, (size_t)n) == 0);
    close(fd);
}

/* The origin resets: the client must see an error, never an end of stream
 * that could pass for a complete transfer. */
static void test_reset_passed_on(void)
{
    int fd = tunnel('X');
    CU_ASSERT_FATAL(fd >= 0);
    char buf[64];
    ssize_t r;
    do
        r = recv(fd, buf, sizeof buf, 0);
    while (r > 0);
    CU_ASSERT(r < 0);
    CU_ASSERT(r < 0 && errno == ECONNRESET);
    close(fd);
}

/* A good client's echo of n bytes; 0 when it came back intact. */
static int echo_ok(size_t n)
{
    int fd = tunnel('E');
    if (fd < 0)
        return -1;
    char *out = malloc(n), *in = malloc(n);
    uint64_t st = n;
    fill_random(&st, (unsigned char *)out, n);
    int ok = -1;
    /* small enough for the socket buffers on the way: write, then read */
    if (write_all(fd, out, n) == 0) {
        shutdown(fd, SHUT_WR);
        ok = read_all(fd, in, n) == (ssize_t)n && memcmp(in, out, n) == 0 ? 0 : -1;
    }
    free(out);
    free(in);
    close(fd);
    return ok;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A client that never reads while the origin floods: its own transfer
 * parks (back-pressure), the loop does not spin on it, others go on. */
static void test_stalled_reader(void)
{
    int stalled = tunnel('F');
    CU_ASSERT_FATAL(stalled >= 0);
    usleep(500 * 1000); /* every buffer on the way fills */
    int64_t a = loop_cpu_us();
    usleep(1000 * 1000);
    int64_t b = loop_cpu_us();
    CU_ASSERT(a >= 0 && b - a <= 50000);
    if (b - a > 50000)
        fprintf(stderr, "loop CPU while a reader stalls: %lld us in 1 s\n", (long long)(b - a));
    int64_t t0 = now_ms();
    CU_ASSERT_EQUAL(echo_ok(128 * 1024), 0);
    CU_ASSERT(now_ms() - t0 < 2000);
    rst_close(stalled);
}

static void send_raw_expect(const char *req, size_t len, const char *status)
{
    int fd = connect_to(proxy_port);
    CU_ASSERT_FATAL(fd >= 0);
    write_all(fd, req, len);
    char head[1024];
    read_head(fd, head, sizeof head);
    CU_ASSERT(strncmp(head, status, strlen(status)) == 0);
    if (strncmp(head, status, strlen(status)) != 0)
        fprintf(stderr, "expected %s, got '%.40s'\n", status, head);
    close(fd);
}

static void test_hostile_clients(void)
{
    static const char garbage[] = "\x16\x03\x01\x02\x00 not a request\r\n\r\n";
    send_raw_expect(garbage, sizeof garbage - 1, "HTTP/1.1 400");
    char big[9000];
    int n = snprintf(big, sizeof big, "CONNECT 127.0.0.1:1 HTTP/1.1\r\nX: ");
    memset(big + n, 'a', sizeof big - (size_t)n);
    send_raw_expect(big, sizeof big, "HTTP/1.1 431");
    static const char nocreds[] = "CONNECT 127.0.0.1:1 HTTP/1.1\r\n\r\n";
    send_raw_expect(nocreds, sizeof nocreds - 1, "HTTP/1.1 407");
    /* half a request, then a reset; connects that end at once; a reset in
     * the middle of a flood */
    for (int i = 0; i < 50; i++) {
        int fd = connect_to(proxy_port);
        CU_ASSERT_FATAL(fd >= 0);
        if (i % 2)
            write_all(fd, "CONNECT 127.0.0.1:", 18);
        if (i % 3)
            rst_close(fd);
        else
            close(fd);
    }
    int fd = tunnel('F');
    CU_ASSERT_FATAL(fd >= 0);
    char buf[4096];
    CU_ASSERT(recv(fd, buf, sizeof buf, 0) > 0);
    rst_close(fd);
    /* the loop is unharmed */
    CU_ASSERT_EQUAL(echo_ok(256 * 1024), 0);
}

/* Many tunnels open at once, each carrying its own bytes. */
static void test_many_tunnels(void)
{
    enum { N = 200, LEN = 8192 };
    static int fds[N];
    static char out[N][LEN], in[LEN];
    int good = 0;
    for (int i = 0; i < N; i++) {
        fds[i] = tunnel('E');
        CU_ASSERT_FATAL(fds[i] >= 0);
        uint64_t st = (uint64_t)i + 1;
        fill_random(&st, (unsigned char *)out[i], LEN);
        CU_ASSERT(write_all(fds[i], out[i], LEN) == 0);
        shutdown(fds[i], SHUT_WR);
    }
    for (int i = 0; i < N; i++) {
        if (read_all(fds[i], in, LEN) == LEN && memcmp(in, out[i], LEN) == 0)
            good++;
        close(fds[i]);
    }
    CU_ASSERT_EQUAL(good, N);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite(
#ifdef EGRESS_PORTABLE
        "egress loop and relay: poll + recv/send copy (macOS's)",
#else
        "egress loop and relay: epoll + splice (Linux)",
#endif
        suite_init, suite_clean);
    CU_add_test(s, "64 MiB both ways at once, by hash", test_large_transfer);
    CU_add_test(s, "half-close: the way back stays open", test_half_close);
    CU_add_test(s, "an upstream reset reaches the client as an error", test_reset_passed_on);
    CU_add_test(s, "a stalled reader: no spinning, others served", test_stalled_reader);
    CU_add_test(s, "hostile clients refused or dropped, loop unharmed", test_hostile_clients);
    CU_add_test(s, "200 tunnels at once", test_many_tunnels);
    return cunit_run_registry();
}
