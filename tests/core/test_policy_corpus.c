/*
 * test_policy_corpus.c — runs every document of tests/core/policy-corpus
 * through policy_parse():
 *   valid/NAME.json          must be accepted;
 *   invalid/NAME.json        must be refused, and the set of JSON paths the
 *   invalid-text/NAME.json   errors name must equal NAME.paths exactly;
 *                            each line of NAME.messages, where there is one,
 *                            must be one of the errors, word for word.
 * The TypeScript validator runs the same valid/ and invalid/ documents
 * (release/npm), so both sides are held to one list of verdicts.
 */
#include "config.h"

#include <CUnit/Basic.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "../cunit_run.h"

static char corpus_dir[4096];

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, used = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + used, 1, cap - used, f)) > 0) {
        used += got;
        if (used == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (buf)
        *len = used;
    return buf;
}

/* The JSON path an error item names: everything before the first ": ". */
static int error_names(const struct policy_errors *e, const char *path)
{
    size_t n = strlen(path);
    for (size_t i = 0; i < e->count; i++)
        if (strncmp(e->items[i], path, n) == 0 && strncmp(e->items[i] + n, ": ", 2) == 0)
            return 1;
    return 0;
}

static int expected_names(char *paths, const char *path)
{
    size_t n = strlen(path);
    for (char *line = paths; line && *line;) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        if (len == n && strncmp(line, path, n) == 0)
            return 1;
        line = nl ? nl + 1 : NULL;
    }
    return 0;
}

/* Every line of NAME.messages (absent: nothing to check) is an error item. */
static int check_messages(const char *dir, const char *name, const struct policy_errors *e)
{
    char path[4600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    strcpy(path + strlen(path) - strlen(".json"), ".messages");
    size_t len;
    char *text = slurp(path, &len);
    if (!text)
        return 1;
    text = realloc(text, len + 1);
    text[len] = '\0';
    int ok = 1;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        size_t i = 0;
        while (i < e->count && strcmp(e->items[i], line) != 0)
            i++;
        if (i == e->count) {
            printf("\n  %s: no error reads \"%s\"\n", name, line);
            ok = 0;
        }
    }
    free(text);
    return ok;
}

static int check_invalid(const char *dir, const char *name, const char *text, size_t len)
{
    char path[4600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    strcpy(path + strlen(path) - strlen(".json"), ".paths");
    size_t plen;
    char *paths = slurp(path, &plen);
    if (!paths) {
        printf("\n  %s: no .paths file beside it\n", name);
        return 0;
    }
    paths = realloc(paths, plen + 1);
    paths[plen] = '\0';
    struct policy_errors errors;
    struct policy *p = policy_parse(text, len, &errors);
    int ok = p == NULL;
    if (!ok)
        printf("\n  %s: accepted, must be refused\n", name);
    for (char *line = paths; ok && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        if (*line && !error_names(&errors, line)) {
            printf("\n  %s: no error names %s\n", name, line);
            ok = 0;
        }
        if (nl)
            *nl = '\n';
        line = nl ? nl + 1 : line + strlen(line);
    }
    for (size_t i = 0; ok && i < errors.count; i++) {
        char named[512];
        snprintf(named, sizeof named, "%s", errors.items[i]);
        char *colon = strstr(named, ": ");
        if (colon)
            *colon = '\0';
        if (!expected_names(paths, named)) {
            printf("\n  %s: unexpected error: %s\n", name, errors.items[i]);
            ok = 0;
        }
    }
    if (ok)
        ok = check_messages(dir, name, &errors);
    policy_free(p);
    policy_errors_free(&errors);
    free(paths);
    return ok;
}

static int check_valid(const char *name, const char *text, size_t len)
{
    struct policy_errors errors;
    struct policy *p = policy_parse(text, len, &errors);
    if (!p) {
        char *joined = policy_errors_join(&errors);
        printf("\n  %s: refused: %s\n", name, joined);
        free(joined);
    }
    policy_free(p);
    policy_errors_free(&errors);
    return p != NULL;
}

/* Returns the number of documents checked; counts failures in *failed. */
static size_t run_dir(const char *sub, int valid, size_t *failed)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/%s", corpus_dir, sub);
    DIR *d = opendir(dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    size_t checked = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0)
            continue;
        char path[4600];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = 0;
        char *text = slurp(path, &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        int ok = valid ? check_valid(e->d_name, text, len) : check_invalid(dir, e->d_name, text, len);
        if (!ok)
            (*failed)++;
        checked++;
        free(text);
    }
    closedir(d);
    return checked;
}

static void test_valid_documents(void)
{
    size_t failed = 0;
    CU_ASSERT(run_dir("valid", 1, &failed) >= 15);
    CU_ASSERT_EQUAL(failed, 0);
}

static void test_invalid_documents(void)
{
    size_t failed = 0;
    CU_ASSERT(run_dir("invalid", 0, &failed) >= 60);
    CU_ASSERT_EQUAL(failed, 0);
}

static void test_invalid_text(void)
{
    size_t failed = 0;
    CU_ASSERT(run_dir("invalid-text", 0, &failed) >= 15);
    CU_ASSERT_EQUAL(failed, 0);
}

int main(void)
{
    const char *src = getenv("HAS_SRCDIR");
    snprintf(corpus_dir, sizeof corpus_dir, "%s/tests/core/policy-corpus", src ? src : ".");
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("policy corpus", NULL, NULL);
    CU_add_test(s, "valid/ accepted", test_valid_documents);
    CU_add_test(s, "invalid/ refused with exactly the listed paths", test_invalid_documents);
    CU_add_test(s, "invalid-text/ refused with exactly the listed paths", test_invalid_text);
    return cunit_run_registry();
}
