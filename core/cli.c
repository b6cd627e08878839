#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diag.h"

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

/* Matches "--name VALUE" (consuming the next argument) and "--name=VALUE". */
static bool take_value(const char *name, int argc, char **argv, int *i,
                       const char **value, bool *missing)
{
    size_t n = strlen(name);
    const char *arg = argv[*i];
    if (strncmp(arg, name, n) != 0)
        return false;
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return true;
    }
    if (arg[n] != '\0')
        return false;
    if (*i + 1 >= argc || strcmp(argv[*i + 1], "--") == 0) {
        *missing = true;
        return true;
    }
    *value = argv[++*i];
    return true;
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

static int set_transport(struct cli_options *out, enum cli_transport t,
                         const char *value, char *err, size_t errlen)
{
    if (out->transport != CLI_POLICY_NONE)
        FAIL("give exactly one of --policy, --policy-fd and --policy-file");
    out->transport = t;
    if (t == CLI_POLICY_FD) {
        if (parse_fd(value, &out->policy_fd) != 0)
            FAIL("--policy-fd: '%s' is not a descriptor number", value);
        if (out->policy_fd <= 2)
            FAIL("--policy-fd: descriptor %d is stdin, stdout or stderr; pass the policy on descriptor 3 or above",
                 out->policy_fd);
    } else {
        if (t == CLI_POLICY_FILE && *value == '\0')
            FAIL("--policy-file: the path is empty");
        out->policy_arg = value;
    }
    return 0;
}

static int set_report_fd(struct cli_options *out, const char *value, char *err, size_t errlen)
{
    if (out->report_fd >= 0)
        FAIL("--refusal-report given twice");
    if (parse_fd(value, &out->report_fd) != 0)
        FAIL("--refusal-report: '%s' is not a descriptor number", value);
    if (out->report_fd <= 2)
        FAIL("--refusal-report: descriptor %d is stdin, stdout or stderr; pass a descriptor 3 or above",
             out->report_fd);
    return 0;
}

/* "--connect HOST PORT", alone on the command line. */
static int parse_connect(int argc, char **argv, struct cli_options *out, char *err, size_t errlen)
{
    if (argc != 4)
        FAIL("--connect takes exactly HOST PORT and nothing else (as an ssh ProxyCommand: "
             "--connect %%h %%p)");
    out->connect_host = argv[2];
    out->connect_port = argv[3];
    out->action = CLI_CONNECT;
    return 0;
}

/* --explain[=FORMAT] and the operations it is asked about. */
static int take_explain_option(struct cli_options *out, int argc, char **argv, int *i,
                               char *err, size_t errlen, bool *taken)
{
    static const struct { const char *name; enum sandbox_query_kind kind; } ops[] = {
        {"--read", SANDBOX_QUERY_READ}, {"--write", SANDBOX_QUERY_WRITE},
        {"--connect-to", SANDBOX_QUERY_CONNECT}, {"--unix-socket", SANDBOX_QUERY_UNIX},
    };
    const char *arg = argv[*i], *value = NULL;
    bool missing = false;
    *taken = true;
    if (strcmp(arg, "--explain") == 0 || strncmp(arg, "--explain=", 10) == 0) {
        const char *f = arg[9] ? arg + 10 : "text";
        if (out->action == CLI_EXPLAIN)
            FAIL("--explain given twice");
        if (strcmp(f, "text") == 0)
            out->explain_format = CLI_EXPLAIN_TEXT;
        else if (strcmp(f, "json") == 0)
            out->explain_format = CLI_EXPLAIN_JSON;
        else if (strcmp(f, "brief") == 0)
            out->explain_format = CLI_EXPLAIN_BRIEF;
        else
            FAIL("--explain: the format is text, json or brief");
        out->action = CLI_EXPLAIN;
        return 0;
    }
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        if (!take_value(ops[k].name, argc, argv, i, &value, &missing))
            continue;
        if (missing)
            FAIL("%s needs a value", ops[k].name);
        if (out->query_count == CLI_MAX_QUERIES)
            FAIL("at most %d operations (--read, --write, --connect-to, --unix-socket) at a time", CLI_MAX_QUERIES);
        out->queries[out->query_count++] = (struct cli_query){ops[k].kind, value};
        return 0;
    }
    *taken = false;
    return 0;
}

/* What --explain changes in the checks of the whole command line. */
static int check_explain(const struct cli_options *out, int i, int argc, char *err, size_t errlen)
{
    if (out->action != CLI_EXPLAIN) {
        if (out->query_count)
            FAIL("--read, --write, --connect-to and --unix-socket are questions for --explain");
        return 0;
    }
    if (out->report_fd >= 0)
        FAIL("--explain runs nothing: --refusal-report has nothing to report");
    if (i < argc)
        FAIL("--explain runs nothing: drop '--' and the command");
    return 0;
}

#ifdef HAS_DYNAMIC_BACKENDS
static int take_developer_option(struct cli_options *out, int argc, char **argv, int *i,
                                 char *err, size_t errlen, bool *taken)
{
    const char *value = NULL;
    bool missing = false;
    *taken = true;
    if (take_value("--backend-dir", argc, argv, i, &value, &missing)) {
        if (missing)
            FAIL("--backend-dir needs a directory");
        out->backend_dir = value;
        return 0;
    }
    if (take_value("--backend-module", argc, argv, i, &value, &missing)) {
        if (missing)
            FAIL("--backend-module needs a module file");
        if (out->backend_module_count == CLI_MAX_BACKEND_MODULES)
            FAIL("--backend-module: at most %d modules", CLI_MAX_BACKEND_MODULES);
        out->backend_modules[out->backend_module_count++] = value;
        return 0;
    }
    *taken = false;
    return 0;
}
#endif

int cli_parse(int argc, char **argv, struct cli_options *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->policy_fd = -1;
    out->report_fd = -1;
    if (argc > 1 && strcmp(argv[1], "--connect") == 0)
        return parse_connect(argc, argv, out, err, errlen);
    int i;
    for (i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = NULL;
        bool missing = false;
        if (strcmp(arg, "--") == 0)
            break;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            out->action = CLI_HELP;
            return 0;
        }
        if (strcmp(arg, "--version") == 0) {
            out->action = CLI_VERSION;
            return 0;
        }
        if (take_value("--sandbox", argc, argv, &i, &value, &missing)) {
            if (missing || !*value || *value == '-')
                FAIL("--sandbox needs a backend name (--help lists this build's)");
            if (out->sandbox_name)
                FAIL("--sandbox %s, then %s: one sandbox backend at a time", out->sandbox_name, value);
            out->sandbox_name = value;
            continue;
        }
        if (take_value("--refusal-report", argc, argv, &i, &value, &missing)) {
            if (missing)
                FAIL("%s needs a descriptor number", arg);
            if (set_report_fd(out, value, err, errlen) != 0)
                return -1;
            continue;
        }
        if (strcmp(arg, "--connect") == 0)
            FAIL("--connect comes first and alone: " HAS_PROGRAM_NAME " --connect HOST PORT");
        enum cli_transport t = CLI_POLICY_NONE;
        if (take_value("--policy-fd", argc, argv, &i, &value, &missing))
            t = CLI_POLICY_FD;
        else if (take_value("--policy-file", argc, argv, &i, &value, &missing))
            t = CLI_POLICY_FILE;
        else if (take_value("--policy", argc, argv, &i, &value, &missing))
            t = CLI_POLICY_ARG;
        if (t != CLI_POLICY_NONE) {
            if (missing)
                FAIL("%s needs a value", arg);
            if (set_transport(out, t, value, err, errlen) != 0)
                return -1;
            continue;
        }
        bool taken;
        if (take_explain_option(out, argc, argv, &i, err, errlen, &taken) != 0)
            return -1;
        if (taken)
            continue;
#ifdef HAS_DYNAMIC_BACKENDS
        if (take_developer_option(out, argc, argv, &i, err, errlen, &taken) != 0)
            return -1;
        if (taken)
            continue;
#endif
        if (arg[0] == '-')
            FAIL("unknown option '%s' (see --help)", arg);
        FAIL("unexpected argument '%s': the command goes after '--'", arg);
    }
    if (out->transport == CLI_POLICY_NONE)
        FAIL("no policy: give one of --policy JSON, --policy-fd N or --policy-file PATH");
    if (out->report_fd >= 0 && out->report_fd == out->policy_fd)
        FAIL("--refusal-report and --policy-fd name the same descriptor %d", out->report_fd);
    if (check_explain(out, i, argc, err, errlen) != 0)
        return -1;
    if (out->action == CLI_EXPLAIN)
        return 0;
    if (i >= argc)
        FAIL("no command: give the target after '--'");
    if (i + 1 >= argc || argv[i + 1][0] == '\0')
        FAIL("no command: give the target after '--'");
    out->target_argv = &argv[i + 1];
    out->action = CLI_RUN;
    return 0;
}

void cli_print_help(const char *sandboxes)
{
    fputs(
        "Usage: " HAS_PROGRAM_NAME " [--sandbox NAME] [--refusal-report N]\n"
        "                              (--policy JSON | --policy-fd N | --policy-file PATH) -- TARGET [ARG...]\n"
        "       " HAS_PROGRAM_NAME " --explain[=text|json|brief] [--sandbox NAME] (--policy ...)\n"
        "                              [--read PATH] [--write PATH] [--connect-to HOST:PORT] [--unix-socket PATH]\n"
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
    fputs(
        "  --refusal-report N   write one JSON line per destination the egress proxy refuses\n"
        "                       to descriptor N (3 or above; never seen by TARGET)\n"
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
