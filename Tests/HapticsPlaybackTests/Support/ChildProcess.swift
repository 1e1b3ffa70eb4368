import Foundation
import HapticsTestSupport

/// A child process started with `posix_spawn` and reaped with `waitpid`.
///
/// Not Foundation's `Process`: on Linux it decides a child has exited when the child closes an
/// inherited pipe, and then blocks in `waitpid`. pulseaudio closes every inherited descriptor at
/// start, so a `Process` running it wedges the monitoring thread and every later
/// `waitUntilExit` with it.
final class ChildProcess: @unchecked Sendable {
    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    /// How a child ended: it called `exit` (or returned from `main`) with a status, or a
    /// signal killed it. `wait` folds both into one number (128 + signal for a death by
    /// signal, as shells do), which cannot tell `exit(130)` from a death by SIGINT.
    enum Termination: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        /// The shell's number: the exit status, or 128 + the signal.
        var status: Int32 {
            switch self {
            case .exited(let status): status
            case .signalled(let signal): 128 + signal
            }
        }

        var description: String {
            switch self {
            case .exited(let status): "exited with \(status)"
            case .signalled(let signal):
                "killed by signal \(signal)\(signal == SIGSEGV || signal == SIGABRT || signal == SIGILL || signal == SIGTRAP || signal == SIGBUS ? " (a crash)" : "")"
            }
        }
    }

    let pid: pid_t
    private let lock = NSLock()
    private var termination: Termination?

    /// Starts `executable` with `arguments`; standard output and error go to the given files
    /// (created or truncated) or to /dev/null; standard input is /dev/null.
    ///
    /// With `diesWithParent`, the child is started through `setpriv --pdeathsig TERM` (when
    /// available) so that it is stopped if the thread that started it dies, e.g. when the test
    /// process crashes: a pulseaudio left behind would run forever.
    init(
        _ executable: URL, _ arguments: [String], environment: [String: String],
        standardOutput: URL? = nil, standardError: URL? = nil, diesWithParent: Bool = false
    ) throws {
        var executable = executable
        var arguments = arguments
        if diesWithParent, let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            arguments = ["--pdeathsig", "TERM", executable.path] + arguments
            executable = URL(fileURLWithPath: setpriv)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput?.path ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, standardError?.path ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        // The child inherits the spawning thread's signal mask, and the threads of a test
        // process block signals; a child that cannot receive SIGINT or SIGTERM never stops.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable.path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw SpawnError(description: "cannot start \(executable.path): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    deinit {
        terminate()
    }

    /// Whether the child has not exited yet (reaping it if it has).
    var isRunning: Bool {
        lock.withLock { reap(blocking: false) == nil }
    }

    /// Waits up to `timeout` seconds for the child to exit and returns its exit status, or nil
    /// if it is still running.
    @discardableResult
    func wait(timeout: TimeInterval) -> Int32? {
        waitForTermination(timeout: timeout)?.status
    }

    /// Waits up to `timeout` seconds for the child to end and returns how it ended, or nil if
    /// it is still running.
    func waitForTermination(timeout: TimeInterval) -> Termination? {
        var termination: Termination?
        Wait.until(timeout: .milliseconds(Int(timeout * 1000)), interval: .milliseconds(2)) {
            termination = lock.withLock { reap(blocking: false) }
            return termination != nil
        }
        return termination
    }

    /// Sends `signal` to the child if it is still running.
    func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Asks the child to stop (SIGTERM), and kills it if it has not within two seconds.
    func terminate() {
        send(SIGTERM)
        if wait(timeout: 2) == nil {
            send(SIGKILL)
            wait(timeout: 2)
        }
    }

    private func reap(blocking: Bool) -> Termination? {
        if let termination { return termination }
        var status: Int32 = 0
        let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
        guard result == pid else {
            // ECHILD: already reaped by someone else; treat as exited.
            if result < 0 && errno == ECHILD { termination = .exited(-1) }
            return termination
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
        termination = (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
        return termination
    }
}
