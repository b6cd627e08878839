/*
 * explain.c — see explain.h.  The backends say what they would build and
 * decide (backend.h, explain()); this file only asks them, combines the
 * answers and prints them.  Every string a backend or the caller gave is
 * printed through explain_escape(): no control byte reaches the terminal.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "explain.h"
#include "explain_collect.h"
#include "explain_query.h"
#include "launch.h"

struct run {
    const struct backend_set *set;
    struct sandbox_query queries[CLI_MAX_QUERIES];
    size_t query_count;
    struct explain_collect c;
    bool launch_ok;
    char launch_error[SANDBOX_ERROR_MAX + 64];
    const char *tmpdir; /* the workload's $TMPDIR, or NULL */
};

/* The path the kernel would reach: the symbolic links of its longest
 * existing part resolved (realpath), the rest as given. */
static void resolve_existing(char *path, size_t size)
{
    char probe[PATH_MAX], real[PATH_MAX];
    snprintf(probe, sizeof probe, "%s", path);
    size_t cut = strlen(probe);
    for (;;) {
        if (realpath(probe[0] ? probe : "/", real)) {
            const char *rest = path + cut;
            if (strcmp(real, "/") == 0 && *rest)
                real[0] = '\0';
            snprintf(probe, sizeof probe, "%s%s", real, rest);
            snprintf(path, size, "%s", probe[0] ? probe : "/");
            return;
        }
        char *slash = strrchr(probe, '/');
        if (!slash)
            return;
        *slash = '\0';
        cut = (size_t)(slash - probe);
    }
}

static void parse_queries(struct run *r, const struct cli_options *opts, const char *cwd)
{
    static char paths[CLI_MAX_QUERIES][PATH_MAX];
    for (size_t i = 0; i < opts->query_count; i++) {
        enum sandbox_query_kind kind = opts->queries[i].kind;
        const char *problem =
            explain_query_parse(kind, opts->queries[i].arg, cwd, &r->queries[i], paths[i], sizeof paths[i]);
        if (problem)
            diag_fatal("%s (the %zu%s operation): %s", explain_query_option(kind), i + 1,
                       i == 0   ? "st"
                       : i == 1 ? "nd"
                       : i == 2 ? "rd"
                                : "th",
                       problem);
        if (kind != SANDBOX_QUERY_CONNECT)
            resolve_existing(paths[i], sizeof paths[i]);
    }
    r->query_count = opts->query_count;
}

/* The launch's checks, then every backend's explain(), in order. */
static void ask_backends(struct run *r, struct sandbox_ctx *ctx)
{
    static const char *names[BACKEND_SET_MAX];
    for (size_t i = 0; i < r->set->count; i++)
        names[i] = r->set->items[i]->name;
    r->c.names = names;
    struct sandbox_explain out = {r->queries, r->query_count, &r->c};
    char err[SANDBOX_ERROR_MAX];
    r->launch_ok = launch_check_coverage(ctx->policy, r->set, err, sizeof err) == 0;
    if (!r->launch_ok) {
        snprintf(r->launch_error, sizeof r->launch_error, "%s", err);
        return;
    }
    for (size_t i = 0; i < r->set->count; i++) {
        const struct sandbox_backend *b = r->set->items[i];
        ctx->current = i;
        ctx->others_offer = backend_set_others_offer(r->set, i);
        ctx->later_enter_needs_view =
            backend_set_later_enter_needs_view(r->set, i, policy_required_enforcement(ctx->policy));
        ctx->error[0] = '\0';
        if (b->explain(ctx, &out) != SANDBOX_OK) {
            r->launch_ok = false;
            snprintf(r->launch_error, sizeof r->launch_error, "%s: %s", b->name,
                     ctx->error[0] ? ctx->error : "failed without saying why");
            return;
        }
    }
}

static const char *verdict_word(enum sandbox_verdict v)
{
    return v == SANDBOX_VERDICT_ALLOWED ? "allowed" : v == SANDBOX_VERDICT_REFUSED ? "refused" : "undecided";
}

/* ---- the brief ------------------------------------------------------ */

/* The subjects of every item of `kind`, ", "-separated; false if none. */
static bool subjects_of(FILE *f, const struct run *r, const char *kind)
{
    bool any = false;
    for (size_t i = 0; i < r->c.count; i++) {
        const struct explain_item *it = &r->c.items[i];
        if (strcmp(it->kind, kind) != 0 || !it->subject[0])
            continue;
        fputs(any ? ", " : "", f);
        explain_escape(f, it->subject, 0);
        any = true;
    }
    return any;
}

/* The `how` of the last item of `kind` (the innermost backend's word). */
static const struct explain_item *last_of(const struct run *r, const char *kind)
{
    const struct explain_item *found = NULL;
    for (size_t i = 0; i < r->c.count; i++)
        if (strcmp(r->c.items[i].kind, kind) == 0)
            found = &r->c.items[i];
    return found;
}

/* The read-denied subjects, each one that is not there said so: a name
 * that does not exist hides nothing (main.c warns of it too). */
static void read_denied_subjects(FILE *f, const struct run *r)
{
    bool any = false;
    struct stat st;
    for (size_t i = 0; i < r->c.count; i++) {
        const struct explain_item *it = &r->c.items[i];
        if (strcmp(it->kind, "read-denied") != 0 || !it->subject[0])
            continue;
        fputs(any ? ", " : "", f);
        explain_escape(f, it->subject, 0);
        if (lstat(it->subject, &st) != 0 && (errno == ENOENT || errno == ENOTDIR))
            fputs(" (does not exist: nothing hidden there)", f);
        any = true;
    }
}

static void print_brief(FILE *f, const struct run *r)
{
    if (!r->launch_ok) {
        fputs("the sandbox cannot start on this host: ", f);
        explain_escape(f, r->launch_error, 0);
        fputc('\n', f);
        return;
    }
    fputs("writable: ", f);
    if (!subjects_of(f, r, "writable"))
        fputs("nothing", f);
    fputs("\nread-only: everything else", f);
    const struct explain_item *tmp = last_of(r, "tmp");
    if (tmp) {
        fputs("; /tmp: ", f);
        explain_escape(f, tmp->how, 0);
    }
    if (r->tmpdir) {
        fputs("; $TMPDIR = ", f);
        explain_escape(f, r->tmpdir, 0);
    }
    fputs("\n", f);
    if (last_of(r, "write-denied")) {
        fputs("read-only even inside the writable ones: ", f);
        subjects_of(f, r, "write-denied");
        fputc('\n', f);
    }
    if (last_of(r, "read-denied")) {
        fputs("hidden (cannot be read): ", f);
        read_denied_subjects(f, r);
        fputc('\n', f);
    }
    const struct explain_item *net = last_of(r, "network");
    if (net) {
        fputs("network: ", f);
        explain_escape(f, net->how, 0);
        if (last_of(r, "host")) {
            fputs("; hosts: ", f);
            subjects_of(f, r, "host");
        }
        fputc('\n', f);
    }
    /* scratch is in the /tmp line above. */
    for (size_t i = 0; i < r->c.count; i++)
        if (strcmp(r->c.items[i].kind, "limit") == 0) {
            explain_escape(f, r->c.items[i].kind, 0);
            fputs(": ", f);
            explain_escape(f, r->c.items[i].how, 0);
            fputc('\n', f);
        }
    fputs("a refusal by the sandbox shows as EROFS, EACCES, EPERM, ECONNREFUSED, EBUSY (moving or removing a "
          "path a denial pins, or one on the way to it), EAGAIN (a limit reached) or the proxy's HTTP 403 (a "
          "host not allowed); it is not a bug of the program: do not retry it, work within the rules above\n",
          f);
}

/* ---- text ----------------------------------------------------------- */

static void print_text(FILE *f, const struct run *r)
{
    fputs("sandbox:", f);
    for (size_t i = 0; i < r->set->count; i++)
        fprintf(f, " %s", r->set->items[i]->name);
    fputc('\n', f);
    for (size_t i = 0; i < r->c.count; i++) {
        const struct explain_item *it = &r->c.items[i];
        explain_escape(f, it->kind, 0);
        if (it->subject[0]) {
            fputc(' ', f);
            explain_escape(f, it->subject, 0);
        }
        fputs(": ", f);
        explain_escape(f, it->how, 0);
        fprintf(f, " [%s]\n", it->backend);
    }
    for (size_t i = 0; i < r->query_count; i++) {
        const struct sandbox_query *q = &r->queries[i];
        const struct explain_answer *a = &r->c.answers[i];
        fprintf(f, "%s ", explain_query_word(q->kind));
        explain_escape(f, q->given, 0);
        if (q->path && strcmp(q->path, q->given) != 0) {
            fputs(" (", f);
            explain_escape(f, q->path, 0);
            fputc(')', f);
        }
        fprintf(f, ": %s", verdict_word(a->verdict));
        if (a->rule) {
            fputs(": ", f);
            explain_escape(f, a->rule, 0);
            fprintf(f, " [%s]", a->backend);
        } else if (r->launch_ok) {
            fputs(": no backend of the sandbox restricts it", f);
        }
        fputc('\n', f);
    }
    fputs("launch: ", f);
    if (r->launch_ok) {
        fputs("would start\n", f);
    } else {
        fputs("refused: ", f);
        explain_escape(f, r->launch_error, 0);
        fputc('\n', f);
    }
}

/* ---- JSON (README "Explain mode", release/npm/src/explain.ts) -------- */

static void json_field(FILE *f, const char *name, const char *value, bool first)
{
    fprintf(f, "%s\"%s\":", first ? "" : ",", name);
    if (value)
        explain_escape(f, value, 1);
    else
        fputs("null", f);
}

static void print_json(FILE *f, const struct run *r)
{
    fputs("{\"version\":1,\"backends\":[", f);
    for (size_t i = 0; i < r->set->count; i++)
        fprintf(f, "%s\"%s\"", i ? "," : "", r->set->items[i]->name);
    fprintf(f, "],\"launch\":{\"ok\":%s,", r->launch_ok ? "true" : "false");
    json_field(f, "error", r->launch_ok ? NULL : r->launch_error, true);
    fputs("},\"items\":[", f);
    for (size_t i = 0; i < r->c.count; i++) {
        const struct explain_item *it = &r->c.items[i];
        fputs(i ? ",{" : "{", f);
        json_field(f, "backend", it->backend, true);
        json_field(f, "kind", it->kind, false);
        json_field(f, "subject", it->subject, false);
        json_field(f, "how", it->how, false);
        fputc('}', f);
    }
    fputs("],\"verdicts\":[", f);
    for (size_t i = 0; i < r->query_count; i++) {
        const struct sandbox_query *q = &r->queries[i];
        const struct explain_answer *a = &r->c.answers[i];
        fputs(i ? ",{" : "{", f);
        json_field(f, "operation", explain_query_word(q->kind), true);
        json_field(f, "given", q->given, false);
        json_field(f, "path", q->path, false);
        json_field(f, "verdict", verdict_word(a->verdict), false);
        json_field(f, "backend", a->backend, false);
        json_field(f, "rule", a->rule, false);
        fputc('}', f);
    }
    fputs("],\"brief\":", f);
    char *brief = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&brief, &len);
    if (!m)
        diag_fatal("out of memory");
    print_brief(m, r);
    fclose(m);
    /* The brief is escaped text already: only the JSON quoting remains. */
    explain_escape(f, brief, 1);
    free(brief);
    fputs("}\n", f);
}

int explain_main(const struct policy *policy, const struct backend_set *backends,
                 const struct cli_options *opts, char **env, size_t env_count)
{
    static struct run r;
    static struct sandbox_ctx ctx;
    static struct explain_answer answers[CLI_MAX_QUERIES];
    static char cwd[PATH_MAX];
    launch_ctx_init(&ctx, policy, backends, NULL, cwd, sizeof cwd, env, env_count, -1);
    r.set = backends;
    r.c.answers = answers;
    parse_queries(&r, opts, cwd);
    r.tmpdir = sandbox_env_get(&ctx, "TMPDIR");
    ask_backends(&r, &ctx);
    if (r.c.out_of_memory)
        diag_fatal("out of memory explaining the sandbox");
    if (opts->explain_format == CLI_EXPLAIN_JSON)
        print_json(stdout, &r);
    else if (opts->explain_format == CLI_EXPLAIN_BRIEF)
        print_brief(stdout, &r);
    else
        print_text(stdout, &r);
    if (fflush(stdout) != 0 || ferror(stdout))
        diag_fatal("cannot write the explanation: %s", strerror(errno));
    if (r.launch_ok)
        return 0;
    diag("%s", r.launch_error);
    return HAS_EXIT_FAILURE;
}
