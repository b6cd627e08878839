/*
 * resolver.c — see resolver.h.  The workers are started after the egress
 * process installed its seccomp filter, so they are confined like the loop.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "process/egress_compat.h"
#include "process/resolver.h"

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queue_cond = PTHREAD_COND_INITIALIZER;
static struct resolve_job *queue_head, *queue_tail;
static int done_pipe[2] = {-1, -1};

static void *worker(void *unused)
{
    (void)unused;
    for (;;) {
        pthread_mutex_lock(&queue_lock);
        while (!queue_head)
            pthread_cond_wait(&queue_cond, &queue_lock);
        struct resolve_job *job = queue_head;
        queue_head = job->next;
        if (!queue_head)
            queue_tail = NULL;
        pthread_mutex_unlock(&queue_lock);
        resolver_lookup(job);
        /* A pointer is far below PIPE_BUF, so each write is atomic; the
         * pipe is blocking on this end, so a busy loop only slows workers. */
        ssize_t w;
        do
            w = write(done_pipe[1], &job, sizeof job);
        while (w < 0 && errno == EINTR);
    }
    return NULL;
}

int resolver_start(void)
{
    if (egress_pipe_cloexec(done_pipe) != 0)
        return -1;
    if (fcntl(done_pipe[0], F_SETFL, O_NONBLOCK) != 0)
        return -1;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    for (int i = 0; i < RESOLVER_THREADS; i++) {
        pthread_t t;
        int err = pthread_create(&t, &attr, worker, NULL);
        if (err) {
            pthread_attr_destroy(&attr);
            errno = err;
            return -1;
        }
    }
    pthread_attr_destroy(&attr);
    return done_pipe[0];
}

int resolver_submit(struct resolve_job *job)
{
    job->next = NULL;
    pthread_mutex_lock(&queue_lock);
    if (queue_tail)
        queue_tail->next = job;
    else
        queue_head = job;
    queue_tail = job;
    pthread_cond_signal(&queue_cond);
    pthread_mutex_unlock(&queue_lock);
    return 0;
}

struct resolve_job *resolver_take(int fd)
{
    struct resolve_job *job;
    ssize_t r;
    do
        r = read(fd, &job, sizeof job);
    while (r < 0 && errno == EINTR);
    return r == (ssize_t)sizeof job ? job : NULL;
}
