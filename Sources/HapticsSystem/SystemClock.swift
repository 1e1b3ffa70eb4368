#if canImport(Glibc)
    import Glibc
#endif

/// The monotonic clock (`CLOCK_MONOTONIC`), which a change of the wall clock does not move, and
/// sleeping on it without Foundation's `Thread`.
package enum SystemClock {
    /// Nanoseconds since an arbitrary start (the boot), never going back.
    package static var nanoseconds: Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1_000_000_000 + now.tv_nsec
    }

    /// Sleeps until the clock reads `deadline` (``nanoseconds``); a signal handler's
    /// interruption resumes the sleep, so it never ends early.
    package static func sleep(until deadline: Int) {
        var wake = timespec(tv_sec: deadline / 1_000_000_000, tv_nsec: deadline % 1_000_000_000)
        // Nothing else fails with an absolute deadline on a valid clock.
        try? systemCallReturningError { clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, nil) }
    }

    /// Sleeps `nanoseconds`, however many signal handlers run meanwhile.
    package static func sleep(nanoseconds: Int) {
        guard nanoseconds > 0 else { return }
        sleep(until: Self.nanoseconds + nanoseconds)
    }
}
