import Foundation
import HapticsTestSupport
import Testing
@testable import HapticsPlayback

@Suite("alsa-lib's own messages")
struct ALSADiagnosticsTests {
    /// Runs `body` with file descriptor 2 redirected to a file and returns what was written.
    private func capturingStandardError(_ body: () -> Void) throws -> String {
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let url = folder.file("stderr")
        let capture = open(url.path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        try #require(capture >= 0)
        let saved = dup(2)
        try #require(saved >= 0)
        fflush(nil)
        dup2(capture, 2)
        body()
        fflush(nil)
        dup2(saved, 2)
        close(saved)
        close(capture)
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test("Failing opens, a failing write and device listing print nothing of alsa-lib's to stderr")
    func staysSilent() throws {
        var errors: [AudioOutputError] = []
        let captured = try capturingStandardError {
            for device in ["hw:99", "plughw:99", "no_such_pcm_here", "hw:CARD=NoSuchCard,DEV=0", "default"] {
                do throws(AudioOutputError) {
                    try ALSAOutput(device: device, sampleRate: 48_000, channelCount: 2).close()
                } catch {
                    errors.append(error)
                }
            }
            do throws(AudioOutputError) {
                let output = try ALSAOutput(device: "file:'/nonexistent-haptics-dir/x.wav',wav", sampleRate: 48_000, channelCount: 1)
                let samples = [Float](repeating: 0, count: output.bufferFrames * 2)
                try samples.withUnsafeBufferPointer { (buffer) throws(AudioOutputError) in try output.write(buffer) }
                output.close()
            } catch {
                errors.append(error)
            }
            _ = ALSADevices.playbackDevices()
            _ = ALSADevices.soundCards()
        }
        // alsa-lib's default handler prefixes every line with "ALSA lib"; other tests running
        // in parallel may legitimately write something else.
        #expect(!captured.contains("ALSA lib"), "alsa-lib wrote to stderr: \(captured)")
        // The failures happened, and their messages carry what alsa-lib would have printed.
        #expect(errors.count >= 4)
        #expect(errors.contains { $0.reason.contains("Cannot get card index for 99") })
        #expect(errors.contains { $0.reason.contains("Unknown PCM no_such_pcm_here") })
    }
}
