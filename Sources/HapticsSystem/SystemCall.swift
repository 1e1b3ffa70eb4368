#if canImport(Glibc)
    import Glibc
#endif

/// An `errno` value: what a failed system call reports, with the system's reason as its
/// description (`No space left on device`).
package struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    /// The number, such as `ENOSPC`.
    package var code: Int32

    package init(_ code: Int32) {
        self.code = code
    }

    /// The calling thread's `errno` now.
    package static var current: Errno { Errno(errno) }

    /// The system's reason for the code (`strerror`).
    package var description: String { String(cString: strerror(code)) }
}

/// Calls a system function until a signal handler no longer interrupts it, and returns its
/// result or throws its `errno`: for the functions that return -1 (or any negative value) and
/// set `errno` on failure (`read`, `write`, `open`, `poll`, `waitpid`, `sem_wait`, …). A call
/// that must resume where it stopped (`nanosleep`'s remaining time) updates its own arguments
/// inside `call` before returning. The one place `EINTR` is retried; modelled on
/// swift-system's `valueOrErrno` and `retryOnInterrupt`.
@discardableResult
package func systemCall<Result: BinaryInteger>(_ call: () -> Result) throws(Errno) -> Result {
    while true {
        let result = call()
        if result >= 0 { return result }
        let code = errno
        if code != EINTR { throw Errno(code) }
    }
}

/// As ``systemCall(_:)`` for the functions that return the error number itself and 0 on
/// success instead of setting `errno` (`pthread_create`, `clock_nanosleep`,
/// `posix_fallocate`).
package func systemCallReturningError(_ call: () -> Int32) throws(Errno) {
    while true {
        let result = call()
        if result == 0 { return }
        if result != EINTR { throw Errno(result) }
    }
}

/// Writes all of `bytes` through `write` (`write(2)`, `pwrite(2)`, a test's seam), which gets
/// where to start, how many bytes remain and how many were written before, and returns the
/// count it wrote or -1 with `errno` set: short writes continue, interruptions are retried,
/// and a write of nothing is `EIO` rather than a loop without end.
package func writeWhole(
    _ bytes: UnsafeRawBufferPointer, with write: (_ start: UnsafeRawPointer, _ count: Int, _ offset: Int) -> Int
) throws(Errno) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
        let written = try systemCall { write(base + offset, bytes.count - offset, offset) }
        if written == 0 { throw Errno(EIO) }
        offset += written
    }
}
