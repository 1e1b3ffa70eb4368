#define _GNU_SOURCE
#include "CSystem.h"

#include <stdio.h>
#include <time.h>

int haptics_semaphore_wait_until(sem_t *semaphore, long deadline_nanoseconds) {
    struct timespec deadline = {deadline_nanoseconds / 1000000000L, deadline_nanoseconds % 1000000000L};
    return sem_clockwait(semaphore, CLOCK_MONOTONIC, &deadline);
}

int haptics_format_fixed(char *buffer, size_t size, int decimals, double value) {
    return snprintf(buffer, size, "%.*f", decimals, value);
}
