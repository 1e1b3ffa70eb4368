import Foundation

/// Waiting on a condition instead of sleeping for a fixed time: a test polls what it waits for
/// (a file's size, a flag, a process's end) until it holds, so it is as fast as the machine
/// allows and still passes on a loaded one, where a fixed sleep is either too short (a flaky
/// test) or far too long (a slow suite).
///
/// The `until` forms return whether the condition held, for tests that assert it with their own
/// message; the `require` forms throw ``WaitTimeout`` naming what was awaited. The plain forms
/// block the calling thread (for synchronous code and dedicated threads); the `suspending` forms
/// suspend the task instead, so that async tests leave the shared threads to other tests.
public enum Wait {
    /// How often a condition is checked unless the caller says otherwise.
    public static let defaultInterval: Duration = .milliseconds(5)

    /// Checks `condition` every `interval`, blocking the thread, until it holds (true) or
    /// `timeout` has passed (false, after one last check).
    @discardableResult
    public static func until(timeout: Duration, interval: Duration = defaultInterval, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            if try condition() { return true }
            if ContinuousClock.now >= deadline { return false }
            Thread.sleep(forTimeInterval: Self.seconds(interval))
        }
    }

    /// Checks `condition` every `interval`, suspending in between, until it holds (true) or
    /// `timeout` has passed (false, after one last check). Throws only if the task is cancelled
    /// or `condition` throws. Runs on the caller's actor, so `condition` may read its state.
    @discardableResult
    public static func suspendingUntil(
        timeout: Duration, interval: Duration = defaultInterval,
        isolation: isolated (any Actor)? = #isolation,
        _ condition: () async throws -> Bool
    ) async throws -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            if try await condition() { return true }
            if ContinuousClock.now >= deadline { return false }
            try await Task.sleep(for: interval)
        }
    }

    /// Like ``until(timeout:interval:_:)``, but throws ``WaitTimeout`` saying that `what` did
    /// not happen within `timeout`.
    public static func require(
        _ what: String, timeout: Duration, interval: Duration = defaultInterval,
        _ condition: () throws -> Bool
    ) throws {
        guard try until(timeout: timeout, interval: interval, condition) else { throw WaitTimeout(what: what, timeout: timeout) }
    }

    /// Like ``suspendingUntil(timeout:interval:_:)``, but throws ``WaitTimeout`` saying that
    /// `what` did not happen within `timeout`.
    public static func suspendingRequire(
        _ what: String, timeout: Duration, interval: Duration = defaultInterval,
        isolation: isolated (any Actor)? = #isolation,
        _ condition: () async throws -> Bool
    ) async throws {
        guard try await suspendingUntil(timeout: timeout, interval: interval, isolation: isolation, condition) else {
            throw WaitTimeout(what: what, timeout: timeout)
        }
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

/// A condition a test waited for did not hold in time.
public struct WaitTimeout: Error, CustomStringConvertible {
    /// What was awaited, e.g. "the player connected to the server".
    public var what: String
    public var timeout: Duration
    public var description: String { "timed out after \(timeout): \(what)" }
}
