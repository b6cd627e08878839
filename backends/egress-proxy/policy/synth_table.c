/*
 * synth_table.c — see synth_table.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/synth_table.h"

size_t synth_rules(const struct host_rule *in, size_t n, struct host_rule *out)
{
    static const unsigned short web[] = SYNTH_WEB_PORTS;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (in[i].kind != RULE_EXACT && in[i].kind != RULE_SUFFIX)
            continue;
        if (in[i].port) {
            out[k++] = in[i];
            continue;
        }
        for (size_t w = 0; w < sizeof web / sizeof web[0]; w++) {
            out[k] = in[i];
            out[k++].port = web[w];
        }
    }
    return k;
}

static int add_port(struct synth_table *t, unsigned short port)
{
    for (size_t i = 0; i < t->nports; i++)
        if (t->ports[i] == port)
            return 0;
    if (t->nports == SYNTH_MAX_PORTS)
        return -1;
    t->ports[t->nports++] = port;
    return 0;
}

static int find_name(const struct synth_table *t, const char *name)
{
    for (size_t i = 0; i < t->assigned; i++)
        if (strcmp(t->names[i], name) == 0)
            return (int)i;
    return -1;
}

int synth_table_build(const struct host_policy *rules, struct synth_table *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    size_t pool = 0;
    for (size_t i = 0; i < rules->count; i++) {
        const struct host_rule *r = &rules->rules[i];
        if (add_port(t, r->port) != 0) {
            snprintf(err, errlen,
                     "the transparent front-end relays at most %d ports (network.allowedHosts names more)",
                     SYNTH_MAX_PORTS);
            return -1;
        }
        if (r->kind == RULE_SUFFIX)
            pool = SYNTH_POOL;
        else if (r->kind == RULE_EXACT && find_name(t, r->text) < 0) {
            if (t->assigned == SYNTH_MAX_SLOTS - SYNTH_POOL) {
                snprintf(err, errlen,
                         "the transparent front-end serves at most %d exact names in network.allowedHosts",
                         SYNTH_MAX_SLOTS - SYNTH_POOL);
                return -1;
            }
            snprintf(t->names[t->assigned++], sizeof t->names[0], "%s", r->text);
        }
    }
    t->fixed = t->assigned;
    t->slots = t->fixed + pool;
    if (t->slots * t->nports > SYNTH_MAX_LISTENERS) {
        snprintf(err, errlen,
                 "the transparent front-end would need %zu listening sockets (names x ports), more than %d: "
                 "name fewer hosts or ports",
                 t->slots * t->nports, SYNTH_MAX_LISTENERS);
        return -1;
    }
    return 0;
}

int synth_setup(const struct host_policy *policy, struct host_policy *derived, struct synth_table *t,
                char *err, size_t errlen)
{
    derived->rules = calloc(2 * policy->count + 1, sizeof *derived->rules);
    if (!derived->rules) {
        snprintf(err, errlen, "out of memory building the transparent front-end's rules");
        return -1;
    }
    derived->count = synth_rules(policy->rules, policy->count, derived->rules);
    return synth_table_build(derived, t, err, errlen);
}

int synth_table_slot(struct synth_table *t, const char *name)
{
    int slot = find_name(t, name);
    if (slot >= 0)
        return slot;
    if (t->assigned == t->slots)
        return -1;
    snprintf(t->names[t->assigned], sizeof t->names[0], "%s", name);
    return (int)t->assigned++;
}

void synth_slot_addr(size_t slot, unsigned char out[4])
{
    unsigned long a = SYNTH_NET + 1 + slot;
    out[0] = (unsigned char)(a >> 24);
    out[1] = (unsigned char)(a >> 16);
    out[2] = (unsigned char)(a >> 8);
    out[3] = (unsigned char)a;
}

const char *synth_table_name(const struct synth_table *t, const unsigned char addr[4])
{
    unsigned long a =
        (unsigned long)addr[0] << 24 | (unsigned long)addr[1] << 16 | (unsigned long)addr[2] << 8 | addr[3];
    unsigned long mask = ~0ul << (32 - SYNTH_PREFIX) & 0xffffffffu;
    if ((a & mask) != SYNTH_NET || a - SYNTH_NET == 0 || a - SYNTH_NET - 1 >= t->assigned)
        return NULL;
    return t->names[a - SYNTH_NET - 1];
}
