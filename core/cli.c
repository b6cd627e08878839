#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diag.h"

/* Writes the one-line reason into err and returns -1, for "return fail(...)". */
static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* A descriptor number: plain decimal digits only (no sign, no spaces, no
 * "0x"), so "--policy-fd ' 3'" or "-1" cannot mean something surprising. */
static int parse_fd(const char *text, int *fd)
{
    if (*text == '\0' || strlen(text) > 9)
        return -1;
    for (const char *p = text; *p; p++)
        if (*p < '0' || *p > '9')
            return -1;
    *fd = atoi(text);
    return 0;
}

/* "--connect HOST PORT", alone on the command line. */
static int parse_connect(int argc, char **argv, struct cli_options *out, char *err, size_t errlen)
{
    if (argc != 4)
        return fail(err, errlen,
                    "--connect takes exactly HOST PORT and nothing else "
                    "(as an ssh ProxyCommand: --connect %%h %%p)");
    out->connect_host = argv[2];
    out->connect_port = argv[3];
    out->action = CLI_CONNECT;
    return 0;
}

/* What an option's handler returns besides -1 (failure, reason in err). */
enum { OPTION_NEXT = 0, OPTION_STOP = 1 };

enum option_value {
    VALUE_NONE,     /* the exact word only */
    VALUE_REQUIRED, /* "--name VALUE" (not "--") or "--name=VALUE" */
    VALUE_OPTIONAL, /* "--name" or "--name=VALUE" */
};

struct option_spec;
typedef int option_handler(struct cli_options *out, const struct option_spec *opt, const char *value,
                           char *err, size_t errlen);

struct option_spec {
    const char *name;
    enum option_value takes;
    option_handler *handle;        /* value: NULL unless given */
    const char *missing;           /* VALUE_REQUIRED: the error after the name */
    enum cli_action action;        /* for take_action */
    enum cli_transport transport;  /* for take_policy */
    enum sandbox_query_kind query; /* for take_query */
};

static int take_action(struct cli_options *out, const struct option_spec *opt, const char *value, char *err,
                       size_t errlen)
{
    (void)value;
    (void)err;
    (void)errlen;
    out->action = opt->action;
    return OPTION_STOP;
}

static int take_sandbox(struct cli_options *out, const struct option_spec *opt, const char *value, char *err,
                        size_t errlen)
{
    if (!*value || *value == '-')
        return fail(err, errlen, "%s %s", opt->name, opt->missing);
    if (out->sandbox_name)
        return fail(err, errlen, "--sandbox %s, then %s: one sandbox backend at a time", out->sandbox_name,
                    value);
    out->sandbox_name = value;
    return OPTION_NEXT;
}

static int take_report_fd(struct cli_options *out, const struct option_spec *opt, const char *value,
                          char *err, size_t errlen)
{
    (void)opt;
    if (out->report_fd >= 0)
        return fail(err, errlen, "--refusal-report given twice");
    if (parse_fd(value, &out->report_fd) != 0)
        return fail(err, errlen, "--refusal-report: '%s' is not a descriptor number", value);
    if (out->report_fd <= 2)
        return fail(err, errlen,
                    "--refusal-report: descriptor %d is stdin, stdout or stderr; "
                    "pass a descriptor 3 or above",
                    out->report_fd);
    return OPTION_NEXT;
}

static int take_late_connect(struct cli_options *out, const struct option_spec *opt, const char *value,
                             char *err, size_t errlen)
{
    (void)out;
    (void)opt;
    (void)value;
    return fail(err, errlen, "--connect comes first and alone: " HAS_PROGRAM_NAME " --connect HOST PORT");
}

static int take_policy(struct cli_options *out, const struct option_spec *opt, const char *value, char *err,
                       size_t errlen)
{
    if (out->transport != CLI_POLICY_NONE)
        return fail(err, errlen, "give exactly one of --policy, --policy-fd and --policy-file");
    out->transport = opt->transport;
    if (opt->transport == CLI_POLICY_FD) {
        if (parse_fd(value, &out->policy_fd) != 0)
            return fail(err, errlen, "--policy-fd: '%s' is not a descriptor number", value);
        if (out->policy_fd <= 2)
            return fail(err, errlen,
                        "--policy-fd: descriptor %d is stdin, stdout or stderr; "
                        "pass the policy on descriptor 3 or above",
                        out->policy_fd);
        return OPTION_NEXT;
    }
    if (opt->transport == CLI_POLICY_FILE && *value == '\0')
        return fail(err, errlen, "--policy-file: the path is empty");
    out->policy_arg = value;
    return OPTION_NEXT;
}

/* --explain[=FORMAT]. */
static int take_explain(struct cli_options *out, const struct option_spec *opt, const char *value, char *err,
                        size_t errlen)
{
    static const struct {
        const char *name;
        enum cli_explain_format format;
    } formats[] = {
        {"text", CLI_EXPLAIN_TEXT},
        {"json", CLI_EXPLAIN_JSON},
        {"brief", CLI_EXPLAIN_BRIEF},
    };
    (void)opt;
    if (out->action == CLI_EXPLAIN)
        return fail(err, errlen, "--explain given twice");
    for (size_t k = 0; k < sizeof formats / sizeof formats[0]; k++) {
        if (strcmp(value ? value : "text", formats[k].name) == 0) {
            out->explain_format = formats[k].format;
            out->action = CLI_EXPLAIN;
            return OPTION_NEXT;
        }
    }
    return fail(err, errlen, "--explain: the format is text, json or brief");
}

/* --read, --write, --connect-to, --unix-socket: questions for --explain. */
static int take_query(struct cli_options *out, const struct option_spec *opt, const char *value, char *err,
                      size_t errlen)
{
    if (out->query_count == CLI_MAX_QUERIES)
        return fail(err, errlen,
                    "at most %d operations (--read, --write, --connect-to, --unix-socket) "
                    "at a time",
                    CLI_MAX_QUERIES);
    out->queries[out->query_count++] = (struct cli_query){opt->query, value};
    return OPTION_NEXT;
}

#ifdef HAS_DYNAMIC_BACKENDS
static int take_backend_dir(struct cli_options *out, const struct option_spec *opt, const char *value,
                            char *err, size_t errlen)
{
    (void)opt;
    (void)err;
    (void)errlen;
    out->backend_dir = value;
    return OPTION_NEXT;
}

static int take_backend_module(struct cli_options *out, const struct option_spec *opt, const char *value,
                               char *err, size_t errlen)
{
    (void)opt;
    if (out->backend_module_count == CLI_MAX_BACKEND_MODULES)
        return fail(err, errlen, "--backend-module: at most %d modules", CLI_MAX_BACKEND_MODULES);
    out->backend_modules[out->backend_module_count++] = value;
    return OPTION_NEXT;
}
#endif

/* Every option; "--" ends them. */
static const struct option_spec options[] = {
    {"--help", VALUE_NONE, take_action, .action = CLI_HELP},
    {"-h", VALUE_NONE, take_action, .action = CLI_HELP},
    {"--version", VALUE_NONE, take_action, .action = CLI_VERSION},
    {"--sandbox", VALUE_REQUIRED, take_sandbox,
     .missing = "needs a backend name (--help lists this build's)"},
    {"--refusal-report", VALUE_REQUIRED, take_report_fd, .missing = "needs a descriptor number"},
    {"--connect", VALUE_NONE, take_late_connect, .missing = NULL}, /* first, cli_parse takes it */
    {"--policy-fd", VALUE_REQUIRED, take_policy, .missing = "needs a value", .transport = CLI_POLICY_FD},
    {"--policy-file", VALUE_REQUIRED, take_policy, .missing = "needs a value", .transport = CLI_POLICY_FILE},
    {"--policy", VALUE_REQUIRED, take_policy, .missing = "needs a value", .transport = CLI_POLICY_ARG},
    {"--explain", VALUE_OPTIONAL, take_explain, .missing = NULL},
    {"--read", VALUE_REQUIRED, take_query, .missing = "needs a value", .query = SANDBOX_QUERY_READ},
    {"--write", VALUE_REQUIRED, take_query, .missing = "needs a value", .query = SANDBOX_QUERY_WRITE},
    {"--connect-to", VALUE_REQUIRED, take_query, .missing = "needs a value", .query = SANDBOX_QUERY_CONNECT},
    {"--unix-socket", VALUE_REQUIRED, take_query, .missing = "needs a value", .query = SANDBOX_QUERY_UNIX},
#ifdef HAS_DYNAMIC_BACKENDS
    {"--backend-dir", VALUE_REQUIRED, take_backend_dir, .missing = "needs a directory"},
    {"--backend-module", VALUE_REQUIRED, take_backend_module, .missing = "needs a module file"},
#endif
};

/* The option that `arg` spells: its exact name, or "NAME=VALUE" if it takes a value. */
static const struct option_spec *find_option(const char *arg)
{
    for (size_t k = 0; k < sizeof options / sizeof options[0]; k++) {
        size_t n = strlen(options[k].name);
        if (strncmp(arg, options[k].name, n) != 0)
            continue;
        if (arg[n] == '\0' || (arg[n] == '=' && options[k].takes != VALUE_NONE))
            return &options[k];
    }
    return NULL;
}

/* Reads argv[*i], and the next argument too if it is the option's value. */
static int parse_option(int argc, char **argv, int *i, struct cli_options *out, char *err, size_t errlen)
{
    const char *arg = argv[*i];
    const struct option_spec *opt = find_option(arg);
    if (!opt && arg[0] == '-')
        return fail(err, errlen, "unknown option '%s' (see --help)", arg);
    if (!opt)
        return fail(err, errlen, "unexpected argument '%s': the command goes after '--'", arg);
    size_t n = strlen(opt->name);
    const char *value = arg[n] == '=' ? arg + n + 1 : NULL;
    if (!value && opt->takes == VALUE_REQUIRED) {
        if (*i + 1 >= argc || strcmp(argv[*i + 1], "--") == 0)
            return fail(err, errlen, "%s %s", opt->name, opt->missing);
        value = argv[++*i];
    }
    return opt->handle(out, opt, value, err, errlen);
}

/* What --explain changes in the checks of the whole command line. */
static int check_explain(const struct cli_options *out, int i, int argc, char *err, size_t errlen)
{
    if (out->action != CLI_EXPLAIN) {
        if (out->query_count)
            return fail(err, errlen,
                        "--read, --write, --connect-to and --unix-socket are questions for --explain");
        return 0;
    }
    if (out->report_fd >= 0)
        return fail(err, errlen, "--explain runs nothing: --refusal-report has nothing to report");
    if (i < argc)
        return fail(err, errlen, "--explain runs nothing: drop '--' and the command");
    return 0;
}

/* The checks of the whole command line; argv[i] is "--", or i is argc. */
static int check_command_line(int argc, char **argv, int i, struct cli_options *out, char *err, size_t errlen)
{
    if (out->transport == CLI_POLICY_NONE)
        return fail(err, errlen, "no policy: give one of --policy JSON, --policy-fd N or --policy-file PATH");
    if (out->report_fd >= 0 && out->report_fd == out->policy_fd)
        return fail(err, errlen, "--refusal-report and --policy-fd name the same descriptor %d",
                    out->report_fd);
    if (check_explain(out, i, argc, err, errlen) != 0)
        return -1;
    if (out->action == CLI_EXPLAIN)
        return 0;
    if (i + 1 >= argc || argv[i + 1][0] == '\0')
        return fail(err, errlen, "no command: give the target after '--'");
    out->target_argv = &argv[i + 1];
    out->action = CLI_RUN;
    return 0;
}

int cli_parse(int argc, char **argv, struct cli_options *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->policy_fd = -1;
    out->report_fd = -1;
    if (argc > 1 && strcmp(argv[1], "--connect") == 0)
        return parse_connect(argc, argv, out, err, errlen);
    int i;
    for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        int r = parse_option(argc, argv, &i, out, err, errlen);
        if (r != OPTION_NEXT)
            return r == OPTION_STOP ? 0 : -1;
    }
    return check_command_line(argc, argv, i, out, err, errlen);
}

void cli_print_help(const char *sandboxes)
{
    fputs("Usage: " HAS_PROGRAM_NAME " [--sandbox NAME] [--refusal-report N]\n"
          "                              (--policy JSON | --policy-fd N | --policy-file PATH) -- TARGET "
          "[ARG...]\n"
          "       " HAS_PROGRAM_NAME " --explain[=text|json|brief] [--sandbox NAME] (--policy ...)\n"
          "                              [--read PATH] [--write PATH] [--connect-to HOST:PORT] "
          "[--unix-socket PATH]\n"
          "       " HAS_PROGRAM_NAME " --connect HOST PORT\n"
          "       " HAS_PROGRAM_NAME " --help | --version\n"
          "\n"
          "Runs TARGET inside the operating system's sandbox, built from the JSON policy.\n"
          "\n"
          "  --policy JSON        the policy document itself\n"
          "  --policy-fd N        read the policy from descriptor N (3 or above), then close it\n"
          "  --policy-file PATH   read the policy from PATH before any sandbox setup\n"
          "  --sandbox NAME       the sandbox backend, one of this build's:\n",
          stdout);
    fputs(sandboxes, stdout);
    fputs("  --refusal-report N   write one JSON line per refusal the sandbox sees (egress, host\n"
          "                       sockets, metadata, limits) and one when TARGET ends, to\n"
          "                       descriptor N (3 or above; never seen by TARGET)\n"
          "\n"
          "  --explain[=FORMAT]   run nothing; print what the sandbox will be on this host, whether a\n"
          "                       launch would start (else exit 125 with its message), and a verdict\n"
          "                       for each operation below; FORMAT: text (default), json, brief\n"
          "  --read PATH, --write PATH, --connect-to HOST:PORT, --unix-socket PATH\n"
          "                       operations to judge, as the sandbox would (repeatable)\n"
          "\n"
          "Inside a sandbox with an outgoing proxy:\n"
          "  --connect HOST PORT  tunnel stdin/stdout to HOST:PORT through the proxy named by\n"
          "                       HTTP_PROXY or ALL_PROXY (an ssh ProxyCommand: --connect %h %p)\n"
#ifdef HAS_DYNAMIC_BACKENDS
          "\n"
          "Developer build:\n"
          "  --backend-dir DIR    load backend modules (*.so) from DIR instead of the build tree\n"
          "  --backend-module F   also load the backend module F (repeatable)\n"
#endif
          "\n"
          "A bare TARGET is looked up in the workload's PATH inside the sandbox.\n"
          "Exit status: the workload's own; 125 when the supervisor fails (the target did not run);\n"
          "death by signal S is reproduced as death by S.\n",
          stdout);
}
