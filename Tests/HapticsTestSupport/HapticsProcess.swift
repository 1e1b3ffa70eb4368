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
        let scratch = try TemporaryFolder(prefix: "haptics-run")
        defer { withExtendedLifetime(scratch) {} }
        let inputFile = scratch.file("stdin")
        let outputFile = scratch.file("stdout")
        let errorFile = scratch.file("stderr")
        try stdin.write(to: inputFile)
        try Data().write(to: outputFile)
        try Data().write(to: errorFile)

        let input = try FileHandle(forReadingFrom: inputFile)
        let output = try FileHandle(forWritingTo: outputFile)
        let error = try FileHandle(forWritingTo: errorFile)
        defer {
            try? input.close()
            try? output.close()
            try? error.close()
        }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()

        // Polled rather than `waitUntilExit()`, which cannot time out: a hung command must fail
        // its test, not stall the suite.
        let timedOut = try await !Wait.suspendingUntil(timeout: timeout) { !process.isRunning }
        if timedOut { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        if timedOut {
            Issue.record("haptics \(arguments.joined(separator: " ")) did not finish within \(timeout)", sourceLocation: sourceLocation)
        }
        return ProcessResult(
            status: process.terminationStatus,
            stdout: try Data(contentsOf: outputFile),
            stderr: try Data(contentsOf: errorFile),
            timedOut: timedOut)
    }
}
