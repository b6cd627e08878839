/*
 * synth_table.h — the transparent front-end's synthetic addresses
 * (backends/egress-proxy/README.md, "Transparent front-end"): which name of
 * allowedHosts each address of 127.64.0.0/10 stands for inside the sandbox,
 * and on which ports it is relayed.  Pure.
 *
 * Exact names get a slot each, fixed when the table is built, in policy
 * order; names a `*.suffix` entry allows share a pool of SYNTH_POOL slots,
 * handed out on their first lookup and kept for the run (never reused, so a
 * cached answer never comes to mean another name).  Every slot listens on
 * every port of the table; the policy decides per connection.
 */
#ifndef HAS_EGRESS_SYNTH_TABLE_H
#define HAS_EGRESS_SYNTH_TABLE_H

#include <stddef.h>

#include "policy/destination.h"

#define SYNTH_NET 0x7f400000u /* 127.64.0.0/10: loopback, so local to the sandbox */
#define SYNTH_PREFIX 10
#define SYNTH_POOL 16 /* slots for names a wildcard allows */
#define SYNTH_MAX_SLOTS 64
#define SYNTH_MAX_PORTS 16
#define SYNTH_MAX_LISTENERS 256 /* slots x ports: listening sockets handed over */
#define SYNTH_WEB_PORTS \
    {                   \
        80, 443         \
    } /* what an entry without a port opens */

struct synth_table {
    size_t fixed;                                       /* slots of exact names, 0..fixed-1 */
    size_t slots;                                       /* fixed + the pool */
    size_t assigned;                                    /* slots with a name */
    char names[SYNTH_MAX_SLOTS][HOST_NAME_MAX_LEN + 2]; /* as struct host_rule's text */
    unsigned short ports[SYNTH_MAX_PORTS];
    size_t nports;
};

/*
 * The rules the transparent front-end decides by, into out (2 * n
 * entries): every name rule without a port becomes one rule per
 * SYNTH_WEB_PORTS port; literal rules are left out (a literal is never a
 * DNS answer: literals need the proxy).  Returns how many.
 */
size_t synth_rules(const struct host_rule *in, size_t n, struct host_rule *out);

/* Build the table from those rules.  -1 with a message naming the limit
 * when the policy has more names, ports or listeners than it can hold. */
int synth_table_build(const struct host_policy *rules, struct synth_table *t, char *err, size_t errlen);

/* Both steps for a policy: its derived rules into *derived (an array the
 * caller frees, derived->rules) and the table built from them.  -1 with a
 * message (out of memory, or a limit). */
int synth_setup(const struct host_policy *policy, struct host_policy *derived, struct synth_table *t,
                char *err, size_t errlen);

/* The slot that answers `name` (normalised, and allowed by a rule: the
 * caller checks): its fixed slot, else the pool slot it already has or a
 * new one.  -1 when the pool is full. */
int synth_table_slot(struct synth_table *t, const char *name);

/* The address of a slot, network byte order. */
void synth_slot_addr(size_t slot, unsigned char out[4]);

/* The name a synthetic address stands for, or NULL (not one of ours, or not
 * handed out yet). */
const char *synth_table_name(const struct synth_table *t, const unsigned char addr[4]);

#endif
