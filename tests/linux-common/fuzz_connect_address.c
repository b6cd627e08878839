/*
 * fuzz_connect_address — libFuzzer target for the one piece of the sandbox
 * init that reads bytes of the workload's choosing: the address of a
 * connect() call (connect_broker.c).  Any length, any bytes; the path it
 * copies out must stay in its buffer and be NUL-terminated (ASan/UBSan
 * report the rest).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linux_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The init copies at most a sockaddr_storage; give it exactly `size`
     * bytes of heap so that a read past them is caught. */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    char path[CONNECT_PATH_SIZE + 16];
    memset(path, 'X', sizeof path);
    if (connect_address_classify(copy, size, path) == CONNECT_ADDRESS_PATH &&
        (memchr(path, '\0', CONNECT_PATH_SIZE) == NULL || path[CONNECT_PATH_SIZE] != 'X'))
        abort(); /* not terminated within the buffer, or written past it */
    free(copy);
    return 0;
}
