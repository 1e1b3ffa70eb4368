import Foundation
import HapticsTestSupport
import Testing
@testable import HapticsPlayback

/// `play` connects to the server on its loading thread while it reads the pattern
/// (`AudioDevice.prepare`, `PulseOutput.connectAhead`); the open takes that connection rather
/// than making a second one.
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

    /// The server's clients that are this test process (by the process id each client states):
    /// other tests run beside this one, and `haptics` processes they spawn find the same
    /// server through the environment. Nil when pactl fails.
    static func clients(of server: PulseAudioServer) throws -> [Substring]? {
        let listing = try shell("pactl list clients", environment: server.environment)
        guard listing.status == 0 else { return nil }
        let ours = "application.process.id = \"\(getpid())\""
        return listing.output.split(separator: "Client #").filter { $0.contains(ours) }
    }
}
