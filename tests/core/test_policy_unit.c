/*
 * test_policy_unit.c — what the corpus cannot show: the values a valid
 * document parses into, the bounded reader, the error-list cap, and the
 * host-entry rule table shared with the egress backend.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json_text.h"
#include "policy.h"
#include "policy_read.h"
#include "port_parse.h"
#include "../cunit_run.h"

static struct policy *parse_ok(const char *text)
{
    struct policy_errors e;
    struct policy *p = policy_parse(text, strlen(text), &e);
    if (!p) {
        char *j = policy_errors_join(&e);
        printf("\n  unexpected refusal: %s\n", j);
        free(j);
    }
    policy_errors_free(&e);
    return p;
}

static void test_fields_parsed(void)
{
    struct policy *p = parse_ok(
        "{\"mode\":\"auto\",\"deniedReadPaths\":[\"/a/\",\"/b\"],\"allowedWritePaths\":[\"/w\"],"
        "\"network\":{\"egress\":true,\"localBinding\":false,\"allowedHosts\":[\"x.org\",\"*.y.org\"],"
        "\"outgoingProxy\":{\"frontEnds\":[\"socks5\",\"http\"]}}}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->mode, POLICY_MODE_AUTO);
    CU_ASSERT_EQUAL(p->denied_read_paths.count, 2);
    CU_ASSERT_STRING_EQUAL(p->denied_read_paths.items[0], "/a"); /* trailing slash removed */
    CU_ASSERT_STRING_EQUAL(p->denied_read_paths.items[1], "/b");
    CU_ASSERT_EQUAL(p->allowed_write_paths.count, 1);
    CU_ASSERT_EQUAL(p->allowed_read_paths.count, 0);
    CU_ASSERT_TRUE(p->network.egress);
    CU_ASSERT_FALSE(p->network.local_binding);
    CU_ASSERT_EQUAL(p->network.allowed_hosts.count, 2);
    CU_ASSERT_STRING_EQUAL(p->network.allowed_hosts.items[1], "*.y.org");
    CU_ASSERT_TRUE(p->network.has_outgoing_proxy);
    CU_ASSERT_EQUAL(p->network.front_ends, POLICY_FRONT_END_HTTP | POLICY_FRONT_END_SOCKS5);
    CU_ASSERT_TRUE(policy_mode_writes_cwd(p->mode));
    policy_free(p);
}

static void test_root_path_kept(void)
{
    struct policy *p = parse_ok("{\"mode\":\"read_only\",\"allowedWritePaths\":[\"/\"],"
                                "\"network\":{\"egress\":false,\"localBinding\":false}}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_STRING_EQUAL(p->allowed_write_paths.items[0], "/");
    CU_ASSERT_FALSE(policy_mode_writes_cwd(p->mode));
    policy_free(p);
}

/* 10,000 bad entries: a bounded list with a count of what was left out. */
/* scratch: absent means none; {} the default size; sizeBytes as given. */
static void test_scratch(void)
{
    static const char *const docs[] = {
        "{\"mode\":\"read_only\",\"network\":{\"egress\":false,\"localBinding\":false}}",
        "{\"mode\":\"read_only\",\"network\":{\"egress\":false,\"localBinding\":false},\"scratch\":{}}",
        ("{\"mode\":\"read_only\",\"network\":{\"egress\":false,\"localBinding\":false},"
         "\"scratch\":{\"sizeBytes\":3145728}}"),
    };
    static const unsigned long long sizes[] = {0, POLICY_SCRATCH_DEFAULT_BYTES, 3145728};
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        struct policy *p = parse_ok(docs[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        CU_ASSERT_EQUAL(p->scratch.requested, i > 0);
        CU_ASSERT_EQUAL(p->scratch.size_bytes, sizes[i]);
        policy_free(p);
    }
}

static void test_error_cap(void)
{
    size_t n = 10000;
    char *doc = malloc(n * 6 + 200);
    char *w = doc + sprintf(doc, "{\"mode\":\"read_only\",\"deniedReadPaths\":[");
    for (size_t i = 0; i < n; i++)
        w += sprintf(w, "%s\"rel\"", i ? "," : "");
    sprintf(w, "],\"network\":{\"egress\":false,\"localBinding\":false}}");
    struct policy_errors e;
    CU_ASSERT_PTR_NULL(policy_parse(doc, strlen(doc), &e));
    CU_ASSERT(e.count > 1 && e.count <= 33);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.items[e.count - 1], "more problems"));
    char *joined = policy_errors_join(&e);
    CU_ASSERT(strlen(joined) < 4096);
    free(joined);
    policy_errors_free(&e);
    free(doc);
}

static void test_host_entries(void)
{
    static const char *const good[] = {"example.com",
                                       "*.example.com",
                                       "127.0.0.1",
                                       "::1",
                                       "EXAMPLE.COM.",
                                       "xn--bcher-kva.example",
                                       "a",
                                       "example.com:443",
                                       "*.example.com:443",
                                       "[2001:db8::1]:22",
                                       "127.0.0.1:8080",
                                       "[::1]",
                                       "2001:db8::1",
                                       "a:1",
                                       "a:65535"};
    static const char *const bad[] = {"",      "*",      "*.",      "a*.com",    "*a.com",       "a.*",
                                      "*.*.a", "a b",    "a/b",     "a@b",       "a\tb",         "a\x7f",
                                      "a:",    "a:0",    "a:65536", "a:080",     "a:+80",        "a:8o",
                                      ":443",  "*.:443", "[::1",    "[::1]x",    "[::1]:",       "[]:22",
                                      "a]",    "a[b]",   "[[::1]]", "[::1]:22]", "a:99999999999"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        CU_ASSERT_PTR_NULL(policy_host_entry_problem(good[i]));
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CU_ASSERT_PTR_NOT_NULL(policy_host_entry_problem(bad[i]));
    char long_host[300];
    memset(long_host, 'a', sizeof long_host);
    long_host[253] = '\0';
    CU_ASSERT_PTR_NULL(policy_host_entry_problem(long_host));
    long_host[253] = 'a';
    long_host[254] = '\0';
    CU_ASSERT_PTR_NOT_NULL(policy_host_entry_problem(long_host));
    /* The limit is on the host: a 253-byte name still takes a port. */
    memcpy(long_host + 253, ":443", 5);
    CU_ASSERT_PTR_NULL(policy_host_entry_problem(long_host));

    size_t host_len;
    unsigned port;
    CU_ASSERT_PTR_NULL(policy_host_entry_split("[2001:db8::1]:22", &host_len, &port));
    CU_ASSERT_EQUAL(host_len, 13);
    CU_ASSERT_EQUAL(port, 22);
    CU_ASSERT_PTR_NULL(policy_host_entry_split("2001:db8::1", &host_len, &port));
    CU_ASSERT_EQUAL(host_len, 11);
    CU_ASSERT_EQUAL(port, 0);
    CU_ASSERT_PTR_NULL(policy_host_entry_split("*.example.com:8443", &host_len, &port));
    CU_ASSERT_EQUAL(host_len, 13);
    CU_ASSERT_EQUAL(port, 8443);
}

static void test_nul_escape_not_truncated(void)
{
    /* Without the rewrite cJSON would hand back "/etc" and the policy would
     * silently mean less than it says. */
    char text[] = "{\"a\":\"/etc\\u0000/x\",\"b\":\"\\\\u0000\"}";
    size_t off;
    CU_ASSERT_PTR_NULL(json_text_check(text, strlen(text), &off));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "/etc\\u0001/x"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"\\\\u0000\"")); /* an escaped backslash is left alone */
}

static int pipe_with(const char *data, size_t len)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        while (len) {
            ssize_t w = write(fds[1], data, len);
            if (w <= 0)
                _exit(0);
            data += w;
            len -= (size_t)w;
        }
        _exit(0);
    }
    close(fds[1]);
    return fds[0];
}

static void test_read_fd_limits(void)
{
    char err[256];
    size_t len;
    char *exact = malloc(POLICY_MAX_BYTES + 1);
    memset(exact, ' ', POLICY_MAX_BYTES + 1);
    int fd = pipe_with(exact, POLICY_MAX_BYTES);
    char *text = policy_read_fd(fd, &len, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL(text);
    CU_ASSERT_EQUAL(len, POLICY_MAX_BYTES);
    free(text);
    CU_ASSERT_EQUAL(fcntl(fd, F_GETFD), -1); /* consumed and closed */
    fd = pipe_with(exact, POLICY_MAX_BYTES + 1);
    CU_ASSERT_PTR_NULL(policy_read_fd(fd, &len, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "1 MiB"));
    CU_ASSERT_EQUAL(fcntl(fd, F_GETFD), -1);
    while (waitpid(-1, NULL, 0) > 0)
        ;
    free(exact);
    CU_ASSERT_PTR_NULL(policy_read_fd(987, &len, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "not open"));
}

static void test_read_endless_sources(void)
{
    char err[256];
    size_t len;
    /* /dev/zero never ends: the reader must stop just past the limit. */
    CU_ASSERT_PTR_NULL(policy_read_file("/dev/zero", &len, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "1 MiB"));
    CU_ASSERT_PTR_NULL(policy_read_file("/", &len, err, sizeof err));
    CU_ASSERT_PTR_NULL(policy_read_file("/nonexistent/policy.json", &len, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "/nonexistent/policy.json"));
}

/* The one port syntax of the policy, its upstream URL and --connect. */
static void test_port_syntax(void)
{
    unsigned port = 7;
    CU_ASSERT_TRUE(port_parse("1", 1, &port) && port == 1);
    CU_ASSERT_TRUE(port_parse("65535", 5, &port) && port == 65535);
    CU_ASSERT_TRUE(port_parse("4431", 3, &port) && port == 443); /* n bytes, not to the NUL */
    static const char *const refused[] = {"", "0", "0443", "65536", "99999", "123456", "+443", "44a", " 443"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        port = 7;
        CU_ASSERT_FALSE(port_parse(refused[i], strlen(refused[i]), &port));
        CU_ASSERT_EQUAL(port, 7);
    }
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("policy unit", NULL, NULL);
    CU_add_test(s, "fields parse into the struct", test_fields_parsed);
    CU_add_test(s, "the root path is kept", test_root_path_kept);
    CU_add_test(s, "scratch and its size", test_scratch);
    CU_add_test(s, "error list is capped", test_error_cap);
    CU_add_test(s, "host entry rules", test_host_entries);
    CU_add_test(s, "port syntax", test_port_syntax);
    CU_add_test(s, "\\u0000 does not truncate a string", test_nul_escape_not_truncated);
    CU_add_test(s, "descriptor reads are bounded and close", test_read_fd_limits);
    CU_add_test(s, "endless and odd files are refused", test_read_endless_sources);
    return cunit_run_registry();
}
