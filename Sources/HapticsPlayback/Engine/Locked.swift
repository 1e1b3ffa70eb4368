import FoundationEssentials
import HapticsRender

/// State shared by the API-side threads (never the audio thread), behind a lock.
///
/// The engine's one kind of lock (a `SystemLock`, as its lifecycle and producer locks are),
/// for every value the control side shares: unlike `Mutex`, it holds values that are not
/// `Sendable` (threads, synths, players), the lock being what makes sharing them safe.
final class Locked<Value>: @unchecked Sendable {
    private let lock = SystemLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
