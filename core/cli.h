/*
 * cli.h — the command line of README.md, "Command line".
 *
 *   happy-agent-supervisor [--sandbox NAME] [--refusal-report N]
 *                          (--policy JSON | --policy-fd N | --policy-file PATH) -- TARGET [ARG...]
 *   happy-agent-supervisor --explain[=text|json|brief] [--sandbox NAME] (policy)
 *                          [--read PATH] [--write PATH] [--connect-to HOST:PORT] [--unix-socket PATH]...
 *   happy-agent-supervisor --connect HOST PORT
 *   happy-agent-supervisor --help | --version
 *
 * Developer builds (--enable-dynamic-backends) also accept --backend-dir DIR
 * and --backend-module FILE; release builds refuse them as unknown options.
 */
#ifndef HAS_CLI_H
#define HAS_CLI_H

#include <stddef.h>

#include "backend.h"

enum cli_transport {
    CLI_POLICY_NONE,
    CLI_POLICY_ARG,  /* --policy JSON */
    CLI_POLICY_FD,   /* --policy-fd N */
    CLI_POLICY_FILE, /* --policy-file PATH */
};

enum cli_action {
    CLI_RUN,
    CLI_HELP,
    CLI_VERSION,
    CLI_CONNECT, /* --connect HOST PORT: the proxy client (proxy_connect.h) */
    CLI_EXPLAIN, /* --explain: runs nothing (explain.h) */
};

enum cli_explain_format { CLI_EXPLAIN_TEXT, CLI_EXPLAIN_JSON, CLI_EXPLAIN_BRIEF };

/* The most operations one --explain asks about. */
#define CLI_MAX_QUERIES 64

struct cli_query {
    enum sandbox_query_kind kind;
    const char *arg;
};

#define CLI_MAX_BACKEND_MODULES 8

struct cli_options {
    enum cli_action action;
    enum cli_transport transport;
    const char *policy_arg; /* JSON text or file path, per transport */
    int policy_fd;
    char *const *target_argv; /* NULL-terminated, first element non-empty */
    const char *backend_dir;  /* developer builds only */
    const char *backend_modules[CLI_MAX_BACKEND_MODULES];
    size_t backend_module_count;
    int report_fd;            /* --refusal-report N, else -1 */
    const char *sandbox_name; /* --sandbox NAME, else NULL */
    const char *connect_host; /* --connect */
    const char *connect_port;
    enum cli_explain_format explain_format;
    struct cli_query queries[CLI_MAX_QUERIES]; /* --read, --write, ... */
    size_t query_count;
};

/*
 * Parse argv.  Returns 0, or -1 with a one-line reason (including the fix)
 * in `err`.
 */
int cli_parse(int argc, char **argv, struct cli_options *out, char *err, size_t errlen);

/* `sandboxes`: the build's sandbox backends, one indented line each
 * (backend_set_describe()). */
void cli_print_help(const char *sandboxes);

#endif
