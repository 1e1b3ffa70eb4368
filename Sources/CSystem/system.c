#define _GNU_SOURCE
#include "CSystem.h"

#include <stdio.h>
#include <fcntl.h>
#include <time.h>

int haptics_semaphore_wait_until(sem_t *semaphore, long deadline_nanoseconds) {
    struct timespec deadline = {deadline_nanoseconds / 1000000000L, deadline_nanoseconds % 1000000000L};
    return sem_clockwait(semaphore, CLOCK_MONOTONIC, &deadline);
}

int haptics_format_fixed(char *buffer, size_t size, int decimals, double value) {
    return snprintf(buffer, size, "%.*f", decimals, value);
}

int haptics_start_writeback(int fd, long long offset, long long count) {
    return sync_file_range(fd, offset, count, SYNC_FILE_RANGE_WRITE);
}

int haptics_reserve_space(int fd, long long offset, long long count) {
    return fallocate(fd, FALLOC_FL_KEEP_SIZE, offset, count);
}
