import Foundation

/// A long-running program a test starts and ends itself (a bus, a sound server, a daemon),
/// spawned with `posix_spawn` and reaped with `waitpid`, never through Foundation's `Process`:
/// that one learns of a child's exit from a socket the child inherits, so a program that closes
/// every inherited descriptor at start (pulseaudio does) looks exited at once, and Foundation's
/// one monitoring thread then blocks in `wait4` on it, hanging every other `Process` of the
/// test run.
///
/// Standard input is /dev/null; standard output and error go to files. The program is killed
/// when the value is released.
public final class ServiceProcess: @unchecked Sendable {
    public let pid: pid_t
    private let lock = NSLock()
    private var status: Int32?

    /// Starts `arguments[0]` (a path) with exactly `environment`.
    public init(_ arguments: [String], environment: [String: String], standardOutput: URL, standardError: URL) throws {
        // No parent-death signal (`setpriv --pdeathsig`): the kernel sends it when the *thread*
        // that spawned the child ends, and the test's threads are a pool's, which end when idle.
        let command = arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, standardError.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        var argv = command.map { strdup($0) } + [nil]
        var envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // The child starts with no signal blocked and default handlers: it would otherwise
        // inherit the spawning thread's mask, and the test runner's threads block SIGTERM.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let result = posix_spawn(&pid, command[0], &actions, &attributes, &argv, &envp)
        guard result == 0 else {
            throw ServiceTools.Failure(description: "cannot run \(command[0]): \(String(cString: strerror(result)))")
        }
        self.pid = pid
    }

    deinit { _ = stop(signal: SIGKILL, timeout: .seconds(5)) }

    /// Whether the program still runs (reaps it when it has exited).
    public var isRunning: Bool { reap(blocking: false) == nil }

    /// The exit status once it has exited: the code, or 128 + the signal's number.
    public var exitStatus: Int32? { reap(blocking: false) }

    private func reap(blocking: Bool) -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let status { return status }
        var raw: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &raw, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
        guard result == pid else { return nil }
        let signal = raw & 0x7f
        status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
        return status
    }

    /// Sends `signal` and waits at most `timeout` for the exit (then kills it): the exit
    /// status, or nil when it had to be killed.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, timeout: Duration = .seconds(10)) -> Int32? {
        if let status = exitStatus { return status }
        kill(pid, signal)
        if Wait.until(timeout: timeout, interval: .milliseconds(2), { exitStatus != nil }) { return exitStatus }
        kill(pid, SIGKILL)
        _ = reap(blocking: true)
        return nil
    }
}
