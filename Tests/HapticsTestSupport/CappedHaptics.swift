import BenchmarkSupport
import Foundation
import Testing

/// Runs the `haptics` binary with its memory capped: how the fuzzers and the resource tests
/// check that no input makes a command's memory follow a hostile header or a huge time.
///
/// The cap is on address space (`ulimit -v`), which the debug binary keeps small (its
/// everyday commands run in 48 MiB): a run past it fails to allocate and ends as a crash
/// (``Run/signalled``), at once, instead of swapping the machine. (The kernel's peak resident
/// size cannot be read instead: a child spawned with `posix_spawn` inherits the test
/// process's own peak.)
public enum CappedHaptics {
    /// What one run did.
    public struct Run: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        public var status: Int32
        /// Whether a signal ended it (a crash, a trap, or the timeout's kill).
        public var signalled: Bool
        /// Whether it was killed for running past its timeout.
        public var timedOut: Bool
        public var stdout: String
        public var stderr: String
        public var errorLines: [String] { stderr.split(separator: "\n").map(String.init) }
    }

    /// Runs `haptics ARGUMENTS` in `directory` with at most `addressSpaceMiB` of address space.
    public static func run(
        _ arguments: [String], in directory: URL, addressSpaceMiB: Int, timeout: Duration = .seconds(60),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Run {
        let executable = try #require(HapticsProcess.executable, "the haptics binary was not found next to the tests", sourceLocation: sourceLocation)
        let out = directory.appendingPathComponent(".peak-stdout").path
        let err = directory.appendingPathComponent(".peak-stderr").path
        defer {
            unlink(out)
            unlink(err)
        }
        // The shell sets the cap and becomes haptics (exec), so the child's peak is haptics'.
        let script = "cd \"$1\" && ulimit -v \(addressSpaceMiB * 1024) && shift && exec \"$@\""
        let child = try ChildProcess(
            ["/bin/sh", "-c", script, "sh", directory.path, executable.path] + arguments, environment: nil,
            standardOutput: .file(URL(fileURLWithPath: out)), standardError: .file(URL(fileURLWithPath: err)))
        var ending = child.waitForTermination(timeout: timeout)
        let timedOut = ending == nil
        if timedOut {
            child.send(SIGKILL)
            ending = child.waitForTermination(timeout: .seconds(10))
            Issue.record("haptics \(arguments.joined(separator: " ")) did not finish within \(timeout)", sourceLocation: sourceLocation)
        }
        let signalled: Bool
        if case .exited = ending { signalled = false } else { signalled = true }
        return Run(
            status: ending?.status ?? 128 + SIGKILL, signalled: signalled, timedOut: timedOut,
            stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }
}
