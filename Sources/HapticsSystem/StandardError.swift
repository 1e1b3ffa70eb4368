import Glibc
import Synchronization

/// Standard error as the process's own lines use it: every write goes through here.
///
/// Two things make it more than `write(2, …)`:
/// - A C library's complaints are caught by pointing descriptor 2 at a pipe for one call
///   (``redirecting(to:_:)``). Meanwhile the process's own lines, from any thread, still reach
///   the real standard error: a SIGTERM's "terminated" line used to vanish into the pipe.
/// - The line a signal ends the process with is its last (``exit(withLastLine:code:)``): every
///   later write is dropped and the writers' lock is kept until the process is gone, so no
///   warning from another thread follows it.
package enum StandardError {
    private static let lock = SystemLock()
    /// A duplicate of the real standard error while descriptor 2 is redirected; -1 otherwise.
    nonisolated(unsafe) private static var original: Int32 = -1
    /// Set by ``exit(withLastLine:code:)``: every write after it is dropped.
    private static let closing = Atomic<Bool>(false)

    /// Writes `text` whole to the real standard error (errors are dropped: there is nowhere
    /// left to report them). Nothing once the process is ending with its last line.
    package static func write(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        guard !closing.load(ordering: .acquiring) else { return }
        writeWithLockHeld(text)
    }

    /// Writes `text` and ends the process at once with `code` (`_exit`), nothing written after
    /// it. Writers are stopped first, then the one writing now is waited for: at most 100 ms,
    /// since a write to a pipe nobody reads never ends, and a signal must still end the process.
    package static func exit(withLastLine text: String, code: Int32) -> Never {
        // A flag rather than the lock alone: a thread writing line after line takes the lock
        // back between two lines before a waiter wakes, and would starve it.
        closing.store(true, ordering: .releasing)
        var waited = 0
        while !lock.tryLock(), waited < 100 {
            usleep(1_000)
            waited += 1
        }
        writeWithLockHeld(text)
        _exit(code)
    }

    /// Runs `body` with descriptor 2 pointed at `descriptor` (a pipe's write end, say), then
    /// points it back. `redirected` is false when it could not be, or already was (by another
    /// thread): `body` then runs with standard error as it is.
    package static func redirecting<T>(to descriptor: Int32, _ body: () -> T) -> (result: T, redirected: Bool) {
        let redirected = lock.withLock { () -> Bool in
            guard original < 0 else { return false }
            let copy = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
            guard copy >= 0 else { return false }
            guard (try? systemCall { dup2(descriptor, STDERR_FILENO) }) != nil else {
                close(copy)
                return false
            }
            original = copy
            return true
        }
        let result = body()
        if redirected {
            lock.withLock {
                _ = try? systemCall { dup2(original, STDERR_FILENO) }
                close(original)
                original = -1
            }
        }
        return (result, redirected)
    }

    private static func writeWithLockHeld(_ text: String) {
        let descriptor = original >= 0 ? original : STDERR_FILENO
        var text = text
        text.withUTF8 { bytes in
            try? writeWhole(UnsafeRawBufferPointer(bytes)) { start, count, _ in Glibc.write(descriptor, start, count) }
        }
    }
}
