#ifndef HAPTICS_CSYSTEM_H
#define HAPTICS_CSYSTEM_H

#include <semaphore.h>
#include <stddef.h>

/// Waits on `semaphore` for at most `nanoseconds` on the monotonic clock (`sem_clockwait`, a
/// GNU extension Swift's Glibc module does not declare): 0 when taken, -1 with errno set
/// (ETIMEDOUT, EINTR) otherwise. A change of the wall clock cannot stretch the wait.
int haptics_semaphore_wait(sem_t *semaphore, long nanoseconds);

/// Writes `value` with `decimals` digits after the point into `buffer`, as printf's `%.*f`
/// (correctly rounded, "-0.000" kept, "inf" and "nan" spelled out); returns the length the text
/// needed, which is `size` or more when it did not fit. Swift cannot call variadic C functions,
/// and its `CVarArg` route costs each process a conformance scan on first use.
int haptics_format_fixed(char *buffer, size_t size, int decimals, double value);

#endif
