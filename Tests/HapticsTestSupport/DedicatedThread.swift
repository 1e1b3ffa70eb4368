import Foundation

/// Runs blocking work (device writes, waiting for processes, watching a file that grows at CPU
/// speed) on a thread of its own rather than on one of the few threads Swift concurrency shares
/// between tests: there it waits for no other test's work, and blocks none.
public func runOnDedicatedThread<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Swift.Result { try body() })
        }
        thread.start()
    }
}
