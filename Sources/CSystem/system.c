#define _GNU_SOURCE
#include "CSystem.h"

#include <stdio.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/vfs.h>
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

int haptics_open_direct(const char *path) {
    return open(path, O_WRONLY | O_DIRECT | O_CLOEXEC);
}

int haptics_is_in_memory(int fd) {
    struct statfs info;
    if (fstatfs(fd, &info) != 0) return 0;
    return info.f_type == TMPFS_MAGIC || info.f_type == RAMFS_MAGIC;
}
