/*
 * shared_hog.c — takes, or probes, the per-user resources a sandbox shares
 * with its caller (tests/linux-common/shared-limits.sh).
 *
 *   shared_hog sig-fill DIR   queue SIGRTMIN to itself (blocked) until the
 *                             kernel refuses; write "COUNT ERRNO" to
 *                             DIR/hog.count, hold them until DIR/hog.done
 *                             exists (at most 20 s)
 *   shared_hog mq-fill DIR    make POSIX message queues (unlinked at once,
 *                             held open) of the default size, then of the
 *                             smallest, until the kernel refuses; the same
 *                             report and hold
 *   shared_hog sig-probe      one sigqueue() to itself and one signalling
 *                             timer_create(): "sigqueue ok", "timer ok" or
 *                             the error of each
 *   shared_hog mq-probe       one queue of the default size, one message:
 *                             "mq ok" or the error
 */
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Far above any limit a test host has; a loop that never fails ends here. */
#define MAX_TAKEN 10000000L

static const char *errno_name(int e)
{
    switch (e) {
    case EAGAIN: return "EAGAIN";
    case EMFILE: return "EMFILE";
    case ENFILE: return "ENFILE";
    case ENOMEM: return "ENOMEM";
    case ENOSPC: return "ENOSPC";
    case EPERM: return "EPERM";
    case ENOSYS: return "ENOSYS";
    case 0: return "none";
    default: return strerror(e);
    }
}

static void block_rtmin(void)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGRTMIN);
    sigprocmask(SIG_BLOCK, &set, NULL);
}

/* Top the queue up again: a signal of the same user delivered elsewhere
 * (a parallel test's SIGCHLD) frees a slot of the per-user count. */
static void sig_refill(void)
{
    while (sigqueue(getpid(), SIGRTMIN, (union sigval){.sival_int = 1}) == 0)
        ;
}

/* Tell the test how many were taken, and why no more; hold until it is
 * done, calling `refill` (or nothing) between looks. */
static int report_and_hold(const char *dir, long taken, int why, void (*refill)(void))
{
    char path[4096], tmp[4096], done[4096];
    snprintf(path, sizeof path, "%s/hog.count", dir);
    snprintf(tmp, sizeof tmp, "%s/hog.count.tmp", dir);
    snprintf(done, sizeof done, "%s/hog.done", dir);
    FILE *f = fopen(tmp, "w");
    if (!f || fprintf(f, "%ld %s\n", taken, errno_name(why)) < 0 || fclose(f) != 0 ||
        rename(tmp, path) != 0) {
        perror(tmp);
        return 1;
    }
    for (int i = 0; i < 20000 && access(done, F_OK) != 0; i++) {
        if (refill)
            refill();
        usleep(1000);
    }
    return 0;
}

static int sig_fill(const char *dir)
{
    block_rtmin();
    long n = 0;
    int why = 0;
    for (; n < MAX_TAKEN; n++)
        if (sigqueue(getpid(), SIGRTMIN, (union sigval){.sival_int = 1}) != 0) {
            why = errno;
            break;
        }
    return report_and_hold(dir, n, why, sig_refill);
}

/* Queues of this size until one is refused: how many, *why. */
static long mq_take(struct mq_attr *attr, int *why)
{
    static long serial;
    long n = 0;
    for (; n < 100000; n++) {
        char name[64];
        snprintf(name, sizeof name, "/has-hog-%d-%ld", (int)getpid(), serial++);
        mqd_t q = mq_open(name, O_CREAT | O_EXCL | O_RDWR, 0600, attr);
        if (q == (mqd_t)-1) {
            *why = errno;
            break;
        }
        mq_unlink(name); /* its bytes stay charged while it is open */
    }
    return n;
}

static int mq_fill(const char *dir)
{
    int why = 0, small_why = 0;
    long n = mq_take(NULL, &why);
    /* The rest, in the smallest queues the kernel makes (why those stop
     * is not reported: the first refusal says which limit it was). */
    struct mq_attr small = {.mq_maxmsg = 1, .mq_msgsize = 1};
    n += mq_take(&small, &small_why);
    return report_and_hold(dir, n, why, NULL);
}

static int sig_probe(void)
{
    block_rtmin();
    if (sigqueue(getpid(), SIGRTMIN, (union sigval){.sival_int = 1}) == 0)
        puts("sigqueue ok");
    else
        printf("sigqueue %s\n", errno_name(errno));
    struct sigevent ev = {.sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGRTMIN};
    timer_t t;
    if (timer_create(CLOCK_MONOTONIC, &ev, &t) == 0)
        puts("timer ok");
    else
        printf("timer %s\n", errno_name(errno));
    return 0;
}

static int mq_probe(void)
{
    char name[64];
    snprintf(name, sizeof name, "/has-probe-%d", (int)getpid());
    mqd_t q = mq_open(name, O_CREAT | O_EXCL | O_RDWR, 0600, NULL);
    if (q == (mqd_t)-1) {
        printf("mq %s\n", errno_name(errno));
        return 0;
    }
    mq_unlink(name);
    if (mq_send(q, "x", 1, 0) == 0)
        puts("mq ok");
    else
        printf("mq send %s\n", errno_name(errno));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "sig-fill") == 0)
        return sig_fill(argv[2]);
    if (argc == 3 && strcmp(argv[1], "mq-fill") == 0)
        return mq_fill(argv[2]);
    if (argc == 2 && strcmp(argv[1], "sig-probe") == 0)
        return sig_probe();
    if (argc == 2 && strcmp(argv[1], "mq-probe") == 0)
        return mq_probe();
    fprintf(stderr, "usage: shared_hog sig-fill DIR | mq-fill DIR | sig-probe | mq-probe\n");
    return 2;
}
