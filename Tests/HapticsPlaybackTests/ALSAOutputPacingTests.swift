import Foundation
import HapticsTestSupport
import Testing
@testable import HapticsPlayback

/// Which ALSA devices keep time, which decides whether the audio thread gets real-time priority.
@Suite("ALSA output pacing")
struct ALSAOutputPacingTests {
    @Test("the null and file devices are not paced")
    func unpacedDevices() throws {
        let null = try ALSAOutput(device: "null", sampleRate: 48_000, channelCount: 1)
        defer { null.close() }
        #expect(!null.isPaced)
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let url = folder.file("capture.wav")
        let file = try ALSAOutput(device: "file:'\(url.path)',wav", sampleRate: 48_000, channelCount: 1)
        defer { file.close() }
        #expect(!file.isPaced)
    }

    @Test("a sound server's device is paced", .tags(.realtime), .enabled(if: RealTime.isSelected, RealTime.skipReason))
    func pulseIsPaced() async throws {
        let paced = try await PulseAudioServer.withServer(sampleRate: 48_000, channelCount: 1) { _ in
            let output = try ALSAOutput(device: "pulse", sampleRate: 48_000, channelCount: 1)
            defer { output.close() }
            return output.isPaced
        }
        #expect(paced)
    }
}
