#ifndef HAPTICS_CSYSTEM_H
#define HAPTICS_CSYSTEM_H

#include <semaphore.h>

/// Waits on `semaphore` for at most `nanoseconds` on the monotonic clock (`sem_clockwait`, a
/// GNU extension Swift's Glibc module does not declare): 0 when taken, -1 with errno set
/// (ETIMEDOUT, EINTR) otherwise. A change of the wall clock cannot stretch the wait.
int haptics_semaphore_wait(sem_t *semaphore, long nanoseconds);

#endif
