import BenchmarkSupport
import Foundation
import Testing

/// A feedback service running on a test's ``SessionBus``: ours (`haptics daemon`, the binary
/// SwiftPM built) or Debian's feedbackd (`/usr/libexec/feedbackd`, package `feedbackd` 0.0.3),
/// so that the same scenario runs against both.
///
/// Ours plays into a `file:` device (a WAV in the bus's folder, ``outputFile``) unless told
/// otherwise. Debian's plays its theme's sounds (libcanberra) into a private PulseAudio null
/// sink of its own when pulseaudio is installed: without one, its sound feedbacks fail in ways
/// of their own (an endless one never ends) and the two daemons could share only errors. Both
/// write their standard error to a file (``errorOutput``); both are killed when the test ends.
public final class ServiceDaemon: @unchecked Sendable {
    /// Which daemon.
    public enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// `haptics daemon`.
        case haptics
        /// Debian's feedbackd 0.0.3.
        case feedbackd

        public var testDescription: String { self == .haptics ? "haptics daemon" : "Debian's feedbackd" }
    }

    public let kind: Kind
    public let bus: SessionBus
    /// The WAV our daemon's `file:` device writes (nil for Debian's, or when a device was given).
    public let outputFile: URL?
    private let process: ChildProcess
    private let errorFile: URL
    private var soundServer: PulseServer?

    /// The daemon's process id.
    public var pid: pid_t { process.pid }
    /// Sends `signal` to the daemon while it runs (SIGHUP reloads the theme).
    public func send(_ signal: Int32) { process.send(signal) }
    public var isRunning: Bool { process.isRunning }
    /// Everything the daemon wrote on its standard error so far.
    public var errorOutput: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }
    public var errorLines: [String] { errorOutput.split(separator: "\n").map(String.init) }

    /// Starts `kind` on `bus` and returns once it owns `org.sigxcpu.Feedback`.
    ///
    /// - Parameters:
    ///   - arguments: added to ours (`haptics daemon ARGUMENTS`; `--device` replaces the
    ///     `file:` device) and to Debian's.
    ///   - environment: added to the bus's environment (e.g. `FEEDBACK_THEME`).
    public init(
        _ kind: Kind, on bus: SessionBus, arguments: [String] = [], environment: [String: String] = [:],
        waitForName: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        self.kind = kind
        self.bus = bus
        var environment = bus.environment.merging(environment) { $1 }
        let command: [String]
        switch kind {
        case .haptics:
            let executable = try #require(HapticsProcess.executable, "the haptics binary was not found next to the tests", sourceLocation: sourceLocation)
            if arguments.contains("--device") {
                outputFile = nil
                command = [executable.path, "daemon"] + arguments
            } else {
                let wav = bus.folder.file("output-\(UUID().uuidString.prefix(8)).wav")
                outputFile = wav
                command = [executable.path, "daemon", "--device", "file:'\(wav.path)',wav"] + arguments
            }
        case .feedbackd:
            try ServiceTools.require(["/usr/libexec/feedbackd"], sourceLocation: sourceLocation)
            outputFile = nil
            command = ["/usr/libexec/feedbackd"] + arguments
            if ServiceTools.path(of: "pulseaudio") != nil {
                // Its address is passed to that daemon alone, never set in this process.
                let server: PulseServer
                do {
                    server = try PulseServer(
                        sampleRate: 48_000, sinkName: "feedback", directory: bus.folder.file("pulse"), environment: bus.environment, realtime: false,
                        diesWithParent: false)
                } catch {
                    throw ServiceTools.Failure(description: error.description)
                }
                soundServer = server
                environment["PULSE_SERVER"] = server.address
            }
        }
        errorFile = bus.folder.file("\(kind.rawValue)-\(UUID().uuidString.prefix(8)).log")
        process = try ChildProcess(
            command, environment: environment, standardOutput: .file(bus.folder.file(errorFile.lastPathComponent + ".out")),
            standardError: .file(errorFile))
        if waitForName {
            let owned = Wait.until(timeout: .seconds(30), interval: .milliseconds(10)) { !process.isRunning || bus.hasOwner() }
            guard owned, process.isRunning else {
                let log = errorOutput
                stop()
                throw ServiceTools.Failure(
                    description:
                        "\(kind.testDescription) did not take \(SessionBus.feedbackName): exit status \(process.exitStatus.map { "\($0)" } ?? "none"), stderr: \(log)"
                )
            }
        }
    }

    deinit { stop() }

    /// Sends `signal` and waits for the daemon to exit, at most `timeout`; returns its exit
    /// status (128 + the signal's number for a death by signal), or nil when it did not exit
    /// in time (it is then killed).
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, timeout: Duration = .seconds(10)) -> Int32? {
        defer { soundServer?.stop() }
        return process.stop(signal: signal, timeout: timeout)
    }

    /// The daemon's resident memory in KiB (`VmRSS` in /proc), nil once it has exited.
    public var residentKiB: Int? { Self.residentKiB(of: pid) }

    /// `VmRSS` of any process, in KiB.
    public static func residentKiB(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        return status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first }
            .flatMap { Int($0) }
    }
}
