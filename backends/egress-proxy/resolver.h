/*
 * resolver.h — name resolution that never blocks the event loop.
 *
 * getaddrinfo(3) is blocking and has no portable cancellation; a small,
 * fixed pool of worker threads runs it, and each finished job is handed back
 * to the loop as a pointer written to a pipe the loop polls.  The pool size
 * bounds the concurrent lookups; the loop's connection cap bounds the queue.
 */
#ifndef HAS_EGRESS_RESOLVER_H
#define HAS_EGRESS_RESOLVER_H

#include <stddef.h>

#include "addr_class.h"

#define RESOLVER_THREADS 4
#define RESOLVER_MAX_ADDRS 16

struct resolve_job {
    char host[256];
    void *owner;                   /* the loop's connection; never touched by workers */
    int error;                     /* 0, or a getaddrinfo EAI_* code */
    struct ip_addr addrs[RESOLVER_MAX_ADDRS];
    size_t count;
    struct resolve_job *next;      /* queue link, workers only */
};

/* The lookup itself, in the calling thread: what a worker does with a job
 * (--explain's verdict on a name uses it too). */
void resolver_lookup(struct resolve_job *job);

/* Start the workers.  Returns the descriptor to poll for finished jobs, or
 * -1 with errno. */
int resolver_start(void);

/* Queue a job (owned by the caller until it comes back).  0 or -1. */
int resolver_submit(struct resolve_job *job);

/* A finished job, read from the descriptor; NULL when none is ready. */
struct resolve_job *resolver_take(int fd);

#endif
