import BenchmarkSupport
import Foundation
import Testing

/// A `haptics` process running in the background: for sending it signals, and for runs that
/// need their own environment. Standard streams go to files, so a chatty process cannot block.
public final class BackgroundHaptics {
    public struct Outcome: Sendable {
        public var status: Int32
        /// Whether the process exited (rather than being killed by a signal).
        public var exited: Bool
        public var stdout: String
        public var stderr: String
        public var timedOut: Bool
        public var errorLines: [String] { stderr.split(separator: "\n").map(String.init) }
        public var outputLines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    /// The running program (its `pid`, whether it `isRunning`).
    package let process: ChildProcess
    private let arguments: [String]
    private let scratch: URL

    public init(
        _ arguments: [String], in directory: URL, environment: [String: String]? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let executable = try #require(HapticsProcess.executable, "the haptics binary was not found next to the tests", sourceLocation: sourceLocation)
        scratch = directory.appendingPathComponent("streams-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        self.arguments = arguments
        process = try ChildProcess(
            [executable.path] + arguments, environment: environment, standardOutput: .file(scratch.appendingPathComponent("stdout")),
            standardError: .file(scratch.appendingPathComponent("stderr")), workingDirectory: directory)
    }

    deinit {
        // Killed at once, as before: ChildProcess's own end (SIGTERM, two seconds' grace) would
        // let a test's leftover play finish its pattern.
        process.stop(signal: SIGKILL)
    }

    public func send(_ signal: Int32) {
        process.send(signal)
    }

    /// What the process has written to standard output so far.
    public var outputSoFar: String {
        String(decoding: (try? Data(contentsOf: scratch.appendingPathComponent("stdout"))) ?? Data(), as: UTF8.self)
    }

    /// What the process has written to standard error so far.
    public var errorOutputSoFar: String {
        String(decoding: (try? Data(contentsOf: scratch.appendingPathComponent("stderr"))) ?? Data(), as: UTF8.self)
    }

    /// Polls standard output until `condition` holds (true) or `timeout` passes (false).
    public func waitForOutput(timeout: Duration = .seconds(60), _ condition: (String) -> Bool) async throws -> Bool {
        try await Wait.suspendingUntil(timeout: timeout, interval: .milliseconds(20)) { condition(outputSoFar) }
    }

    /// Waits for the process to end, killing it after `timeout` (a hang, recorded as an issue).
    public func wait(timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation) async throws -> Outcome {
        let timedOut = try await !Wait.suspendingUntil(timeout: timeout, interval: .milliseconds(2)) { !process.isRunning }
        if timedOut {
            process.send(SIGKILL)
            Issue.record("haptics \(arguments.joined(separator: " ")) did not finish within \(timeout)", sourceLocation: sourceLocation)
        }
        // Foundation's convention, which the tests use: a signal's number when killed by one.
        let (status, exited): (Int32, Bool) =
            switch process.waitForTermination() {
            case .exited(let status): (status, true)
            case .signalled(let signal): (signal, false)
            }
        return Outcome(
            status: status,
            exited: exited,
            stdout: String(decoding: try Data(contentsOf: scratch.appendingPathComponent("stdout")), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: scratch.appendingPathComponent("stderr")), as: UTF8.self),
            timedOut: timedOut)
    }
}
