/*
 * resolver.h — name resolution that never blocks the event loop.
 *
 * A small, fixed pool of worker threads runs the lookups, and each finished
 * job is handed back to the loop as a pointer written to a pipe the loop
 * polls.  The pool size bounds the concurrent lookups; the loop's
 * connection cap bounds the queue.  The lookup itself is one of two
 * (resolver_lookup): c-ares on Linux (resolver_ares.c), the system's
 * getaddrinfo on macOS (resolver_libc.c).
 */
#ifndef HAS_EGRESS_RESOLVER_H
#define HAS_EGRESS_RESOLVER_H

#include <stddef.h>

#include "policy/addr_class.h"

#define RESOLVER_THREADS 4
#define RESOLVER_MAX_ADDRS 16
/* A lookup ends within this, answered or not (resolver_ares.c). */
#define RESOLVER_DEADLINE_MS 8000
#define RESOLVER_WHY_MAX 160

struct resolve_job {
    char host[256];
    void *owner;                /* the loop's connection; never touched by workers */
    int error;                  /* 0, or nonzero with why[] set */
    char why[RESOLVER_WHY_MAX]; /* why the name did not resolve, one sentence */
    struct ip_addr addrs[RESOLVER_MAX_ADDRS];
    size_t count;
    struct resolve_job *next; /* queue link, workers only */
};

/* The lookup itself, in the calling thread: what a worker does with a job
 * (--explain's verdict on a name uses it too).  Fills addrs/count, or sets
 * error and why. */
void resolver_lookup(struct resolve_job *job);

/* Start the workers.  Returns the descriptor to poll for finished jobs, or
 * -1 with errno. */
int resolver_start(void);

/* Queue a job (owned by the caller until it comes back).  0 or -1. */
int resolver_submit(struct resolve_job *job);

/* A finished job, read from the descriptor; NULL when none is ready. */
struct resolve_job *resolver_take(int fd);

#endif
