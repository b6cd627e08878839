/*
 * main.c — happy-agent-supervisor: parse the command line, protect the
 * supervisor, read and validate the policy, load the backends, launch.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backend.h"
#include "backend_set.h"
#include "cli.h"
#include "diag.h"
#include "explain.h"
#include "launch.h"
#include "policy.h"
#include "policy_read.h"
#include "proxy_connect.h"
#include "self_protect.h"

static char *read_policy_text(const struct cli_options *opts, size_t *len)
{
    char err[SANDBOX_ERROR_MAX];
    char *text = NULL;
    switch (opts->transport) {
    case CLI_POLICY_FD: text = policy_read_fd(opts->policy_fd, len, err, sizeof err); break;
    case CLI_POLICY_FILE: text = policy_read_file(opts->policy_arg, len, err, sizeof err); break;
    default:
        *len = strlen(opts->policy_arg);
        if (*len > POLICY_MAX_BYTES)
            diag_fatal("--policy: the policy is larger than the limit of %u bytes (1 MiB)", POLICY_MAX_BYTES);
        if (!(text = strdup(opts->policy_arg)))
            diag_fatal("out of memory");
        return text;
    }
    if (!text)
        diag_fatal("%s", err);
    return text;
}

static struct policy *load_policy(const struct cli_options *opts)
{
    size_t len = 0;
    char *text = read_policy_text(opts, &len);
    struct policy_errors errors;
    struct policy *policy = policy_parse(text, len, &errors);
    sandbox_wipe(text, len); /* it may hold an upstream proxy's password */
    free(text);
    if (!policy) {
        char *joined = policy_errors_join(&errors);
        diag_fatal("invalid policy: %s", joined ? joined : "out of memory");
    }
    /* Nor is such a password left in argv: /proc/PID/cmdline is readable by
     * every process that sees PID, linux-ns's init (a fork of this process,
     * the workload's pid 1) included. */
    const char *url = policy->network.upstream_url;
    if (opts->transport == CLI_POLICY_ARG && url && strchr(url, '@'))
        memset((char *)opts->policy_arg, 0, strlen(opts->policy_arg));
    return policy;
}

/*
 * If the caller started us with 0, 1 or 2 closed, the next descriptor we
 * open (a policy file, a backend's socketpair to the egress process) would
 * take that number and reach the workload as its stdin or stdout.  Fill any
 * gap with /dev/null first, as OpenSSH's sanitise_stdfd() does.
 */
static void standard_descriptors_ensure(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
            continue;
        int null = open("/dev/null", O_RDWR);
        if (null < 0)
            diag_fatal("descriptor %d is closed and /dev/null cannot be opened: %s", fd, strerror(errno));
        if (null != fd)
            diag_fatal("descriptor %d is closed and could not be filled with /dev/null", fd);
    }
}

/*
 * --refusal-report N: the descriptor must be open for writing, and it is
 * made close-on-exec so the workload never inherits it (backends that fork
 * helpers without exec keep it; see report_fd in backend.h), and
 * non-blocking without touching the caller's description where it can.
 */
static void report_descriptor_claim(int fd)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0)
        diag_fatal("--refusal-report: descriptor %d is not open: %s", fd, strerror(errno));
    if ((flags & O_ACCMODE) == O_RDONLY)
        diag_fatal("--refusal-report: descriptor %d is open for reading only; pass the write end", fd);
    if (fcntl(fd, F_SETFD, FD_CLOEXEC) != 0)
        diag_fatal("--refusal-report: cannot make descriptor %d close-on-exec: %s", fd, strerror(errno));
    /* Once, here, so that every process that writes to it inherits it so. */
    report_descriptor_nonblocking(fd);
}

/* A read denial of a name that is not there hides nothing: most often a
 * typo (".evn") while the real file stays readable.  Said, not refused: a
 * file the policy means to hide may be made later (each backend's README
 * says what a launch does with one made during the run). */
static void warn_missing_read_denials(const struct policy *policy)
{
    const struct string_list *denied = &policy->denied_read_paths;
    char names[600] = "";
    size_t missing = 0, named = 0, at = 0;
    struct stat st;
    for (size_t i = 0; i < denied->count; i++) {
        if (lstat(denied->items[i], &st) == 0 || (errno != ENOENT && errno != ENOTDIR))
            continue;
        int n = snprintf(names + at, sizeof names - at, "%s\"%s\"", missing ? ", " : "", denied->items[i]);
        missing++;
        if (n > 0 && (size_t)n < sizeof names - at) {
            at += (size_t)n;
            named++;
        } else {
            names[at] = '\0'; /* one line, whatever the list: the rest counted */
        }
    }
    if (missing == named && missing)
        diag("warning: deniedReadPaths %s: not there, so nothing is hidden there now (check the names)",
             names);
    else if (missing)
        diag("warning: deniedReadPaths %s and %zu more: not there, so nothing is hidden there now (check the "
             "names)",
             names, missing - named);
}

/* --help with the sandbox backends this build (or --backend-dir) has. */
static void print_help(const struct cli_options *opts)
{
    static char sandboxes[2048];
    char err[SANDBOX_ERROR_MAX];
    struct backend_set set = {0};
    if (backends_load(&set, opts, err, sizeof err) != 0)
        snprintf(sandboxes, sizeof sandboxes, "                         (cannot list them: %s)\n", err);
    else
        backend_set_describe(&set, "                         ", sandboxes, sizeof sandboxes);
    cli_print_help(sandboxes);
}

int main(int argc, char **argv)
{
    struct cli_options opts;
    char err[SANDBOX_ERROR_MAX];
    standard_descriptors_ensure();
    if (cli_parse(argc, argv, &opts, err, sizeof err) != 0)
        diag_fatal("%s", err);
    if (opts.action == CLI_HELP) {
        print_help(&opts);
        return 0;
    }
    if (opts.action == CLI_VERSION) {
        puts(HAS_PROGRAM_NAME " " PACKAGE_VERSION);
        return 0;
    }
    if (opts.action == CLI_CONNECT)
        return proxy_connect_main(opts.connect_host, opts.connect_port);
    /* The workspace by descriptor, before the policy is read: nothing the
     * supervisor does from here on is done on a name it did not check. */
    launch_hold_working_directory();
    if (opts.report_fd >= 0)
        report_descriptor_claim(opts.report_fd);
    size_t env_count = 0;
    char **env = environment_capture(&env_count);
    if (!env)
        diag_fatal("out of memory capturing the environment");
    if (self_protect(err, sizeof err) != 0)
        diag_fatal("%s", err);
    struct policy *policy = load_policy(&opts);
    warn_missing_read_denials(policy);
    struct backend_set backends = {0};
    if (backends_load(&backends, &opts, err, sizeof err) != 0 ||
        backend_set_select(&backends, opts.sandbox_name, err, sizeof err) != 0)
        diag_fatal("%s", err);
    if (opts.action == CLI_EXPLAIN)
        return explain_main(policy, &backends, &opts, env, env_count);
    launch(policy, &backends, opts.target_argv, env, env_count, opts.report_fd);
}
