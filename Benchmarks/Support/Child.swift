import Foundation

/// A program run with `posix_spawn` and reaped with `wait4`, for its exit status and the CPU
/// time it used. Not Foundation's `Process`: it adds tens of milliseconds of its own before the
/// child runs, which would be counted as the child's latency.
package struct Child {
    package let pid: pid_t

    /// Starts `arguments[0]` with the current environment; standard input, output and error go
    /// to /dev/null unless `standardOutput` names a descriptor to pass on as output.
    package init(_ arguments: [String], standardOutput: Int32? = nil) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let standardOutput {
            posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
        guard result == 0 else { fatalError("cannot run \(arguments[0]): \(String(cString: strerror(result)))") }
        self.pid = pid
    }

    /// Waits for the child; returns its exit status (128 + signal for a death by signal) and
    /// the user plus system CPU time it used, in seconds.
    @discardableResult
    package func wait() -> (status: Int32, cpuSeconds: Double) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return (exitStatus, seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }

    package func terminate() {
        kill(pid, SIGTERM)
        wait()
    }
}

/// The first executable called `name` on the PATH.
package func executable(_ name: String) -> String? {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        .map { "\($0)/\(name)" }
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}
