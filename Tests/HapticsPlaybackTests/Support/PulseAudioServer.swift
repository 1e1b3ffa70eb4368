import Foundation
import HapticsTestSupport
import Testing

/// A private PulseAudio server with one null sink, for playing through ALSA's `pulse` device in
/// real time without a sound card, and recording what the sink played from its monitor.
///
/// The server runs in the foreground of its own process (`--daemonize=no`) with a runtime and
/// state directory of its own and a socket in that directory, so it never meets a user's or
/// another test run's server. It runs as root too: pulseaudio only warns about that in user mode.
///
/// Use ``withServer(sampleRate:channelCount:_:)``: it serialises users across the whole test
/// process (the ALSA plugin finds the server through the process-wide `PULSE_SERVER`, set once
/// to this process's socket), runs the body on a thread of its own (the body blocks on device
/// writes) and always stops the server. A test whose machine cannot run pulseaudio is cancelled (reported as skipped) with
/// the reason.
final class PulseAudioServer: @unchecked Sendable {
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    let sinkName = "haptics_test"
    let sampleRate: Int
    let channelCount: Int
    let directory: URL
    /// Where this process's servers listen, one at a time: `PULSE_SERVER` points here.
    var serverAddress: String { Self.serverAddress }

    private var daemon: ChildProcess?

    /// Starts a server, runs `body` on a dedicated thread, then stops the server. Cancels the
    /// current test when no server can start.
    static func withServer<Result: Sendable>(
        sampleRate: Int = 48_000, channelCount: Int = 2,
        _ body: @escaping @Sendable (PulseAudioServer) throws -> Result
    ) async throws -> Result {
        await processWideLock.lock()
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = try await runOnDedicatedThread {
                let server: PulseAudioServer
                do {
                    server = try PulseAudioServer(sampleRate: sampleRate, channelCount: channelCount)
                } catch {
                    return .failure(error)
                }
                defer { server.stop() }
                return Swift.Result { try body(server) }
            }
        } catch {
            await processWideLock.unlock()
            throw error
        }
        await processWideLock.unlock()
        if case .failure(let error as Unavailable) = outcome {
            try Test.cancel("PulseAudio is not available here, skipping: \(error)")
        }
        return try outcome.get()
    }

    private static let processWideLock = AsyncLock()

    /// One directory, socket and `PULSE_SERVER` value for the whole test process, so the
    /// environment is written once (`setenv` racing `getenv` in other threads is unsafe) and
    /// never points at another process's server.
    /// Made with `mkdtemp` (private, unguessable): a name from the process id could be made
    /// first, or linked elsewhere, by another local user.
    private static let directory: URL = {
        var template = Array((FileManager.default.temporaryDirectory.path + "/haptics-pulse-XXXXXX").utf8CString)
        // Without a folder of its own the server fails to start, and the tests say so.
        guard mkdtemp(&template) != nil else { return FileManager.default.temporaryDirectory.appendingPathComponent("haptics-pulse-unavailable") }
        return URL(fileURLWithPath: template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, isDirectory: true)
    }()
    private static let serverAddress: String = {
        let address = "unix:" + directory.appendingPathComponent("native").path
        setenv("PULSE_SERVER", address, 1)
        return address
    }()

    private init(sampleRate: Int, channelCount: Int) throws {
        guard let pulseaudio = Self.executable("pulseaudio") else {
            throw Unavailable(description: "pulseaudio is not installed (Debian: pulseaudio)")
        }
        guard Self.executable("parec") != nil, Self.executable("pactl") != nil else {
            throw Unavailable(description: "parec or pactl is not installed (Debian: pulseaudio-utils)")
        }
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        directory = Self.directory
        _ = Self.serverAddress
        // Left behind by a crashed run whose process id this one inherited.
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("state"), withIntermediateDirectories: true)

        do {
            daemon = try ChildProcess(
                pulseaudio,
                [
                    "--daemonize=no", "-n", "--use-pid-file=no", "--exit-idle-time=-1", "--disallow-exit",
                    "--log-target=stderr",
                    // The null sink follows wall time: a server starved of CPU catches up by
                    // consuming the stream faster than it was buffered, inserting silence that
                    // shifts every later sound. Real-time scheduling (granted to root, ignored
                    // otherwise) keeps it on time while other tests load the machine.
                    "--realtime=yes", "--high-priority=yes",
                    "--load=module-null-sink sink_name=\(sinkName) rate=\(sampleRate) channels=\(channelCount) format=float32le norewinds=1",
                    "--load=module-native-protocol-unix socket=\(directory.appendingPathComponent("native").path) auth-anonymous=1",
                ], environment: environment, standardError: directory.appendingPathComponent("pulseaudio.log"), diesWithParent: true)
        } catch {
            throw Unavailable(description: "cannot run pulseaudio: \(error)")
        }
        do {
            try waitUntilReady()
        } catch {
            stop()
            throw error
        }
        // `--realtime` raises only the null sink's thread; stream data from clients arrives on
        // the main thread, which pulseaudio keeps at normal scheduling, where busy threads
        // delay it enough to let a 10 ms stream underrun. Raised too (when permitted, as for
        // root), so that the low-latency tests measure the client side only.
        if let pid = daemon?.pid {
            var parameters = sched_param()
            parameters.sched_priority = 5
            _ = sched_setscheduler(pid, SCHED_FIFO, &parameters)
        }
    }

    /// The environment for the server and its clients: everything private to `directory`.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_RUNTIME_PATH"] = directory.path
        environment["PULSE_STATE_PATH"] = directory.appendingPathComponent("state").path
        environment["PULSE_SERVER"] = serverAddress
        return environment
    }

    private func waitUntilReady() throws {
        let ready = try Wait.until(timeout: .seconds(15), interval: .milliseconds(50)) {
            guard daemon?.isRunning == true else {
                throw Unavailable(description: "pulseaudio exited at start: \(logTail())")
            }
            return FileManager.default.fileExists(atPath: directory.appendingPathComponent("native").path) && (try? run("pactl", ["info"])) == 0
        }
        guard ready else { throw Unavailable(description: "pulseaudio did not accept connections within 15 s: \(logTail())") }
    }

    /// Records the sink's monitor (interleaved Float32 at the sink's rate) until the
    /// recording is stopped; returns once samples are arriving.
    func startRecording() throws -> MonitorRecording {
        try MonitorRecording(server: self)
    }

    /// The server's process (to freeze it with SIGSTOP in fault tests).
    var processIdentifier: pid_t? { daemon?.pid }

    func stop() {
        daemon?.terminate()
        daemon = nil
        try? FileManager.default.removeItem(at: directory)
    }

    func logTail() -> String {
        let log = (try? String(contentsOf: directory.appendingPathComponent("pulseaudio.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").suffix(3).joined(separator: " | ")
    }

    /// Runs a PulseAudio tool against this server and returns its exit status (nil if it
    /// hung for 10 s and was killed).
    @discardableResult
    func run(_ tool: String, _ arguments: [String]) throws -> Int32? {
        guard let url = Self.executable(tool) else { throw Unavailable(description: "\(tool) is not installed") }
        let process = try ChildProcess(url, arguments, environment: environment)
        defer { process.terminate() }
        return process.wait(timeout: 10)
    }

    static func executable(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

}

/// `parec` recording a null sink's monitor to a raw Float32 file.
final class MonitorRecording {
    /// Not a reason to skip: the server runs, so recording from it should work.
    struct RecordingFailed: Error, CustomStringConvertible {
        var description: String
    }

    let file: URL
    let channelCount: Int
    let sampleRate: Int
    private let process: ChildProcess

    fileprivate init(server: PulseAudioServer) throws {
        file = server.directory.appendingPathComponent("monitor-\(UUID().uuidString.prefix(8)).raw")
        channelCount = server.channelCount
        sampleRate = server.sampleRate
        guard let parec = PulseAudioServer.executable("parec") else {
            throw RecordingFailed(description: "parec is not installed")
        }
        process = try ChildProcess(
            parec,
            [
                "--device=\(server.sinkName).monitor", "--raw", "--format=float32le",
                "--rate=\(server.sampleRate)", "--channels=\(server.channelCount)", "--latency-msec=10",
            ], environment: server.environment, standardOutput: file, diesWithParent: true)

        // The null sink renders silence while idle, so data flows as soon as parec is connected.
        let process = self.process
        let file = self.file
        let flowing = Wait.until(timeout: .seconds(10), interval: .milliseconds(10)) {
            !process.isRunning || Self.bytes(in: file) > 0
        }
        guard flowing, process.isRunning else {
            throw RecordingFailed(description: "parec recorded nothing within 10 s")
        }
    }

    private static func bytes(in file: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
    }

    /// Frames recorded so far.
    var framesRecorded: Int { Self.bytes(in: file) / (4 * channelCount) }

    /// Waits until the monitor has delivered `seconds` more audio: time on the sink's clock,
    /// so that what was played before the call has reached the recording however late the
    /// server runs on a loaded machine.
    func waitForMore(seconds: Double) throws {
        let target = framesRecorded + Int(seconds * Double(sampleRate))
        try Wait.require("the monitor delivered \(seconds) s more audio", timeout: .seconds(10), interval: .milliseconds(10)) {
            framesRecorded >= target
        }
    }

    /// Stops recording and returns the interleaved samples.
    func stop() throws -> [Float] {
        process.send(SIGINT)
        if process.wait(timeout: 5) == nil { process.terminate() }
        let bytes = try Data(contentsOf: file)
        return bytes.withUnsafeBytes { raw in
            stride(from: 0, to: raw.count - 3, by: 4).map { Float(bitPattern: raw.loadUnaligned(fromByteOffset: $0, as: UInt32.self).littleEndian) }
        }
    }
}

/// A lock that suspends instead of blocking a thread.
actor AsyncLock {
    private var isLocked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func lock() async {
        guard isLocked else {
            isLocked = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func unlock() {
        if waiters.isEmpty {
            isLocked = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}

/// Runs blocking work (device writes, waiting for processes) on a thread of its own rather
/// than on one of the few threads Swift concurrency shares between tests.
func runOnDedicatedThread<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Swift.Result { try body() })
        }
        thread.start()
    }
}
