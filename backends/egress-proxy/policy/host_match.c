/*
 * host_match.c — see host_match.h.  Matching is on normalised text for
 * names and on binary addresses for literals, so "::1", "[::1]" and
 * "0:0::1" are one literal, while a wildcard never matches a literal.
 */
#include "config.h"

#include <string.h>

#include "policy/host_match.h"

static char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

static bool name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

static bool numeric_label(const char *label, size_t n)
{
    if (n >= 2 && label[0] == '0' && label[1] == 'x') {
        for (size_t i = 2; i < n; i++)
            if (!((label[i] >= '0' && label[i] <= '9') || (label[i] >= 'a' && label[i] <= 'f')))
                return false;
        return true;
    }
    for (size_t i = 0; i < n; i++)
        if (label[i] < '0' || label[i] > '9')
            return false;
    return n > 0;
}

/* Lower-case `text` into out, drop one trailing dot, check label syntax. */
static enum host_parse_result normalise_name(const char *text, size_t len, char *out)
{
    if (len > 0 && text[len - 1] == '.')
        len--;
    if (len == 0 || len > HOST_NAME_MAX_LEN)
        return HOST_BAD_SYNTAX;
    size_t label_start = 0;
    for (size_t i = 0; i <= len; i++) {
        char c = i < len ? lower(text[i]) : '.';
        if (c == '.') {
            size_t n = i - label_start;
            if (n == 0 || n > 63)
                return HOST_BAD_SYNTAX;
            label_start = i + 1;
        } else if (!name_char(c)) {
            return HOST_BAD_SYNTAX;
        }
        if (i < len)
            out[i] = c;
    }
    out[len] = '\0';
    const char *last = strrchr(out, '.');
    last = last ? last + 1 : out;
    if (numeric_label(last, strlen(last)))
        return HOST_NUMERIC;
    return HOST_OK;
}

enum host_parse_result dest_host_parse(const char *text, size_t len, struct dest_host *out)
{
    memset(out, 0, sizeof *out);
    if (ip_literal_parse(text, len, &out->literal) == 0) {
        out->is_literal = true;
        return ip_format(&out->literal, out->name, sizeof out->name) == 0 ? HOST_OK : HOST_BAD_SYNTAX;
    }
    /* Brackets or a colon promise an IPv6 literal that did not parse. */
    if (memchr(text, '[', len) || memchr(text, ':', len))
        return HOST_BAD_SYNTAX;
    return normalise_name(text, len, out->name);
}

void host_rule_compile(const char *entry, size_t host_len, unsigned port, struct host_rule *out)
{
    memset(out, 0, sizeof *out);
    out->entry = entry;
    out->port = (unsigned short)port;
    if (ip_literal_parse(entry, host_len, &out->literal) == 0) {
        out->kind = RULE_LITERAL;
        return;
    }
    bool suffix = host_len > 2 && entry[0] == '*' && entry[1] == '.';
    const char *name = suffix ? entry + 2 : entry;
    /* A numeric-looking name is still a name here; it just never equals a
     * request, because such requests are refused before matching. */
    enum host_parse_result r = normalise_name(name, host_len - (size_t)(name - entry), out->text);
    if (r == HOST_BAD_SYNTAX) {
        out->kind = RULE_NEVER;
        return;
    }
    out->kind = suffix ? RULE_SUFFIX : RULE_EXACT;
}

bool host_name_beneath(const char *name, const char *suffix)
{
    size_t nl = strlen(name), sl = strlen(suffix);
    /* "example.com" has "a.example.com" beneath it, not itself nor "badexample.com". */
    return nl > sl + 1 && name[nl - sl - 1] == '.' && strcmp(name + nl - sl, suffix) == 0;
}

static bool rule_names(const struct host_rule *rule, const struct dest_host *host)
{
    switch (rule->kind) {
    case RULE_LITERAL: return host->is_literal && ip_equal(&rule->literal, &host->literal);
    case RULE_EXACT: return !host->is_literal && strcmp(rule->text, host->name) == 0;
    case RULE_SUFFIX: return !host->is_literal && host_name_beneath(host->name, rule->text);
    default: return false;
    }
}

const struct host_rule *host_rules_match(const struct host_rule *rules, size_t count,
                                         const struct dest_host *host, unsigned port)
{
    for (size_t i = 0; i < count; i++)
        if (rule_names(&rules[i], host) && (rules[i].port == 0 || rules[i].port == port))
            return &rules[i];
    return NULL;
}

const struct host_rule *host_rules_name(const struct host_rule *rules, size_t count,
                                        const struct dest_host *host)
{
    for (size_t i = 0; i < count; i++)
        if (rule_names(&rules[i], host))
            return &rules[i];
    return NULL;
}
