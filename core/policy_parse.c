/*
 * policy_parse.c — strict validation of the policy document (README.md, "Policy").
 *
 * Every rule is checked and every failure recorded with its JSON path, so the
 * caller sees all that is wrong in one message instead of fixing one field per
 * run.  Nothing is defaulted silently: unknown and duplicate fields, wrong
 * types and missing required fields are errors.
 */
#include "config.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_text.h"
#include "policy.h"
#include "port_parse.h"
#include "proxy_client.h"
#include "string_array.h"
#include "wipe.h"

/* Enough to show everything a human will fix in one go, bounded so a
 * document of 100,000 bad entries cannot make a megabyte error line. */
#define POLICY_MAX_ERRORS 32
#define POLICY_PATH_MAX 4095
#define HOST_ENTRY_MAX 253

struct parse {
    struct policy_errors *errors;
    size_t dropped;
    bool oom;
};

static void add_error(struct parse *p, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void append_error(struct parse *p, const char *path, const char *msg)
{
    size_t need = strlen(path) + strlen(msg) + 3;
    char *item = malloc(need);
    char **grown = realloc(p->errors->items, (p->errors->count + 1) * sizeof *grown);
    if (grown)
        p->errors->items = grown;
    if (!item || !grown) {
        free(item);
        p->oom = true;
        return;
    }
    snprintf(item, need, "%s: %s", path, msg);
    p->errors->items[p->errors->count++] = item;
}

static void add_error(struct parse *p, const char *path, const char *fmt, ...)
{
    if (p->errors->count >= POLICY_MAX_ERRORS) {
        p->dropped++;
        return;
    }
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    append_error(p, path, msg);
}

/* A key as it may appear in a one-line message: printable ASCII only, cut
 * short, so a hostile field name cannot forge or break the error line. */
static void printable_key(const char *key, char *out, size_t outlen)
{
    size_t j = 0;
    for (const unsigned char *k = (const unsigned char *)key; *k && j + 4 < outlen; k++)
        out[j++] = (*k >= 0x20 && *k < 0x7F) ? (char)*k : '?';
    if (*key && strlen(key) >= outlen - 4)
        memcpy(out + j, "...", 3), j += 3;
    out[j] = '\0';
}

static void child_path(char *out, size_t outlen, const char *parent, const char *key)
{
    char safe[80];
    printable_key(key, safe, sizeof safe);
    snprintf(out, outlen, "%s.%s", parent, safe);
}

static const char *json_type_name(const cJSON *v)
{
    if (cJSON_IsObject(v))
        return "an object";
    if (cJSON_IsArray(v))
        return "an array";
    if (cJSON_IsString(v))
        return "a string";
    if (cJSON_IsNumber(v))
        return "a number";
    if (cJSON_IsBool(v))
        return "a boolean";
    if (cJSON_IsNull(v))
        return "null";
    return "an invalid value";
}

/* Edit distance of two short ASCII names, compared in lower case, or a
 * large number when either is long or not ASCII. */
static size_t name_distance(const char *a, const char *b)
{
    enum { MAX = 64 };
    size_t na = strlen(a), nb = strlen(b), row[MAX + 1];
    if (na > MAX || nb > MAX)
        return (size_t)-1;
    for (size_t j = 0; j <= nb; j++)
        row[j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            unsigned char x = (unsigned char)a[i - 1], y = (unsigned char)b[j - 1];
            if (x >= 0x80 || y >= 0x80)
                return (size_t)-1;
            size_t cost = tolower(x) != tolower(y), up = row[j];
            size_t best = diag + cost;
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[nb];
}

/* The known field an unknown `name` most likely meant: within two edits
 * (case aside), the nearest, the first in byte order on a tie; or NULL.
 * release/npm/src/schema-errors.ts (didYouMean) is the same rule. */
static const char *nearest_field(const char *name, const char *const *known, size_t nknown)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (size_t k = 0; k < nknown; k++) {
        size_t d = name_distance(name, known[k]);
        if (d < best_d || (d == best_d && best && strcmp(known[k], best) < 0)) {
            best = known[k];
            best_d = d;
        }
    }
    return best;
}

/*
 * Refuse fields the schema does not name and fields named twice (cJSON keeps
 * both; another JSON reader would keep the last, so a duplicate could mean
 * different things to the caller and to us).
 */
static void check_fields(struct parse *p, const cJSON *obj, const char *path, const char *const *known,
                         size_t nknown)
{
    /* Room for the largest object's field list (the top level: 8). */
    unsigned seen[16] = {0};
    if (nknown > sizeof seen / sizeof seen[0])
        abort(); /* a field list outgrew seen[]: a bug here, not in the document */
    for (const cJSON *c = obj->child; c; c = c->next) {
        char where[256];
        child_path(where, sizeof where, path, c->string);
        size_t k;
        for (k = 0; k < nknown; k++)
            if (strcmp(c->string, known[k]) == 0)
                break;
        const char *meant = k == nknown ? nearest_field(c->string, known, nknown) : NULL;
        if (k == nknown && meant)
            add_error(p, where, "unknown field (did you mean \"%s\"?)", meant);
        else if (k == nknown)
            add_error(p, where, "unknown field");
        else if (++seen[k] == 2)
            add_error(p, where, "duplicate field");
    }
}

static bool has_control_byte(const char *s)
{
    for (const unsigned char *c = (const unsigned char *)s; *c; c++)
        if (*c < 0x20 || *c == 0x7F)
            return true;
    return false;
}

/* Returns NULL if `path` is an acceptable policy path, else why not. */
static const char *path_problem(const char *path)
{
    size_t len = strlen(path);
    if (len == 0)
        return "must not be empty";
    if (path[0] != '/')
        return "must be an absolute path";
    if (len > POLICY_PATH_MAX)
        return "is longer than 4095 bytes";
    if (has_control_byte(path))
        return "contains a control character";
    /* Walk the components: refuse "", ".", ".." (except a trailing "/"). */
    const char *c = path + 1;
    while (*c) {
        const char *end = strchr(c, '/');
        size_t n = end ? (size_t)(end - c) : strlen(c);
        if (n == 0)
            return "contains an empty component (\"//\")";
        if ((n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
            return "contains a \".\" or \"..\" component";
        if (!end)
            break;
        c = end + 1;
        if (*c == '\0')
            break; /* one trailing slash: removed by normalize_path() */
    }
    return NULL;
}

/* A `devices` entry: a policy path beneath /dev (the host's devices are
 * there; which of them may be granted is the backend's, at launch). */
static const char *device_path_problem(const char *path)
{
    const char *why = path_problem(path);
    if (why)
        return why;
    if (strncmp(path, "/dev/", 5) != 0 || path[5] == '\0')
        return "must name a device beneath /dev";
    return NULL;
}

static void normalize_path(char *path)
{
    size_t len = strlen(path);
    if (len > 1 && path[len - 1] == '/')
        path[len - 1] = '\0';
}

const char *policy_host_entry_split(const char *entry, size_t *host_len, unsigned *port)
{
    size_t len = strlen(entry);
    const char *close = strchr(entry, ']');
    const char *colon = strchr(entry, ':');
    const char *port_text = NULL;
    *host_len = len;
    *port = 0;
    if (entry[0] == '[') {
        /* An IPv6 literal takes a port only in brackets: "[2001:db8::1]:22". */
        if (!close)
            return "opens '[' without a closing ']'";
        if (strchr(entry + 1, '[') || strchr(close + 1, ']'))
            return "'[' and ']' may only enclose a whole IPv6 literal";
        if (close[1] != '\0' && close[1] != ':')
            return "has something other than \":port\" after ']'";
        *host_len = (size_t)(close + 1 - entry);
        port_text = close[1] == ':' ? close + 2 : NULL;
    } else if (strchr(entry, '[') || close) {
        return "'[' and ']' may only enclose a whole IPv6 literal";
    } else if (colon && !strchr(colon + 1, ':')) {
        /* One colon: "host:port".  More: a bare IPv6 literal, which has no port. */
        *host_len = (size_t)(colon - entry);
        port_text = colon + 1;
    }
    if (*host_len == 0 || (entry[0] == '[' && *host_len == 2))
        return "names no host";
    if (port_text && !port_parse(port_text, strlen(port_text), port))
        return "has a port that is not a number from 1 to 65535 (without leading zeros)";
    if ((entry[0] == '[' ? *host_len - 2 : *host_len) > HOST_ENTRY_MAX)
        return "names a host longer than 253 bytes";
    return NULL;
}

const char *policy_host_entry_problem(const char *entry)
{
    if (entry[0] == '\0')
        return "must not be empty";
    for (const unsigned char *c = (const unsigned char *)entry; *c; c++) {
        if (*c <= 0x20 || *c == 0x7F)
            return "contains whitespace or a control character";
        if (*c == '/')
            return "contains '/': name a host, not a URL";
        if (*c == '@')
            return "contains '@': name a host, not credentials";
    }
    if (strcmp(entry, "*") == 0)
        return "a bare '*' is refused: open egress is expressed by configuring no proxy";
    const char *star = strchr(entry, '*');
    if (star) {
        if (star != entry || entry[1] != '.' || strchr(entry + 1, '*'))
            return "'*' is allowed only as a leading \"*.\" (\"*.example.com\")";
        if (entry[2] == '\0' || entry[2] == ':')
            return "\"*.\" needs a suffix (\"*.example.com\")";
    }
    size_t host_len;
    unsigned port;
    return policy_host_entry_split(entry, &host_len, &port);
}

const char *policy_internal_host_entry_problem(const char *entry)
{
    const char *why = policy_host_entry_problem(entry);
    if (why)
        return why;
    size_t host_len;
    unsigned port;
    policy_host_entry_split(entry, &host_len, &port);
    /* A literal is no name to trust an internal answer for: allowedHosts
     * already reaches a literal whatever its class. */
    if (entry[0] == '[' || memchr(entry, ':', host_len) || strspn(entry, "0123456789.") == host_len)
        return "is an IP literal: list it in allowedHosts, which reaches a literal whatever its address "
               "class (allowedInternalHosts is for names)";
    return NULL;
}

typedef const char *(*item_problem_fn)(const char *);

/* An optional array of strings at obj[key]; each item checked by `problem`. */
static void parse_string_list(struct parse *p, const cJSON *obj, const char *key, const char *path,
                              struct string_list *out, item_problem_fn problem)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key);
    char where[256];
    child_path(where, sizeof where, path, key);
    if (!arr)
        return;
    if (!cJSON_IsArray(arr)) {
        add_error(p, where, "must be an array of strings, not %s", json_type_name(arr));
        return;
    }
    size_t i = 0;
    for (const cJSON *v = arr->child; v; v = v->next, i++) {
        char item[288];
        snprintf(item, sizeof item, "%s[%zu]", where, i);
        if (!cJSON_IsString(v)) {
            add_error(p, item, "must be a string, not %s", json_type_name(v));
            continue;
        }
        const char *why = problem(v->valuestring);
        if (why) {
            add_error(p, item, "%s", why);
            continue;
        }
        if (string_array_push(&out->items, &out->count, v->valuestring) != 0) {
            p->oom = true;
            return;
        }
    }
}

static void parse_path_list(struct parse *p, const cJSON *obj, const char *key, struct string_list *out)
{
    parse_string_list(p, obj, key, "$", out, path_problem);
    for (size_t i = 0; i < out->count; i++)
        normalize_path(out->items[i]);
}

/* Required boolean obj[key]. */
/* `obj[key]` as a boolean; a missing field is an error when `required`,
 * else false. */
static bool parse_bool_field(struct parse *p, const cJSON *obj, const char *key, const char *path,
                             bool required)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    char where[256];
    child_path(where, sizeof where, path, key);
    if (!v) {
        if (required)
            add_error(p, where, "required field is missing");
        return false;
    }
    if (!cJSON_IsBool(v)) {
        add_error(p, where, "must be a boolean, not %s", json_type_name(v));
        return false;
    }
    return cJSON_IsTrue(v);
}

static bool parse_bool(struct parse *p, const cJSON *obj, const char *key, const char *path)
{
    return parse_bool_field(p, obj, key, path, true);
}

static const char *const mode_names[] = {
    [POLICY_MODE_READ_ONLY] = "read_only",
    [POLICY_MODE_WORKSPACE_WRITE] = "workspace_write",
    [POLICY_MODE_AUTO] = "auto",
    [POLICY_MODE_FULL_ACCESS] = "full_access",
};

bool policy_mode_writes_cwd(enum policy_mode mode)
{
    return mode == POLICY_MODE_WORKSPACE_WRITE || mode == POLICY_MODE_AUTO;
}

static void parse_mode(struct parse *p, const cJSON *root, struct policy *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "mode");
    if (!v) {
        add_error(p, "$.mode", "required field is missing");
        return;
    }
    if (cJSON_IsString(v))
        for (size_t m = 0; m < sizeof mode_names / sizeof mode_names[0]; m++)
            if (strcmp(v->valuestring, mode_names[m]) == 0) {
                out->mode = (enum policy_mode)m;
                return;
            }
    add_error(p, "$.mode", "must be one of \"read_only\", \"workspace_write\", \"auto\", \"full_access\"");
}

/* outgoingProxy.upstream: "environment", or an http:// URL (proxy_client.h). */
static void parse_upstream(struct parse *p, const cJSON *proxy, struct policy_network *net)
{
    const char *path = "$.network.outgoingProxy.upstream";
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(proxy, "upstream");
    struct proxy_url url;
    if (!v)
        return;
    if (!cJSON_IsString(v)) {
        add_error(p, path, "must be a string, not %s", json_type_name(v));
        return;
    }
    if (strcmp(v->valuestring, "environment") == 0) {
        net->upstream_from_environment = true;
        return;
    }
    const char *why = proxy_upstream_url_parse(v->valuestring, false, &url);
    wipe_secret(&url, sizeof url);
    if (why) {
        add_error(p, path, "must be \"environment\" or an http://host:port URL: it %s", why);
        return;
    }
    if (!(net->upstream_url = strdup(v->valuestring)))
        p->oom = true;
}

static void parse_proxy(struct parse *p, const cJSON *proxy, struct policy_network *net)
{
    static const char *const known[] = {"allowUnproxiedCertificateFetches", "frontEnds", "upstream"};
    const char *path = "$.network.outgoingProxy";
    if (!cJSON_IsObject(proxy)) {
        add_error(p, path, "must be an object, not %s", json_type_name(proxy));
        return;
    }
    net->has_outgoing_proxy = true;
    check_fields(p, proxy, path, known, sizeof known / sizeof known[0]);
    net->unproxied_certificate_fetches =
        parse_bool_field(p, proxy, "allowUnproxiedCertificateFetches", path, false);
    parse_upstream(p, proxy, net);
    const cJSON *fe = cJSON_GetObjectItemCaseSensitive(proxy, "frontEnds");
    const char *fepath = "$.network.outgoingProxy.frontEnds";
    if (!fe) {
        add_error(p, fepath, "required field is missing");
        return;
    }
    if (!cJSON_IsArray(fe)) {
        add_error(p, fepath, "must be an array, not %s", json_type_name(fe));
        return;
    }
    if (!fe->child) {
        add_error(p, fepath, "must name at least one of \"http\", \"socks5\", \"transparent\"");
        return;
    }
    size_t i = 0;
    for (const cJSON *v = fe->child; v; v = v->next, i++) {
        char item[96];
        snprintf(item, sizeof item, "%s[%zu]", fepath, i);
        static const struct {
            const char *name;
            unsigned bit;
        } names[] = {
            {"http", POLICY_FRONT_END_HTTP},
            {"socks5", POLICY_FRONT_END_SOCKS5},
            {"transparent", POLICY_FRONT_END_TRANSPARENT},
        };
        unsigned bit = 0;
        for (size_t n = 0; n < sizeof names / sizeof names[0] && cJSON_IsString(v); n++)
            if (strcmp(v->valuestring, names[n].name) == 0)
                bit = names[n].bit;
        if (!bit)
            add_error(p, item, "must be one of \"http\", \"socks5\", \"transparent\"");
        else if (net->front_ends & bit)
            add_error(p, item, "names a front-end twice");
        net->front_ends |= bit;
    }
}

static void parse_network(struct parse *p, const cJSON *root, struct policy_network *net)
{
    static const char *const known[] = {"egress",       "allowedHosts",  "allowedInternalHosts",
                                        "localBinding", "outgoingProxy", "allowedUnixSockets"};
    const cJSON *obj = cJSON_GetObjectItemCaseSensitive(root, "network");
    if (!obj) {
        add_error(p, "$.network", "required field is missing");
        return;
    }
    if (!cJSON_IsObject(obj)) {
        add_error(p, "$.network", "must be an object, not %s", json_type_name(obj));
        return;
    }
    check_fields(p, obj, "$.network", known, sizeof known / sizeof known[0]);
    net->egress = parse_bool(p, obj, "egress", "$.network");
    net->local_binding = parse_bool(p, obj, "localBinding", "$.network");
    parse_string_list(p, obj, "allowedHosts", "$.network", &net->allowed_hosts, policy_host_entry_problem);
    parse_string_list(p, obj, "allowedInternalHosts", "$.network", &net->allowed_internal_hosts,
                      policy_internal_host_entry_problem);
    const cJSON *proxy = cJSON_GetObjectItemCaseSensitive(obj, "outgoingProxy");
    if (proxy)
        parse_proxy(p, proxy, net);
    parse_string_list(p, obj, "allowedUnixSockets", "$.network", &net->allowed_unix_sockets, path_problem);
    for (size_t i = 0; i < net->allowed_unix_sockets.count; i++)
        normalize_path(net->allowed_unix_sockets.items[i]);
}

/* Optional positive integer obj[key] in [min, max]; 0 when absent. */
static unsigned long long parse_count(struct parse *p, const cJSON *obj, const char *key,
                                      unsigned long long min, unsigned long long max)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    char where[256];
    child_path(where, sizeof where, "$.limits", key);
    if (!v)
        return 0;
    double d = cJSON_IsNumber(v) ? v->valuedouble : -1;
    /* The range first: only then is the conversion defined. */
    if (!(d >= (double)min && d <= (double)max) || d != (double)(unsigned long long)d) {
        add_error(p, where, "must be an integer from %llu to %llu", min, max);
        return 0;
    }
    return (unsigned long long)d;
}

static void parse_limits(struct parse *p, const cJSON *root, struct policy_limits *lim)
{
    static const char *const known[] = {"processes", "memoryBytes", "openFiles"};
    const cJSON *obj = cJSON_GetObjectItemCaseSensitive(root, "limits");
    if (!obj)
        return;
    if (!cJSON_IsObject(obj)) {
        add_error(p, "$.limits", "must be an object, not %s", json_type_name(obj));
        return;
    }
    check_fields(p, obj, "$.limits", known, sizeof known / sizeof known[0]);
    lim->processes = parse_count(p, obj, "processes", 1, POLICY_LIMIT_PROCESSES_MAX);
    lim->memory_bytes = parse_count(p, obj, "memoryBytes", POLICY_LIMIT_MEMORY_MIN, POLICY_LIMIT_MEMORY_MAX);
    lim->open_files = parse_count(p, obj, "openFiles", 1, POLICY_LIMIT_OPEN_FILES_MAX);
}

bool policy_has_limits(const struct policy *policy)
{
    const struct policy_limits *l = &policy->limits;
    return l->processes || l->memory_bytes || l->open_files;
}

/* "scratch": {"sizeBytes": N}, every member optional. */
static void parse_scratch(struct parse *p, const cJSON *root, struct policy_scratch *out)
{
    static const char *const known[] = {"sizeBytes"};
    const char *path = "$.scratch";
    const cJSON *obj = cJSON_GetObjectItemCaseSensitive(root, "scratch");
    if (!obj)
        return;
    if (!cJSON_IsObject(obj)) {
        add_error(p, path, "must be an object, not %s", json_type_name(obj));
        return;
    }
    check_fields(p, obj, path, known, sizeof known / sizeof known[0]);
    out->requested = true;
    out->size_bytes = POLICY_SCRATCH_DEFAULT_BYTES;
    const cJSON *size = cJSON_GetObjectItemCaseSensitive(obj, "sizeBytes");
    if (!size)
        return;
    double v = cJSON_IsNumber(size) ? size->valuedouble : -1;
    /* The bounds are exact in a double (< 2^53), and the range is checked
     * before the cast, which is undefined for a value out of range. */
    if (!(v >= (double)POLICY_SCRATCH_MIN_BYTES && v <= (double)POLICY_SCRATCH_MAX_BYTES) ||
        v != (double)(unsigned long long)v) {
        add_error(p, "$.scratch.sizeBytes",
                  "must be a whole number of bytes from %llu (1 MiB) to %llu (64 GiB)",
                  POLICY_SCRATCH_MIN_BYTES, POLICY_SCRATCH_MAX_BYTES);
        return;
    }
    out->size_bytes = (unsigned long long)v;
}

/* full_access builds no sandbox: every restriction, and every grant that
 * needs one, is refused. */
static void check_full_access(struct parse *p, const struct policy *pol)
{
    const struct policy_network *net = &pol->network;
    const char *why = "is a restriction, which full_access cannot carry: use another mode";
    const char *needs = "needs a sandbox, which full_access does not build: use another mode";
    if (pol->denied_read_paths.count)
        add_error(p, "$.deniedReadPaths", "%s", why);
    if (pol->denied_write_paths.count)
        add_error(p, "$.deniedWritePaths", "%s", why);
    if (!net->egress)
        add_error(p, "$.network.egress", "false %s", why);
    if (!net->local_binding)
        add_error(p, "$.network.localBinding", "false %s", why);
    if (net->allowed_hosts.count)
        add_error(p, "$.network.allowedHosts", "%s", why);
    if (net->allowed_internal_hosts.count)
        add_error(p, "$.network.allowedInternalHosts", "%s", why);
    if (net->has_outgoing_proxy)
        add_error(p, "$.network.outgoingProxy", "%s", why);
    if (policy_has_limits(pol))
        add_error(p, "$.limits", "%s", why);
    if (pol->scratch.requested)
        add_error(p, "$.scratch", "%s", needs);
    if (pol->devices.count)
        add_error(p, "$.devices", "%s", needs);
    if (net->allowed_unix_sockets.count)
        add_error(p, "$.network.allowedUnixSockets", "%s", needs);
}

/* Rules that relate fields to each other; only meaningful once every field
 * parsed, so they run only on an otherwise valid document. */
static void check_combinations(struct parse *p, const struct policy *pol)
{
    const struct policy_network *net = &pol->network;
    if (pol->mode == POLICY_MODE_FULL_ACCESS) {
        check_full_access(p, pol);
        return;
    }
    if (net->has_outgoing_proxy && !net->egress)
        add_error(p, "$.network.outgoingProxy", "requires \"egress\": true");
    static const char *const unenforced = "nothing would enforce this list with egress on and no proxy: add "
                                          "network.outgoingProxy, or set egress to false";
    if (net->egress && net->allowed_hosts.count && !net->has_outgoing_proxy)
        add_error(p, "$.network.allowedHosts", "%s", unenforced);
    if (net->egress && net->allowed_internal_hosts.count && !net->has_outgoing_proxy)
        add_error(p, "$.network.allowedInternalHosts", "%s", unenforced);
}

static struct policy *parse_document(struct parse *p, const cJSON *root)
{
    static const char *const known[] = {
        "mode",   "allowedReadPaths", "deniedReadPaths", "allowedWritePaths", "deniedWritePaths", "network",
        "limits", "scratch",          "devices"};
    if (!cJSON_IsObject(root)) {
        add_error(p, "$", "the policy must be a JSON object, not %s", json_type_name(root));
        return NULL;
    }
    struct policy *pol = calloc(1, sizeof *pol);
    if (!pol) {
        p->oom = true;
        return NULL;
    }
    check_fields(p, root, "$", known, sizeof known / sizeof known[0]);
    parse_mode(p, root, pol);
    parse_path_list(p, root, "allowedReadPaths", &pol->allowed_read_paths);
    parse_path_list(p, root, "deniedReadPaths", &pol->denied_read_paths);
    parse_path_list(p, root, "allowedWritePaths", &pol->allowed_write_paths);
    parse_path_list(p, root, "deniedWritePaths", &pol->denied_write_paths);
    parse_string_list(p, root, "devices", "$", &pol->devices, device_path_problem);
    for (size_t i = 0; i < pol->devices.count; i++)
        normalize_path(pol->devices.items[i]);
    parse_network(p, root, &pol->network);
    parse_limits(p, root, &pol->limits);
    parse_scratch(p, root, &pol->scratch);
    if (p->errors->count == 0 && !p->oom)
        check_combinations(p, pol);
    return pol;
}

/* Where byte `at` of `text` is, as an editor shows it: "line L, column C"
 * (both from 1; a column counts bytes). */
static void text_position(const char *text, size_t at, char *out, size_t outlen)
{
    size_t line = 1, column = 1;
    for (size_t i = 0; i < at; i++) {
        if (text[i] == '\n') {
            line++;
            column = 1;
        } else {
            column++;
        }
    }
    snprintf(out, outlen, "line %zu, column %zu", line, column);
}

struct policy *policy_parse(const char *text, size_t len, struct policy_errors *errors)
{
    struct parse p = {.errors = errors};
    memset(errors, 0, sizeof *errors);
    if (len > POLICY_MAX_BYTES) {
        add_error(&p, "$", "the policy is larger than the limit of 1 MiB");
        return NULL;
    }
    char *copy = malloc(len + 1);
    if (!copy) {
        add_error(&p, "$", "out of memory");
        return NULL;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    size_t offset = 0;
    const char *bad = json_text_check(copy, len, &offset);
    if (bad) {
        char where[64];
        text_position(copy, offset, where, sizeof where);
        add_error(&p, "$", "the policy %s (%s, byte %zu)", bad, where, offset);
        free(copy);
        return NULL;
    }
    /* Trailing content is checked here rather than by cJSON's
     * require_null_terminated, which misfires on length-bounded input. */
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(copy, len, &end, 0);
    if (root && end) {
        end += strspn(end, " \t\r\n");
        if (end != copy + len) {
            cJSON_Delete(root);
            root = NULL;
        }
    }
    if (!root) {
        size_t at = end && end >= copy && end <= copy + len ? (size_t)(end - copy) : 0;
        char where[64];
        text_position(copy, at, where, sizeof where);
        add_error(&p, "$", "the policy is not valid JSON (near %s, byte %zu)", where, at);
        free(copy);
        return NULL;
    }
    struct policy *pol = parse_document(&p, root);
    cJSON_Delete(root);
    free(copy);
    if (p.oom)
        add_error(&p, "$", "out of memory while parsing the policy");
    if (p.dropped) {
        char more[64];
        snprintf(more, sizeof more, "and %zu more problem%s", p.dropped, p.dropped == 1 ? "" : "s");
        append_error(&p, "$", more);
    }
    if (errors->count) {
        policy_free(pol);
        return NULL;
    }
    return pol;
}

static void string_list_free(struct string_list *l)
{
    string_array_free(&l->items, &l->count);
}

void policy_free(struct policy *policy)
{
    if (!policy)
        return;
    string_list_free(&policy->allowed_read_paths);
    string_list_free(&policy->denied_read_paths);
    string_list_free(&policy->allowed_write_paths);
    string_list_free(&policy->denied_write_paths);
    string_list_free(&policy->devices);
    string_list_free(&policy->network.allowed_unix_sockets);
    string_list_free(&policy->network.allowed_hosts);
    string_list_free(&policy->network.allowed_internal_hosts);
    if (policy->network.upstream_url) {
        wipe_secret(policy->network.upstream_url, strlen(policy->network.upstream_url));
        free(policy->network.upstream_url);
    }
    free(policy);
}

void policy_errors_free(struct policy_errors *errors)
{
    for (size_t i = 0; i < errors->count; i++)
        free(errors->items[i]);
    free(errors->items);
    memset(errors, 0, sizeof *errors);
}

char *policy_errors_join(const struct policy_errors *errors)
{
    size_t need = 1;
    for (size_t i = 0; i < errors->count; i++)
        need += strlen(errors->items[i]) + 2;
    char *out = malloc(need);
    if (!out)
        return NULL;
    out[0] = '\0';
    for (size_t i = 0; i < errors->count; i++) {
        if (i)
            strcat(out, "; ");
        strcat(out, errors->items[i]);
    }
    return out;
}
