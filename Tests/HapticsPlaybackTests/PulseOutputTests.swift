import Foundation
import HapticsTestSupport
import Testing
@testable import HapticsPlayback

/// What only the libpulse route to a PulseAudio server does: `pulse` opens it, with the sizes
/// asked for, and a server that dies or is missing is one clear error. What both routes do is
/// in PulseRoutesTests.
@Suite(
    "Pulse output on a PulseAudio null sink", .tags(.realtime), .enabled(if: RealTime.isSelected, RealTime.skipReason),
    .enabled(if: PulseOutput.isAvailable, "libpulse is not installed"))
struct PulseOutputTests {
    static let rate = 48_000

    @Test("`pulse` opens this output, with the period and buffer the server granted for the latency asked")
    func deviceNameAndSizes() async throws {
        let (isPulse, period, buffer) = try await PulseAudioServer.withServer(sampleRate: Self.rate, channelCount: 2) { _ in
            let output = try AudioDevice.open("pulse", sampleRate: Self.rate, channelCount: 2, latency: .milliseconds(30))
            defer { output.close() }
            return (output is PulseOutput, output.periodFrames, output.bufferFrames)
        }
        #expect(isPulse)
        // 30 ms is 1,440 frames; the server may round, not ignore it.
        #expect((720...2_880).contains(buffer), "buffer \(buffer) frames")
        #expect(period > 0 && period <= buffer / 2, "period \(period) of a \(buffer)-frame buffer")
    }

    @Test("A server killed mid-write: the write throws deviceLost naming the server, it does not hang")
    func killedServer() async throws {
        let (error, seconds) = try await PulseAudioServer.withServer(sampleRate: Self.rate, channelCount: 1) { server in
            let output = try PulseOutput(sampleRate: Self.rate, channelCount: 1, latency: .milliseconds(20))
            defer { output.close() }
            let killer = Thread {
                // The delay is what is tested: the kill lands 0.2 s into a write of 5 s.
                Thread.sleep(forTimeInterval: 0.2)
                server.send(SIGKILL)
            }
            killer.start()
            let started = Date()
            let long = [Float](repeating: 0.1, count: Self.rate * 5)
            var thrown: AudioOutputError?
            do throws(AudioOutputError) {
                try long.withUnsafeBufferPointer { (buffer) throws(AudioOutputError) in try output.write(buffer) }
            } catch {
                thrown = error
            }
            return (thrown, Date().timeIntervalSince(started))
        }
        guard case .deviceLost(let device, let reason) = try #require(error, "the write ended without an error") else {
            Issue.record("expected deviceLost, got \(String(describing: error))")
            return
        }
        #expect(device == "pulse")
        #expect(reason.contains("sound server"), "\(reason)")
        #expect(!reason.contains("\n"))
        #expect(seconds < 3, "the write took \(seconds) s to notice")
    }
}

@Suite("Pulse output without a server", .enabled(if: PulseOutput.isAvailable, "libpulse is not installed"))
struct PulseOutputUnavailableTests {
    @Test("No server at the address: play exits 69 with one line naming the device and libpulse's reason")
    func noServer() async throws {
        // A child process: PULSE_SERVER is process-wide, and the real-time suites set it.
        let folder = try TemporaryFolder()
        let result = try await HapticsProcess.run(
            ["play", "success", "--device", "pulse"],
            environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path, "PULSE_SERVER": "unix:" + folder.path("nothing-listens-here")],
            timeout: .seconds(30))
        #expect(result.status == 69, "\(result.errorLines)")
        #expect(result.errorLines.count == 1, "\(result.errorLines)")
        #expect(result.errorLines.first?.contains("'pulse'") == true, "\(result.errorLines)")
        #expect(result.errorLines.first?.contains("cannot connect to the sound server") == true, "\(result.errorLines)")
    }
}
