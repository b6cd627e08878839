/*
 * sbpl_reader.c — TEST ONLY strict SBPL reader (see sbpl_reader.h).
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbpl_buf.h"
#include "sbpl_reader.h"

struct reader {
    const char *start;
    const char *p;
    struct sbpl_read *r;
};

static int error(struct reader *rd, const char *what)
{
    snprintf(rd->r->error, sizeof rd->r->error, "%s at offset %td", what, rd->p - rd->start);
    return -1;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_delimiter(char c)
{
    return c == '\0' || c == '(' || c == ')' || c == '"' || c == ';' || is_space(c);
}

static void skip_blank(struct reader *rd)
{
    for (;;) {
        if (is_space(*rd->p))
            rd->p++;
        else if (*rd->p == ';')
            rd->p += strcspn(rd->p, "\n");
        else
            return;
    }
}

static struct sbpl_node *node(enum sbpl_node_kind kind, char *text)
{
    struct sbpl_node *n = calloc(1, sizeof *n);
    if (n) {
        n->kind = kind;
        n->text = text;
    } else {
        free(text);
    }
    return n;
}

static void node_free(struct sbpl_node *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->count; i++)
        node_free(n->items[i]);
    free(n->items);
    free(n->text);
    free(n);
}

static int push(struct reader *rd, struct sbpl_node *list, struct sbpl_node *item)
{
    if (!item)
        return error(rd, "out of memory");
    struct sbpl_node **grown = realloc(list->items, (list->count + 1) * sizeof *grown);
    if (!grown) {
        node_free(item);
        return error(rd, "out of memory");
    }
    list->items = grown;
    list->items[list->count++] = item;
    return 0;
}

/* rd->p is at the opening quote. */
static struct sbpl_node *read_string(struct reader *rd)
{
    struct sbpl_buf s;
    sbpl_buf_init(&s);
    sbpl_buf_append(&s, "");
    for (rd->p++; *rd->p != '"'; rd->p++) {
        unsigned char c = (unsigned char)*rd->p;
        const char *bad = c == '\0'                 ? "unterminated string"
                          : (c < 0x20 || c == 0x7f) ? "control byte inside a string"
                                                    : NULL;
        if (c == '\\') {
            rd->p++;
            if (*rd->p != '\\' && *rd->p != '"')
                bad = "unexpected escape in a string";
        }
        if (bad) {
            sbpl_buf_free(&s);
            error(rd, bad);
            return NULL;
        }
        sbpl_buf_append_n(&s, rd->p, 1);
    }
    rd->p++;
    char *text = sbpl_buf_take(&s);
    if (!text) {
        error(rd, "out of memory");
        return NULL;
    }
    return node(SBPL_NODE_STRING, text);
}

static struct sbpl_node *read_symbol(struct reader *rd)
{
    const char *from = rd->p;
    while (!is_delimiter(*rd->p))
        rd->p++;
    size_t n = (size_t)(rd->p - from);
    char *text = malloc(n + 1);
    if (!text) {
        error(rd, "out of memory");
        return NULL;
    }
    memcpy(text, from, n);
    text[n] = '\0';
    return node(SBPL_NODE_SYMBOL, text);
}

/* rd->p is just after "(": read items up to the matching ")". */
static int read_list_items(struct reader *rd, struct sbpl_node *list)
{
    for (;;) {
        skip_blank(rd);
        char c = *rd->p;
        if (c == '\0')
            return error(rd, "unbalanced '('");
        if (c == ')') {
            rd->p++;
            return 0;
        }
        if (c == '#')
            return error(rd, "a #-literal (regex), which the generator must never write");
        struct sbpl_node *item;
        if (c == '(') {
            rd->p++;
            item = node(SBPL_NODE_LIST, NULL);
            if (item && read_list_items(rd, item) != 0) {
                node_free(item);
                return -1;
            }
        } else if (c == '"') {
            if (!(item = read_string(rd)))
                return -1;
        } else {
            if (!(item = read_symbol(rd)))
                return -1;
        }
        if (push(rd, list, item) != 0)
            return -1;
    }
}

static void skeleton_of(struct sbpl_buf *b, const struct sbpl_node *n)
{
    switch (n->kind) {
    case SBPL_NODE_STRING: sbpl_buf_append(b, "S"); break;
    case SBPL_NODE_SYMBOL: sbpl_buf_append(b, n->text); break;
    case SBPL_NODE_LIST:
        sbpl_buf_append(b, "(");
        for (size_t i = 0; i < n->count; i++) {
            if (i)
                sbpl_buf_append(b, " ");
            skeleton_of(b, n->items[i]);
        }
        sbpl_buf_append(b, ")");
        break;
    }
}

static int collect_strings(struct sbpl_read *r, const struct sbpl_node *n)
{
    if (n->kind == SBPL_NODE_STRING) {
        char **grown = realloc(r->strings, (r->string_count + 1) * sizeof *grown);
        if (!grown)
            return -1;
        r->strings = grown;
        r->strings[r->string_count++] = n->text;
    }
    for (size_t i = 0; i < n->count; i++)
        if (collect_strings(r, n->items[i]) != 0)
            return -1;
    return 0;
}

static int summarise(struct reader *rd)
{
    struct sbpl_buf b;
    sbpl_buf_init(&b);
    for (size_t i = 0; i < rd->r->top->count; i++) {
        skeleton_of(&b, rd->r->top->items[i]);
        sbpl_buf_append(&b, "\n");
    }
    sbpl_buf_append(&b, "");
    if (!(rd->r->skeleton = sbpl_buf_take(&b)) || collect_strings(rd->r, rd->r->top) != 0)
        return error(rd, "out of memory");
    return 0;
}

int sbpl_read(const char *text, struct sbpl_read *r)
{
    memset(r, 0, sizeof *r);
    struct reader rd = {.start = text, .p = text, .r = r};
    if (!(r->top = node(SBPL_NODE_LIST, NULL)))
        return error(&rd, "out of memory");
    for (;;) {
        skip_blank(&rd);
        if (*rd.p == '\0')
            break;
        if (*rd.p != '(')
            return error(&rd, *rd.p == ')' ? "unbalanced ')'" : "an atom outside any form");
        rd.p++;
        struct sbpl_node *form = node(SBPL_NODE_LIST, NULL);
        if (!form)
            return error(&rd, "out of memory");
        if (read_list_items(&rd, form) != 0) {
            node_free(form);
            return -1;
        }
        if (push(&rd, r->top, form) != 0)
            return -1;
    }
    return summarise(&rd);
}

void sbpl_read_free(struct sbpl_read *r)
{
    node_free(r->top);
    free(r->skeleton);
    free(r->strings);
    memset(r, 0, sizeof *r);
}
