import Foundation

/// A program run with `posix_spawn` and reaped with `wait4`: the one way the tests start
/// programs (the `haptics` command, a sound server, a bus, a daemon, a client, `fbcli`) and the
/// way the benchmarks start those they wait for or end themselves (`parec`, `haptics play`).
///
/// Not Foundation's `Process`, for two reasons:
/// - it learns of a child's exit from a socket the child inherits, so a program that closes
///   every inherited descriptor at start (pulseaudio does) looks exited at once, and
///   Foundation's one monitoring thread then blocks in `wait4` on it, hanging every other
///   `Process` of the run;
/// - it adds tens of milliseconds of its own before the child runs, which a benchmark would
///   count as the child's latency.
///
/// The child starts with no signal blocked and default handlers (it would otherwise inherit
/// the spawning thread's mask, and the test runner's threads block SIGTERM). It is stopped
/// (SIGTERM, then SIGKILL) when the value is released.
package final class ChildProcess: @unchecked Sendable {
    /// Where one of the child's standard streams goes.
    package enum Stream: Sendable {
        /// /dev/null.
        case null
        /// A file, created or truncated (appended to, for an output, with `append`).
        case file(URL, append: Bool = false)
        /// A descriptor of this process (a pipe's end), duplicated into the child. The streams
        /// are set up in order, so standard error's `.descriptor(1)` is the child's standard
        /// output as just set up (both streams into one file).
        case descriptor(Int32)
        /// A new pipe: the child gets one end, this process the other, as ``inputPipe`` (for
        /// standard input: write to it, close it for the child's end of file), ``outputPipe``
        /// or ``errorPipe`` (read from them). Both ends are close-on-exec, so no other child
        /// holds one open. A pipe the child writes needs a reader while it runs (use ``file``
        /// when the output is read only at the end).
        case pipe
    }

    /// A program that could not be started.
    package struct SpawnError: Error, CustomStringConvertible {
        package var description: String
        package init(description: String) { self.description = description }
    }

    /// How a child ended: it called `exit` (or returned from `main`) with a status, or a signal
    /// killed it. ``status`` folds both into one number (128 + signal, as shells do), which
    /// cannot tell `exit(130)` from a death by SIGINT.
    package enum Termination: Equatable, Sendable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        /// The shell's number: the exit status, or 128 + the signal.
        package var status: Int32 {
            switch self {
            case .exited(let status): status
            case .signalled(let signal): 128 + signal
            }
        }

        package var description: String {
            switch self {
            case .exited(let status): "exited with \(status)"
            case .signalled(let signal):
                "killed by signal \(signal)\([SIGSEGV, SIGABRT, SIGILL, SIGTRAP, SIGBUS].contains(signal) ? " (a crash)" : "")"
            }
        }
    }

    /// A write to a child that has ended (its ``inputPipe``) fails with EPIPE instead of
    /// killing this whole process with SIGPIPE: a test suite then records one failure where it
    /// died mid-run (exit by signal 13, every other test's result lost). Children get the
    /// default action back (the spawn resets it).
    private static let brokenPipesAreErrors: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    package let pid: pid_t
    /// This process's end of the child's standard input, when that is ``Stream/pipe``.
    package let inputPipe: FileHandle?
    /// This process's end of the child's standard output, when that is ``Stream/pipe``.
    package let outputPipe: FileHandle?
    /// This process's end of the child's standard error, when that is ``Stream/pipe``.
    package let errorPipe: FileHandle?
    private let lock = NSLock()
    private var termination: Termination?
    private var cpuSeconds = 0.0

    /// Starts `arguments[0]` (a path) with `environment` (nil: this process's own, including
    /// what it `setenv`), in `workingDirectory` (nil: this process's). The child inherits only
    /// its three standard streams: every other descriptor is closed in it, so that it cannot
    /// keep another child's pipe open.
    ///
    /// With `diesWithParent`, the child is started through `setpriv --pdeathsig TERM` (when
    /// installed) so that it is stopped if the thread that started it ends, e.g. when the
    /// process crashes: a pulseaudio left behind would run forever. Only from a thread that
    /// outlives the child (the kernel signals when the *thread* ends, and a pool's threads end
    /// when idle).
    package init(
        _ arguments: [String], environment: [String: String]?, standardInput: Stream = .null, standardOutput: Stream = .null,
        standardError: Stream = .null, workingDirectory: URL? = nil, diesWithParent: Bool = false
    ) throws(SpawnError) {
        _ = Self.brokenPipesAreErrors
        var command = arguments
        if diesWithParent, let setpriv = executable("setpriv") {
            command = [setpriv, "--pdeathsig", "TERM", "--"] + command
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The pipes' ends: [child's, this process's] per standard stream.
        var pipes: [Int32: (child: Int32, parent: Int32)] = [:]
        func closePipes(parents: Bool) {
            for ends in pipes.values {
                close(ends.child)
                if parents { close(ends.parent) }
            }
        }
        for (descriptor, stream) in [(Int32(0), standardInput), (1, standardOutput), (2, standardError)] {
            switch stream {
            case .pipe:
                var ends: [Int32] = [-1, -1]
                // pipe2 is a GNU extension Swift's Glibc does not import; the moment between pipe
                // and fcntl is covered by the child's closing every other descriptor (below).
                guard pipe(&ends) == 0, fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0 else {
                    let problem = String(cString: strerror(errno))
                    closePipes(parents: true)
                    throw SpawnError(description: "cannot make a pipe for \(command[0]): \(problem)")
                }
                // ends[0] reads, ends[1] writes: the child reads its input and writes its output.
                pipes[descriptor] = descriptor == 0 ? (ends[0], ends[1]) : (ends[1], ends[0])
                // dup2 clears close-on-exec on the copy, so the child keeps exactly this end.
                posix_spawn_file_actions_adddup2(&actions, pipes[descriptor]!.child, descriptor)
            case .null:
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
            case .file(let url, let append):
                let flags = descriptor == 0 ? O_RDONLY : O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC)
                posix_spawn_file_actions_addopen(&actions, descriptor, url.path, flags, 0o644)
            case .descriptor(let source):
                posix_spawn_file_actions_adddup2(&actions, source, descriptor)
            }
        }
        SpawnExtensions.closeFrom(&actions, 3)
        if let workingDirectory {
            guard SpawnExtensions.changeDirectory(&actions, workingDirectory.path) == 0 else {
                closePipes(parents: true)
                throw SpawnError(description: "cannot run \(command[0]) in \(workingDirectory.path)")
            }
        }
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

        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            argv.forEach { free($0) }
            envp?.forEach { free($0) }
        }
        var child: pid_t = 0
        let result =
            envp.map { posix_spawn(&child, command[0], &actions, &attributes, argv, $0) }
            ?? posix_spawn(&child, command[0], &actions, &attributes, argv, environ)
        guard result == 0 else {
            closePipes(parents: true)
            throw SpawnError(description: "cannot run \(command[0]): \(String(cString: strerror(result)))")
        }
        closePipes(parents: false)
        pid = child
        func handle(_ descriptor: Int32) -> FileHandle? { pipes[descriptor].map { FileHandle(fileDescriptor: $0.parent, closeOnDealloc: true) } }
        inputPipe = handle(0)
        outputPipe = handle(1)
        errorPipe = handle(2)
    }

    /// Starts `executable` with `arguments` (the tests' form: standard output and error to the
    /// given files, created or truncated, or to /dev/null).
    package convenience init(
        _ executable: URL, _ arguments: [String], environment: [String: String], standardOutput: URL? = nil, standardError: URL? = nil,
        diesWithParent: Bool = false
    ) throws(SpawnError) {
        try self.init(
            [executable.path] + arguments, environment: environment, standardOutput: standardOutput.map { .file($0) } ?? .null,
            standardError: standardError.map { .file($0) } ?? .null, diesWithParent: diesWithParent)
    }

    /// Starts `arguments[0]` with this process's environment, output to `standardOutput` (a
    /// descriptor) or /dev/null: the benchmarks' form, where a program that cannot start ends
    /// the run.
    package convenience init(_ arguments: [String], standardOutput: Int32? = nil) {
        do {
            try self.init(arguments, environment: nil, standardOutput: standardOutput.map { .descriptor($0) } ?? .null)
        } catch {
            fatalError(error.description)
        }
    }

    deinit { terminate() }

    /// Whether the child has not exited yet (reaping it if it has).
    package var isRunning: Bool { reap(blocking: false) == nil }

    /// The exit status once it has exited: the code, or 128 + the signal's number.
    package var exitStatus: Int32? { reap(blocking: false)?.status }

    /// Waits for the child however long it takes; returns its exit status and the user plus
    /// system CPU time it used, in seconds.
    @discardableResult
    package func wait() -> (status: Int32, cpuSeconds: Double) {
        let status = reap(blocking: true)?.status ?? -1
        return (status, lock.withLock { cpuSeconds })
    }

    /// Waits for the child however long it takes and returns how it ended.
    package func waitForTermination() -> Termination { reap(blocking: true) ?? .exited(-1) }

    /// Waits up to `timeout` for the child to end and returns how it ended, or nil if it is
    /// still running.
    package func waitForTermination(timeout: Duration) -> Termination? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let termination = reap(blocking: false) { return termination }
            if ContinuousClock.now >= deadline { return nil }
            // `waitpid` cannot time out: poll it. 2 ms keeps the polling cheap and the wait short.
            usleep(2_000)
        }
    }

    /// Waits up to `timeout` for the child to exit and returns its exit status, or nil if it is
    /// still running.
    @discardableResult
    package func wait(timeout: Duration) -> Int32? { waitForTermination(timeout: timeout)?.status }

    /// Sends `signal` to the child if it is still running.
    package func send(_ signal: Int32) {
        _ = signalUnlessReaped(signal)
    }

    /// Sends `signal` and waits at most `timeout` for the exit (then kills it): the exit
    /// status, or nil when it had to be killed.
    @discardableResult
    package func stop(signal: Int32 = SIGTERM, timeout: Duration = .seconds(10)) -> Int32? {
        if let ended = signalUnlessReaped(signal) { return ended.status }
        if let status = wait(timeout: timeout) { return status }
        _ = signalUnlessReaped(SIGKILL)
        _ = reap(blocking: true)
        return nil
    }

    /// Sends `signal` unless the child has been reaped, and returns how it ended if it has. The
    /// check and the signal are one step under the lock: once reaped, the pid is free, and the
    /// kernel hands it to the next process or thread (pid_max is 32,768 on many machines, and
    /// a test run starts about 10,000), which may be a thread of this very process.
    private func signalUnlessReaped(_ signal: Int32) -> Termination? {
        lock.lock()
        defer { lock.unlock() }
        if let ended = reapLocked(blocking: false) { return ended }
        kill(pid, signal)
        return nil
    }

    /// Asks the child to stop (SIGTERM), and kills it if it has not within two seconds.
    package func terminate() { stop(signal: SIGTERM, timeout: .seconds(2)) }

    private func reap(blocking: Bool) -> Termination? {
        lock.lock()
        defer { lock.unlock() }
        return reapLocked(blocking: blocking)
    }

    private func reapLocked(blocking: Bool) -> Termination? {
        if let termination { return termination }
        var status: Int32 = 0
        var usage = rusage()
        var result: pid_t
        repeat { result = wait4(pid, &status, blocking ? 0 : WNOHANG, &usage) } while result < 0 && errno == EINTR
        guard result == pid else {
            // ECHILD: already reaped by someone else; treat as exited.
            if result < 0 && errno == ECHILD { termination = .exited(-1) }
            return termination
        }
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        cpuSeconds = seconds(usage.ru_utime) + seconds(usage.ru_stime)
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
        termination = (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
        return termination
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34) and `…_addchdir_np` (2.29): GNU
/// extensions that Swift's Glibc module does not import, looked up once in the C library.
private enum SpawnExtensions {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    private static let closeFromFunction = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: CloseFrom.self) }
    private static let changeDirectoryFunction = dlsym(nil, "posix_spawn_file_actions_addchdir_np").map {
        unsafeBitCast($0, to: ChangeDirectory.self)
    }

    /// Closes every descriptor from `lowest` up in the child (nothing on a C library without it:
    /// the pipes are close-on-exec anyway).
    static func closeFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ lowest: Int32) {
        _ = closeFromFunction?(actions, lowest)
    }

    /// Makes `path` the child's working directory: 0, or an errno (ENOSYS without the function).
    static func changeDirectory(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: String) -> Int32 {
        guard let changeDirectoryFunction else { return ENOSYS }
        return changeDirectoryFunction(actions, path)
    }
}

/// The full path of the first executable called `name` on the PATH (`name` itself when it is a
/// path), or nil when it is not installed.
package func executable(_ name: String) -> String? {
    if name.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
    return (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        .map { "\($0)/\(name)" }
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}
