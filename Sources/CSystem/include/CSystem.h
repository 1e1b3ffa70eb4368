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

/// Multiplies the first samples of `mono` by `gain` and converts the products as
/// haptics_convert_int16_avx2 does, in one pass, eight at a time with AVX2, for products within
/// ±1 only: a product beyond ±1 or not a number is converted to no particular value, and the
/// caller, who sees it in the figures, converts the block again. Stores the largest magnitude
/// of the products (NaNs ignored) at `peak` and the eight lanes' sums of their squares (lane j
/// sums the samples j, j + 8, …) at `squares`. Returns how many samples it did (a multiple of 8; the rest is
/// the caller's): nothing where haptics_has_avx2() is 0.
size_t haptics_gain_convert_int16_avx2(const float *mono, size_t count, float gain, void *destination, float *peak, float *squares);

/// A continuous voice's whole groups of eight samples (HapticsRender's `Voice.renderStretch`)
/// with AVX2: for each of `groups` groups, adds `(base + step · (k + 1…8)) · sin` to the next
/// eight samples of `out` (k = `first`, then eight more a group) and turns the carrier's eight
/// lanes (`sines`, `cosines`, updated) by the rotation. Returns 1, or 0 having done nothing
/// where haptics_has_avx2() is 0. The same samples as the Swift loop, bit for bit.
int haptics_continuous_groups_avx2(
    float *out, size_t groups, float base, float step, long first, float *sines, float *cosines, float rotationSin, float rotationCos);

/// A transient's whole groups (`Voice.renderTransientStretch`) with AVX2: adds
/// `peak · (0.5 · (1 + sign · envelope cos)) · sin` and turns both the carrier and the
/// envelope oscillator. Returns 1, or 0 having done nothing without AVX2.
int haptics_transient_groups_avx2(
    float *out, size_t groups, float peak, float sign, float *sines, float *cosines, float rotationSin, float rotationCos,
    float *envelopeSines, float *envelopeCosines, float envelopeRotationSin, float envelopeRotationCos);

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
