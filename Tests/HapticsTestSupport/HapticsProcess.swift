import BenchmarkSupport
import Foundation
import Testing

/// What a run of the `haptics` binary produced.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: Data
    public var stderr: Data
    /// Whether the run was killed for taking longer than its timeout.
    public var timedOut: Bool

    public var output: String { String(decoding: stdout, as: UTF8.self) }
    public var errorOutput: String { String(decoding: stderr, as: UTF8.self) }
    public var outputLines: [String] { output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastIfEmpty() }
    public var errorLines: [String] { errorOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastIfEmpty() }
}

private extension Array where Element == String {
    func dropLastIfEmpty() -> [String] {
        last == "" ? Array(dropLast()) : self
    }
}

/// Runs the built `haptics` binary as a subprocess: standard input from data (through a file,
/// so large inputs cannot deadlock a pipe), standard output and error captured, and a timeout
/// after which the process is killed and the test fails instead of hanging.
///
/// The one way tests find and run the command: ``BackgroundHaptics`` runs it without waiting,
/// and tests that need their own launcher (a terminal, a sound server's environment) take
/// ``executable`` from here.
public enum HapticsProcess {
    /// The binary SwiftPM built next to the test bundle.
    public static let executable: URL? = {
        var candidates: [URL] = []
        let bundle = Bundle.main.bundleURL
        candidates.append(bundle.appendingPathComponent("haptics"))
        candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("haptics"))
        if let running = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: running).deletingLastPathComponent().appendingPathComponent("haptics"))
        }
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                candidates.append(folder.appendingPathComponent(".build/debug/haptics"))
                break
            }
            folder = folder.deletingLastPathComponent()
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Runs `haptics ARGUMENTS` and waits for it, at most `timeout`.
    public static func run(
        _ arguments: [String],
        stdin: Data = Data(),
        in directory: URL? = nil,
        environment: [String: String]? = nil,
        timeout: Duration = .seconds(120),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ProcessResult {
        let executable = try #require(executable, "the haptics binary was not found next to the tests", sourceLocation: sourceLocation)
        return try await runProgram(
            executable, arguments, stdin: stdin, in: directory, environment: environment, timeout: timeout, sourceLocation: sourceLocation)
    }

    /// Runs any program the same way, with a ``ChildProcess``: standard input from `stdin`,
    /// standard output and error captured apart (through files, so neither can fill a pipe and
    /// stall the program), killed and recorded as an issue after `timeout`.
    public static func runProgram(
        _ executable: URL,
        _ arguments: [String],
        stdin: Data = Data(),
        in directory: URL? = nil,
        environment: [String: String]? = nil,
        timeout: Duration = .seconds(120),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ProcessResult {
        let run = try Run(executable, arguments, stdin: stdin, in: directory, environment: environment)
        // Polled rather than a blocking wait, which cannot time out and would hold a thread of
        // the test pool: a hung command must fail its test, not stall the suite.
        let finished = try await Wait.suspendingUntil(timeout: timeout) { !run.process.isRunning }
        return try run.result(finished: finished, timeout: timeout, sourceLocation: sourceLocation)
    }

    /// ``runProgram(_:_:stdin:in:environment:timeout:sourceLocation:)`` for a caller that is not
    /// async: the calling thread waits.
    public static func runProgramSynchronously(
        _ executable: URL,
        _ arguments: [String],
        stdin: Data = Data(),
        in directory: URL? = nil,
        environment: [String: String]? = nil,
        timeout: Duration = .seconds(120),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProcessResult {
        let run = try Run(executable, arguments, stdin: stdin, in: directory, environment: environment)
        let finished = run.process.waitForTermination(timeout: timeout) != nil
        return try run.result(finished: finished, timeout: timeout, sourceLocation: sourceLocation)
    }

    /// A started program and the files of its streams.
    private struct Run {
        let scratch: TemporaryFolder
        let process: ChildProcess
        let description: String

        init(_ executable: URL, _ arguments: [String], stdin: Data, in directory: URL?, environment: [String: String]?) throws {
            scratch = try TemporaryFolder(prefix: "haptics-run")
            try stdin.write(to: scratch.file("stdin"))
            description = ([executable.lastPathComponent] + arguments).joined(separator: " ")
            process = try ChildProcess(
                [executable.path] + arguments, environment: environment, standardInput: .file(scratch.file("stdin")),
                standardOutput: .file(scratch.file("stdout")), standardError: .file(scratch.file("stderr")), workingDirectory: directory)
        }

        func result(finished: Bool, timeout: Duration, sourceLocation: SourceLocation) throws -> ProcessResult {
            if !finished {
                process.send(SIGKILL)
                Issue.record("\(description) did not finish within \(timeout)", sourceLocation: sourceLocation)
            }
            return ProcessResult(
                status: process.wait().status,
                stdout: try Data(contentsOf: scratch.file("stdout")),
                stderr: try Data(contentsOf: scratch.file("stderr")),
                timedOut: !finished)
        }
    }
}
