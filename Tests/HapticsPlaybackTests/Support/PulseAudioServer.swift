import Foundation
import BenchmarkSupport
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
    typealias Unavailable = PulseServer.Unavailable

    let sinkName = "haptics_test"
    let sampleRate: Int
    let channelCount: Int
    var directory: URL { server.directory }
    /// Where this process's servers listen, one at a time: `PULSE_SERVER` points here.
    var serverAddress: String { server.address }
    /// The environment for the server's clients: everything private to `directory`.
    var environment: [String: String] { server.environment }

    private let server: PulseServer

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
        // Without a folder of its own the server fails to start, and the tests say so.
        let directory =
            (try? makePrivateFolder(prefix: "haptics-pulse")) ?? FileManager.default.temporaryDirectory.appendingPathComponent("haptics-pulse-unavailable")
        setenv("PULSE_SERVER", "unix:" + directory.appendingPathComponent("native").path, 1)
        return directory
    }()

    private init(sampleRate: Int, channelCount: Int) throws {
        guard Self.executable("parec") != nil else { throw Unavailable(description: "parec is not installed (Debian: pulseaudio-utils)") }
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        server = try PulseServer(sampleRate: sampleRate, channelCount: channelCount, sinkName: sinkName, directory: Self.directory)
    }

    /// Records the sink's monitor (interleaved Float32 at the sink's rate) until the
    /// recording is stopped; returns once samples are arriving.
    func startRecording() throws -> MonitorRecording {
        try MonitorRecording(server: self)
    }

    /// The server's process id (for reading its /proc entries).
    var processIdentifier: pid_t? { server.processIdentifier }

    /// Sends `signal` to the server while it runs: SIGSTOP freezes it, SIGKILL ends it.
    func send(_ signal: Int32) { server.send(signal) }

    func stop() { server.stop() }

    func logTail() -> String { server.logTail() }

    /// Runs a PulseAudio tool against this server and returns its exit status (nil if it
    /// hung for 10 s and was killed).
    @discardableResult
    func run(_ tool: String, _ arguments: [String]) throws -> Int32? {
        guard let url = Self.executable(tool) else { throw Unavailable(description: "\(tool) is not installed") }
        let process = try ChildProcess(url, arguments, environment: environment)
        defer { process.terminate() }
        return process.wait(timeout: .seconds(10))
    }

    static func executable(_ name: String) -> URL? {
        BenchmarkSupport.executable(name).map { URL(fileURLWithPath: $0) }
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
    private unowned let server: PulseAudioServer

    fileprivate init(server: PulseAudioServer) throws {
        self.server = server
        file = server.directory.appendingPathComponent("monitor-\(UUID().uuidString.prefix(8)).raw")
        channelCount = server.channelCount
        sampleRate = server.sampleRate
        guard let parec = PulseAudioServer.executable("parec") else {
            throw RecordingFailed(description: "parec is not installed")
        }
        process = try ChildProcess(
            parec,
            [
                // Big-endian: see `MonitorListener` (a byte swap the server makes, exact, so
                // that it never forwards our client's blocks to parec: pulseaudio 16.1 aborts).
                "--device=\(server.sinkName).monitor", "--raw", "--format=float32be",
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
        let start = framesRecorded
        let target = start + Int(seconds * Double(sampleRate))
        let process = self.process
        let delivered = Wait.until(timeout: .seconds(10), interval: .milliseconds(10)) { framesRecorded >= target || !process.isRunning }
        guard delivered, framesRecorded >= target else {
            // Which side stopped: parec (exited, or starved while the file stood still) or the
            // server, with each one's threads as the kernel sees them and the server's last words.
            throw RecordingFailed(
                description: "the monitor delivered \(framesRecorded - start) of \(target - start) frames in 10 s; parec "
                    + (process.isRunning ? "still running: \(Self.threads(of: process.pid))" : "exited (\(process.waitForTermination()))")
                    + "; server: \(server.processIdentifier.map(Self.threads(of:)) ?? "gone"), log: \(server.logTail())")
        }
    }

    /// Each thread of `pid` as "name state wchan cpu-ticks", from /proc.
    static func threads(of pid: pid_t) -> String {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.sorted().map { task -> String in
            let folder = "/proc/\(pid)/task/\(task)/"
            let stat = (try? String(contentsOfFile: folder + "stat", encoding: .utf8)) ?? ""
            let wchan = (try? String(contentsOfFile: folder + "wchan", encoding: .utf8)) ?? "?"
            // "pid (name) state …": the name may hold spaces, so split after its parenthesis.
            guard let close = stat.lastIndex(of: ")"), let open = stat.firstIndex(of: "(") else { return task }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            let ticks = fields.count > 12 ? "\((Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0))" : "?"
            return "\(stat[stat.index(after: open)..<close]) \(fields.first ?? "?") \(wchan) \(ticks)"
        }.joined(separator: ", ")
    }

    /// Stops recording and returns the interleaved samples.
    func stop() throws -> [Float] {
        process.send(SIGINT)
        if process.wait(timeout: .seconds(5)) == nil { process.terminate() }
        let bytes = try Data(contentsOf: file)
        return bytes.withUnsafeBytes { raw in
            stride(from: 0, to: raw.count - 3, by: 4).map { Float(bitPattern: UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: $0, as: UInt32.self))) }
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
