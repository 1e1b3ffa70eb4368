import Foundation
import Testing

/// Tests/CTestSupport: the test process names the signal that ends it, which `swift test`
/// does not (a run killed by SIGHUP just stops, without its summary, exit status 1).
@Suite("The test process reports a fatal signal before it dies of it")
struct FatalSignalReportTests {
    @Test("a SIGHUP the process sends itself: one line on standard error naming it and the sender, then death by SIGHUP")
    func reportsTheSignalAndItsSender() async throws {
        let result = try await #require(processExitsWith: .signal(SIGHUP), observing: [\.standardErrorContent]) {
            kill(getpid(), SIGHUP)
            // Kept: the signal is delivered at once; this only keeps the child from returning.
            sleep(5)
        }
        let text = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(text.contains("test process: ended by signal \(SIGHUP) (code 0) from pid "), "\(text)")
        #expect(text.contains(", itself"), "\(text)")
    }
}
