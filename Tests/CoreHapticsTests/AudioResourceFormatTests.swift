import CoreHaptics
import Foundation
import Haptics
import HapticsTestSupport
import Testing

/// A 0.3 s sine at `frequency` in `format`, written by sox (which CI installs) at 44.1 kHz, so
/// that playing it at the engine's 48 kHz resamples it.
private func soxSine(_ folder: TemporaryFolder, format: String, frequency: Int = 1_000) throws -> URL {
    let url = folder.file("sound.\(format)")
    let (status, output) = try shell("sox -n -r 44100 -c 1 '\(url.path)' synth 0.3 sine \(frequency) vol 0.5")
    try #require(status == 0, "sox could not write \(format): \(output)")
    return url
}

/// What the engine's audio channels (left, on the wideband profile's stereo file) received.
private func playAudioResource(_ sound: URL) throws -> [Float] {
    let output = FileOutput()
    return try output.run { () throws -> [Float] in
        let engine = try CHHapticEngine()
        return try withExtendedLifetime(engine) {
            try engine.start()
            let id = try engine.registerAudioResource(sound, options: [CHHapticAudioResourceKeyUseVolumeEnvelope: false])
            let event = CHHapticEvent(
                audioResourceID: id,
                parameters: [
                    CHHapticEventParameter(parameterID: .audioVolume, value: 1),
                    // No low-pass filter: the sound as recorded.
                    CHHapticEventParameter(parameterID: .audioBrightness, value: 1),
                ], relativeTime: 0)
            let player = try engine.makePlayer(with: try CHHapticPattern(events: [event], parameters: []))
            let start = engine.currentTime + 0.05
            try player.start(atTime: start)
            _ = try output.samples(seconds: start + 0.5)
            let file = try WAVFile(contentsOf: output.url)
            let samples = file.bitsPerSample == 32 ? file.float32Samples : file.int16Samples.map { Float($0) / 32768 }
            return WAVFile.channel(output.profile.audioChannels[0], of: samples, channels: file.channelCount)
        }
    }
}

@Suite("CoreHaptics audio resources in every format libsndfile reads")
struct AudioResourceFormatTests {
    @Test(
        "AIFF, CAF, FLAC, Ogg and AU resources play their sound: its pitch, for its length (they were silent)", arguments: ["aiff", "caf", "flac", "ogg", "au"])
    func formatsPlay(format: String) throws {
        let folder = try TemporaryFolder(prefix: "corehaptics-formats")
        let x = try playAudioResource(try soxSine(folder, format: format))
        let onset = try #require(Signal.firstNonZero(x, threshold: 0.05), "\(format): nothing sounded")
        let end = try #require(Signal.lastNonZero(x, threshold: 0.05))
        let seconds = Double(end - onset) / 48_000
        #expect(abs(seconds - 0.3) < 0.01, "\(format): sounded \(seconds) s")
        let frequency = Signal.frequency(x, (onset + 2400)..<(onset + 9600), sampleRate: 48_000)
        #expect(abs(frequency - 1_000) < 10, "\(format): \(frequency) Hz")
    }

    @Test("a 44.1 kHz sound near its Nyquist frequency plays without aliases: libsoxr, not linear interpolation")
    func resamplingDoesNotAlias() throws {
        try #require(AudioClip.hasResampler, "libsoxr (libsoxr0) is not installed")
        let folder = try TemporaryFolder(prefix: "corehaptics-alias")
        // 19 kHz at 44.1 kHz: linear interpolation to 48 kHz leaves images at 44.1 − 19 = 25.1 kHz
        // folded to 48 − 25.1 = 22.9 kHz, and the residue of a sine's curvature between samples.
        let x = try playAudioResource(try soxSine(folder, format: "flac", frequency: 19_000))
        let onset = try #require(Signal.firstNonZero(x, threshold: 0.05))
        let range = (onset + 2400)..<(onset + 12000)
        let wanted = Signal.magnitude(x, range, frequency: 19_000, sampleRate: 48_000)
        let image = Signal.magnitude(x, range, frequency: 22_900, sampleRate: 48_000)
        #expect(wanted > 0.1, "the 19 kHz tone itself: \(wanted)")
        // Linear interpolation leaves the image about 30 dB down; libsoxr more than 80.
        #expect(image < wanted / 1_000, "image at 22.9 kHz: \(image) against \(wanted)")
    }

    @Test("a file that is not a sound is invalidAudioResource at registration, naming the file, never silence later")
    func undecodableIsRefused() throws {
        let folder = try TemporaryFolder(prefix: "corehaptics-bad-sound")
        let text = try folder.write("notes.aiff", "not a sound at all")
        let truncated = try folder.write("cut.wav", "RIFF")
        let engine = CHHapticEngine(hapticEngine: HapticEngine(device: "null"))
        for url in [text, truncated] {
            do {
                _ = try engine.registerAudioResource(url)
                Issue.record("\(url.lastPathComponent) was registered")
            } catch let error as CHHapticError {
                #expect(error.code == .invalidAudioResource)
                #expect("\(error)".contains(url.lastPathComponent), "\(error)")
            }
        }
    }
}
