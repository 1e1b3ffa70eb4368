internal import CSystem
import Glibc

/// A detached POSIX thread running a closure: what the toolkit needs of Foundation's `Thread`.
///
/// The libraries link only FoundationEssentials, which has no threads; linking all of
/// Foundation for them cost the `haptics` binary milliseconds of start-up and megabytes of
/// memory (its static initialisers, relocations and code pages).
package final class SystemThread: @unchecked Sendable {
    private var body: (@Sendable () -> Void)?
    /// The thread's name as `top` and `ps -L` show it (at most 15 bytes are kept); set it
    /// before ``start()``.
    package var name: String?

    package init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    /// Starts the thread. It runs the closure once and ends; nothing waits for it.
    package func start() {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { context in
                let this = Unmanaged<SystemThread>.fromOpaque(context!).takeRetainedValue()
                if let name = this.name {
                    // pthread_setname_np is not visible to Swift on glibc; the kernel keeps 15 bytes.
                    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
                    if fd >= 0 {
                        let bytes = Array(name.utf8.prefix(15))
                        _ = bytes.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
                        close(fd)
                    }
                }
                let body = this.body
                this.body = nil
                body?()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<SystemThread>.fromOpaque(context).release()
            fatalError("cannot start a thread: \(Errno(result))")
        }
        pthread_detach(thread)
    }

    /// Runs a closure on a new thread.
    package static func detachNewThread(_ body: @escaping @Sendable () -> Void) {
        SystemThread(body).start()
    }
}

/// A mutual-exclusion lock with `lock()` and `unlock()`, as Foundation's `NSLock` (see
/// ``SystemThread`` for why not Foundation's).
package final class SystemLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func lock() {
        pthread_mutex_lock(mutex)
    }

    package func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Takes the lock if it is free; false (without waiting) when another thread holds it.
    package func tryLock() -> Bool {
        pthread_mutex_trylock(mutex) == 0
    }

    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A counting semaphore (POSIX `sem_t`), as Foundation's `DispatchSemaphore` without
/// Dispatch: what one thread waits on for another (a thread's end, a nap's end, a render's
/// blocks, a player's completion). Posting never blocks or allocates, so the audio thread may
/// post; timed waits end at a deadline on the monotonic clock.
package final class SystemSemaphore: @unchecked Sendable {
    private let semaphore: UnsafeMutablePointer<sem_t>

    /// A semaphore whose count starts at `value`.
    package init(value: Int) {
        semaphore = .allocate(capacity: 1)
        semaphore.initialize(to: sem_t())
        sem_init(semaphore, 0, UInt32(value))
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Takes one from the count, waiting while it is 0.
    package func wait() {
        // A signal handler's interruption is not a wake-up; nothing else fails on a valid semaphore.
        _ = try? systemCall { sem_wait(semaphore) }
    }

    /// Takes one from the count if it becomes positive within `nanoseconds`; false when the
    /// time ran out.
    package func wait(nanoseconds: Int) -> Bool {
        wait(until: SystemClock.nanoseconds + max(0, nanoseconds))
    }

    /// Takes one from the count if it becomes positive before the monotonic clock reads
    /// `deadline` (``SystemClock/nanoseconds``); false when the time ran out. A signal
    /// handler's interruption resumes the wait, which still ends at the deadline.
    package func wait(until deadline: Int) -> Bool {
        (try? systemCall { haptics_semaphore_wait_until(semaphore, deadline) }) != nil
    }

    /// Adds one to the count, waking a waiter.
    package func signal() {
        sem_post(semaphore)
    }
}
