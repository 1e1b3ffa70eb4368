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
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // The shell sets the cap and becomes haptics (exec), so the child's peak is haptics'.
        let script = "cd \"$1\" && ulimit -v \(addressSpaceMiB * 1024) && shift && exec \"$@\""
        let argv = ["/bin/sh", "-c", script, "sh", directory.path, executable.path] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, &cArguments, environ)
        try #require(spawned == 0, "posix_spawn failed: \(spawned)", sourceLocation: sourceLocation)

        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        let deadline = ContinuousClock.now + timeout
        while true {
            let done = wait4(pid, &status, WNOHANG, &usage)
            if done == pid { break }
            if done < 0 && errno != EINTR { break }
            if ContinuousClock.now > deadline, !timedOut {
                timedOut = true
                kill(pid, SIGKILL)
            }
            // Polls for the child's end: wait4 cannot time out, and a hung run must fail its
            // test rather than stall the suite.
            usleep(2_000)
        }
        if timedOut { Issue.record("haptics \(arguments.joined(separator: " ")) did not finish within \(timeout)", sourceLocation: sourceLocation) }
        let signal = status & 0x7F
        let signalled = signal != 0
        return Run(
            status: signalled ? 128 + signal : (status >> 8) & 0xFF, signalled: signalled, timedOut: timedOut,
            stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }
}
