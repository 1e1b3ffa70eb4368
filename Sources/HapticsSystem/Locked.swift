/// State shared by the API-side threads (never the audio thread), behind a ``SystemLock``.
///
/// Unlike `Mutex`, it holds values that are not `Sendable` (threads, synths, players) and
/// hands them out of ``withLock(_:)``; the lock is what makes sharing them safe.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = SystemLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
