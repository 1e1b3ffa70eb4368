#ifndef HAPTICS_CSYSTEM_H
#define HAPTICS_CSYSTEM_H

#include <semaphore.h>
#include <stddef.h>

/// Waits on `semaphore` until the monotonic clock reads `deadline_nanoseconds` at the latest
/// (`sem_clockwait`, a GNU extension Swift's Glibc module does not declare): 0 when taken, -1
/// with errno set (ETIMEDOUT, EINTR) otherwise. A change of the wall clock cannot stretch the wait.
int haptics_semaphore_wait_until(sem_t *semaphore, long deadline_nanoseconds);

/// Writes `value` with `decimals` digits after the point into `buffer`, as printf's `%.*f`
/// (correctly rounded, "-0.000" kept, "inf" and "nan" spelled out); returns the length the text
/// needed, which is `size` or more when it did not fit. Swift cannot call variadic C functions,
/// and its `CVarArg` route costs each process a conformance scan on first use.
int haptics_format_fixed(char *buffer, size_t size, int decimals, double value);

/// Whether this processor and system run AVX2 code (checked with cpuid and xgetbv); always 0
/// off x86-64.
int haptics_has_avx2(void);

/// Converts the first samples of `source` to little-endian 16-bit samples at `destination`
/// (unaligned), exactly as Swift's int16Sample does, eight at a time with AVX2; returns how many
/// it converted (a multiple of 8; the rest is the caller's). Converts nothing where
/// haptics_has_avx2() is 0. Never locks or allocates: fit for the audio thread.
size_t haptics_convert_int16_avx2(const float *source, size_t count, void *destination);

/// Starts writing `count` bytes of the file `fd` from `offset` back to its disk and returns
/// without waiting (`sync_file_range` with `SYNC_FILE_RANGE_WRITE`, which Swift's Glibc module
/// does not declare): 0, or -1 with errno set. Makes nothing durable by itself.
int haptics_start_writeback(int fd, long long offset, long long count);

/// Opens `path` for writing around the page cache (`O_DIRECT`, which Swift's Glibc module does
/// not declare): the descriptor, or -1 with errno set (EINVAL where the file system cannot).
int haptics_open_direct(const char *path);

/// Whether the file `fd` lives in memory (tmpfs, ramfs), where the page cache is the storage
/// and writing around it gains nothing: 1 or 0.
int haptics_is_in_memory(int fd);

#endif
