import Foundation
import HapticsTestSupport
import Testing

/// `haptics play` against a sound server that freezes or ignores it: a signal still ends the
/// process, with the status that names the signal, and a signal the shell ignored stays
/// ignored. Liveness only: the bounds are seconds, far above the 100 ms measured (see the
/// README's figures), so that a loaded machine never fails them.
@Suite("Sound server faults", .serialized)
struct SoundServerFaultTests {
    /// The `haptics` binary built beside the tests.
    static let haptics: URL? = {
        var folder = Bundle.main.bundleURL
        for _ in 0..<6 {
            let candidate = folder.appendingPathComponent("haptics")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }()

    /// Polls until the server has a playback stream (the player is running).
    func waitForStream(_ server: PulseAudioServer, _ player: ChildProcess) throws -> Bool {
        let listing = server.directory.appendingPathComponent("sink-inputs.txt")
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline && player.isRunning {
            let pactl = try #require(PulseAudioServer.executable("pactl"))
            let process = try ChildProcess(pactl, ["list", "short", "sink-inputs"], environment: server.environment, standardOutput: listing)
            _ = process.wait(timeout: 5)
            if let text = try? String(contentsOf: listing, encoding: .utf8), !text.isEmpty { return true }
            usleep(20_000)
        }
        return false
    }

    @Test("SIGINT or SIGTERM ends play while the sound server is frozen, with 130 or 143",
          arguments: [SIGINT, SIGTERM])
    func frozenServer(signal: Int32) async throws {
        let haptics = try #require(Self.haptics, "the haptics binary was not found next to the tests")
        try await PulseAudioServer.withServer { server in
            let serverProcess = try #require(server.processIdentifier)
            let player = try ChildProcess(haptics, ["play", "success", "--loop", "--device", "pulse"], environment: server.environment)
            defer { player.terminate() }
            try #require(try waitForStream(server, player), "the player never connected to the server")
            kill(serverProcess, SIGSTOP)
            defer { kill(serverProcess, SIGCONT) }
            // Let the device's buffer run dry against the frozen server: the audio thread is
            // now blocked inside alsa-lib.
            usleep(200_000)
            player.send(signal)
            let status = player.wait(timeout: 3)
            #expect(status != nil, "play hung after the signal with the server frozen")
            #expect(status == 128 + signal)
        }
    }

    @Test("a SIGINT the shell set to be ignored stays ignored; SIGTERM still ends play")
    func ignoredSignalStaysIgnored() async throws {
        let haptics = try #require(Self.haptics, "the haptics binary was not found next to the tests")
        try await PulseAudioServer.withServer { server in
            // What a shell does for a background job: SIGINT ignored, then exec.
            let player = try ChildProcess(URL(fileURLWithPath: "/bin/sh"),
                                          ["-c", "trap '' INT; exec \"$0\" play success --loop --device pulse", haptics.path],
                                          environment: server.environment)
            defer { player.terminate() }
            try #require(try waitForStream(server, player), "the player never connected to the server")
            player.send(SIGINT)
            #expect(player.wait(timeout: 0.5) == nil, "an ignored SIGINT stopped play")
            player.send(SIGTERM)
            #expect(player.wait(timeout: 3) == 143)
        }
    }
}
