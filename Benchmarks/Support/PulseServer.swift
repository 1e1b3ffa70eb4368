import Foundation

/// A private PulseAudio server with one Float32 null sink, its socket in a folder of its own, so
/// that a test or a benchmark never meets a user's server (or another run's): the one launcher
/// the tests (`PulseAudioServer`, Debian's feedbackd in `ServiceDaemon`) and the benchmarks use.
///
/// The server runs in the foreground of its own process (`--daemonize=no`), as root too
/// (pulseaudio only warns about that in user mode), and is ready when ``init(sampleRate:channelCount:sinkName:directory:environment:realtime:diesWithParent:)``
/// returns: its socket exists and `pactl info` is answered.
package final class PulseServer: @unchecked Sendable {
    /// Why no server could start here.
    package struct Unavailable: Error, CustomStringConvertible {
        package var description: String
        package init(description: String) { self.description = description }
    }

    package let sinkName: String
    package let sampleRate: Int
    package let channelCount: Int
    /// The server's runtime folder: its socket (`native`), `state/`, `pulseaudio.log`.
    package let directory: URL
    /// Where it listens, for `PULSE_SERVER`.
    package let address: String
    /// What its clients run with: the environment it was given and `PULSE_SERVER`,
    /// `PULSE_RUNTIME_PATH` and `PULSE_STATE_PATH` pointing at this server.
    package let environment: [String: String]
    private var daemon: ChildProcess?

    /// Starts a server.
    ///
    /// - Parameters:
    ///   - directory: its runtime folder, removed and made again (nil: a new private one, which
    ///     ``stop()`` removes).
    ///   - environment: the server's and its clients' environment, before the `PULSE_…` entries.
    ///   - realtime: real-time scheduling for the sink's thread and the main thread (which
    ///     receives the streams), when permitted, as on a desktop: a busy machine then delays
    ///     the clients measured, not the server. The null sink follows wall time, and a server
    ///     starved of CPU would insert silence that shifts every later sound.
    ///   - diesWithParent: see ``ChildProcess``; only from a thread that outlives the server.
    package init(
        sampleRate: Int, channelCount: Int = 1, sinkName: String = "haptics", directory: URL? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, realtime: Bool = true, diesWithParent: Bool = true
    ) throws(Unavailable) {
        guard let pulseaudio = executable("pulseaudio") else { throw Unavailable(description: "pulseaudio is not installed (Debian: pulseaudio)") }
        guard let pactl = executable("pactl") else { throw Unavailable(description: "pactl is not installed (Debian: pulseaudio-utils)") }
        do {
            if let directory {
                // Left behind by a crashed run.
                try? FileManager.default.removeItem(at: directory)
                self.directory = directory
            } else {
                self.directory = try makePrivateFolder(prefix: "haptics-pulse")
            }
            try FileManager.default.createDirectory(at: self.directory.appendingPathComponent("state"), withIntermediateDirectories: true)
        } catch {
            throw Unavailable(description: "cannot make the server's folder: \(error)")
        }
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.sinkName = sinkName
        let socket = self.directory.appendingPathComponent("native").path
        address = "unix:\(socket)"
        var environment = environment
        environment["PULSE_RUNTIME_PATH"] = self.directory.path
        environment["PULSE_STATE_PATH"] = self.directory.appendingPathComponent("state").path
        environment["PULSE_SERVER"] = address
        self.environment = environment
        let log = self.directory.appendingPathComponent("pulseaudio.log")
        do {
            daemon = try ChildProcess(
                [
                    pulseaudio, "--daemonize=no", "-n", "--use-pid-file=no", "--exit-idle-time=-1", "--disallow-exit", "--log-target=stderr",
                ] + (realtime ? ["--realtime=yes", "--high-priority=yes"] : []) + [
                    "--load=module-null-sink sink_name=\(sinkName) rate=\(sampleRate) channels=\(channelCount) format=float32le norewinds=1",
                    "--load=module-native-protocol-unix socket=\(socket) auth-anonymous=1",
                ], environment: environment, standardError: .file(log), diesWithParent: diesWithParent)
        } catch {
            throw Unavailable(description: "cannot run pulseaudio: \(error)")
        }
        let deadline = ContinuousClock.now + .seconds(15)
        while true {
            guard daemon?.isRunning == true else {
                stop()
                throw Unavailable(description: "pulseaudio exited at start: \(logTail())")
            }
            if FileManager.default.fileExists(atPath: socket),
                let info = try? ChildProcess([pactl, "info"], environment: environment), info.wait(timeout: .seconds(10)) == 0
            {
                break
            }
            guard ContinuousClock.now < deadline else {
                stop()
                throw Unavailable(description: "pulseaudio did not accept connections within 15 s: \(logTail())")
            }
            // Not up yet: look again shortly (it has no readiness notification).
            usleep(20_000)
        }
        // `--realtime` raises only the null sink's thread; stream data arrives on the main
        // thread, which pulseaudio keeps at normal scheduling, where busy threads delay it
        // enough to let a 10 ms stream underrun.
        if realtime, let pid = daemon?.pid {
            var parameters = sched_param()
            parameters.sched_priority = 5
            _ = sched_setscheduler(pid, SCHED_FIFO, &parameters)
        }
    }

    /// The benchmarks' server: mono, sink `bench`, with `PULSE_SERVER` and the runtime paths
    /// set in this process so every program it starts (the ALSA `pulse` device, the CLI,
    /// paplay, aplay, parec) plays there; nil when none can start.
    package convenience init?(sampleRate: Int) {
        do {
            try self.init(sampleRate: sampleRate, sinkName: "bench")
        } catch {
            return nil
        }
        for key in ["PULSE_SERVER", "PULSE_RUNTIME_PATH", "PULSE_STATE_PATH"] { setenv(key, environment[key]!, 1) }
    }

    /// The server's process id (for reading its /proc entries).
    package var processIdentifier: pid_t? { daemon?.pid }

    /// Sends `signal` to the server while it runs (SIGSTOP freezes it in fault tests).
    package func send(_ signal: Int32) { daemon?.send(signal) }

    /// Whether the server still runs.
    package var isRunning: Bool { daemon?.isRunning == true }

    /// Ends the server and removes its folder.
    package func stop() {
        daemon?.terminate()
        daemon = nil
        try? FileManager.default.removeItem(at: directory)
    }

    /// The last lines the server logged.
    package func logTail(lines: Int = 3) -> String {
        let log = (try? String(contentsOf: directory.appendingPathComponent("pulseaudio.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").suffix(lines).joined(separator: " | ")
    }
}
