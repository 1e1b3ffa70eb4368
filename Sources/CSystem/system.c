#define _GNU_SOURCE
#include "CSystem.h"

#include <stdio.h>
#include <time.h>

int haptics_semaphore_wait(sem_t *semaphore, long nanoseconds) {
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += nanoseconds / 1000000000L;
    deadline.tv_nsec += nanoseconds % 1000000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec += 1;
        deadline.tv_nsec -= 1000000000L;
    }
    return sem_clockwait(semaphore, CLOCK_MONOTONIC, &deadline);
}

int haptics_format_fixed(char *buffer, size_t size, int decimals, double value) {
    return snprintf(buffer, size, "%.*f", decimals, value);
}
