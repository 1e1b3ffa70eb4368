import Foundation
import HapticsTestSupport
import Testing
@testable import HapticsPlayback

/// `play` connects to the server ahead of its stream while it reads the pattern (from its
/// constructor for `--device pulse`, else `AudioDevice.prepare`, `PulseOutput.connectAhead`);
/// the open takes that connection rather than making a second one.
@Suite("Pulse output's connection made ahead", .enabled(if: PulseOutput.isAvailable, "libpulse is not installed"))
struct PulseConnectAheadTests {
    static let rate = 48_000

    @Test("The open takes the connection made ahead: the server has one client of this process before and after, which plays")
    func openTakesTheConnection() async throws {
        let (before, after, played) = try await PulseAudioServer.withServer(sampleRate: Self.rate, channelCount: 1) { server in
            func ourClients() throws -> [Substring]? { try Self.clients(of: server) }
            PulseOutput.connectAhead()
            let before = try ourClients()
            let output = try PulseOutput(sampleRate: Self.rate, channelCount: 1, latency: .milliseconds(20))
            defer { output.close() }
            let period = [Float](repeating: 0, count: output.periodFrames)
            try period.withUnsafeBufferPointer { (samples) throws(AudioOutputError) in try output.write(samples) }
            return (before, try ourClients(), output.periodFrames)
        }
        #expect(before?.count == 1, "clients after connecting ahead: \(String(describing: before))")
        #expect(after?.count == 1, "clients with the stream open: \(String(describing: after))")
        #expect(played > 0)
    }

    @Test("A second connection ahead while one waits to be taken is not made, and the next open takes the first")
    func oneConnectionAhead() async throws {
        let (status, clients) = try await PulseAudioServer.withServer(sampleRate: Self.rate, channelCount: 1) { server in
            PulseOutput.connectAhead()
            PulseOutput.connectAhead()
            let output = try PulseOutput(sampleRate: Self.rate, channelCount: 1, latency: .milliseconds(20))
            defer { output.close() }
            let clients = try Self.clients(of: server)
            return (clients != nil, clients ?? [])
        }
        #expect(status)
        #expect(clients.count == 1, "clients: \(clients)")
    }

    /// `play` begins its connection in the executable's constructor, before the runtime and
    /// the command line's parsing (`CStartup/connect_early.c`): here its pattern comes through a
    /// named pipe nobody writes, so it waits in its read, and the server must list its one client
    /// meanwhile (a second connection ahead, by `AudioDevice.prepare`, is not made).
    @Test(
        "`play --device pulse` connects once while it still waits for its pattern, in every spelling",
        arguments: [["--device", "pulse"], ["--device=pulse"], ["-d", "pulse"], ["-D", "pulse"]])
    func playConnectsBeforeReadingItsPattern(device: [String]) async throws {
        let folder = try TemporaryFolder()
        let pipe = folder.path("pattern.ahap")
        try #require(mkfifo(pipe, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")
        let clients = try await PulseAudioServer.withServer(sampleRate: Self.rate, channelCount: 1) { server -> [Substring]? in
            let play = try BackgroundHaptics(["play", pipe] + device, in: folder.url, environment: server.environment)
            defer { _ = play.process.stop(signal: SIGKILL) }
            let pid = play.process.pid
            _ = Wait.until(timeout: .seconds(10), interval: .milliseconds(10)) { ((try? Self.clients(of: server, pid: pid)) ?? nil)?.isEmpty == false }
            #expect(play.process.isRunning, "play ended: \(play.errorOutputSoFar)")
            return try Self.clients(of: server, pid: pid)
        }
        #expect(clients?.count == 1, "clients of the play: \(String(describing: clients))")
    }

    /// The server's clients that are process `pid` (by the process id each client states),
    /// this test process by default: other tests run beside this one, and `haptics` processes
    /// they spawn find the same server through the environment. Nil when pactl fails.
    static func clients(of server: PulseAudioServer, pid: pid_t = getpid()) throws -> [Substring]? {
        let listing = try shell("pactl list clients", environment: server.environment)
        guard listing.status == 0 else { return nil }
        let ours = "application.process.id = \"\(pid)\""
        return listing.output.split(separator: "Client #").filter { $0.contains(ours) }
    }
}
