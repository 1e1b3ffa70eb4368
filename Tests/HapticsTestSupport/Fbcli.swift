import BenchmarkSupport
import Foundation
import Testing

/// Debian's `fbcli` (package `feedbackd`), feedbackd's own command-line client, run unchanged on a
/// ``SessionBus``: `fbcli -E EVENT -t TIMEOUT -w WATCH` triggers an event through libfeedback and
/// exits 0 once the daemon reports the feedback ended (1 when the watch expires first); a line on
/// its standard input ends the feedback (`EndFeedback`); `fbcli -P PROFILE` sets the profile.
///
/// Its standard input is a pipe held open until ``pressReturn()`` or the end, so an endless
/// feedback runs until the test says.
public final class Fbcli {
    private let process: ChildProcess
    private let input: FileHandle
    private let scratch: TemporaryFolder

    /// Starts `fbcli ARGUMENTS` on `bus`; cancels the test when fbcli is not installed.
    public init(_ arguments: [String], on bus: SessionBus, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try ServiceTools.require(["fbcli"], sourceLocation: sourceLocation)
        scratch = try TemporaryFolder(prefix: "haptics-fbcli")
        process = try ChildProcess(
            [ServiceTools.path(of: "fbcli") ?? "/usr/bin/fbcli"] + arguments, environment: bus.environment, standardInput: .pipe,
            standardOutput: .file(scratch.file("output")), standardError: .descriptor(1))
        // Set for `.pipe`.
        input = process.inputPipe!
    }

    deinit {
        process.stop(signal: SIGKILL)
    }

    /// Everything fbcli printed so far, standard output and error together.
    public var output: String { (try? String(contentsOf: scratch.file("output"), encoding: .utf8)) ?? "" }

    public var isRunning: Bool { process.isRunning }

    /// Types <RETURN>: fbcli ends its feedback.
    public func pressReturn() throws {
        try input.write(contentsOf: Data("\n".utf8))
    }

    /// Waits for fbcli to exit, at most `timeout` (then kills it and returns nil): its status.
    public func wait(timeout: Duration = .seconds(30)) -> Int32? {
        guard let termination = process.waitForTermination(timeout: timeout) else {
            process.stop(signal: SIGKILL)
            return nil
        }
        // Foundation's convention, kept: a signal's number when killed by one.
        if case .signalled(let signal) = termination { return signal }
        return termination.status
    }

    /// Runs `fbcli ARGUMENTS` to its end (the feedback's end, or its `-w` watch): its status and
    /// output.
    public static func run(_ arguments: [String], on bus: SessionBus, timeout: Duration = .seconds(30)) throws -> (status: Int32?, output: String) {
        let fbcli = try Fbcli(arguments, on: bus)
        let status = fbcli.wait(timeout: timeout)
        return (status, fbcli.output)
    }
}
