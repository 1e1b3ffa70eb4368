import Foundation
import Haptics
import HapticsTestSupport

/// An ALSA file-plugin output (`file:'PATH',wav`) that code under test plays to when it makes
/// its engines with `CHHapticEngine()` inside ``run(_:)``, and the samples read back.
///
/// The file plugin is not paced: while a player is active the engine writes as fast as it
/// renders, while idle about as fast as the wall clock. Commands stamped with engine times
/// land at exact samples; `CHHapticTimeImmediate` lands at the next block.
final class FileOutput: Sendable {
    private let folder: TemporaryFolder
    let url: URL
    let profile: ActuatorProfile

    init(profile: ActuatorProfile = .wideband) {
        folder = try! TemporaryFolder(prefix: "corehaptics")
        url = folder.file("output.wav")
        self.profile = profile
    }

    var selection: HapticOutputSelection {
        HapticOutputSelection(device: "file:'\(url.path)',wav", profile: profile)
    }

    /// Runs `body` with this output chosen for every engine it creates.
    func run<T>(_ body: () throws -> T) rethrows -> T {
        try HapticOutputSelection.$override.withValue(selection, operation: body)
    }

    /// Runs `body` with this output chosen for every engine it creates.
    func run<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async rethrows -> T {
        try await HapticOutputSelection.$override.withValue(selection, operation: body, isolation: isolation)
    }

    /// The first haptic channel's samples once at least `seconds` were written (the file
    /// may still be open: its header then claims no data, so the data is read to the end).
    func samples(seconds: Double, timeout: Duration = .seconds(10)) throws -> [Float] {
        var file: WAVFile?
        try Wait.require("\(url.path) reached \(seconds) s of audio", timeout: timeout, interval: .milliseconds(10)) {
            // Unreadable until the plugin has written its header.
            file = try? WAVFile(contentsOf: url)
            return file.map { Double($0.frameCount) >= seconds * Double(profile.sampleRate) } ?? false
        }
        guard let file else { return [] }
        // alsa-lib labels float samples as 32-bit integers: 32 bits are floats here, since the
        // engine asks for FLOAT_LE first.
        let samples = file.bitsPerSample == 32 ? file.float32Samples : file.int16Samples.map { Float($0) / 32768 }
        return WAVFile.channel(profile.hapticChannels.first ?? 0, of: samples, channels: file.channelCount)
    }
}

/// Measurements of taps in a recording.
enum Taps {
    /// Onsets (in samples) of sounds separated by at least 5 ms of silence.
    static func onsets(_ x: [Float]) -> [Int] { Signal.onsets(x, gap: 240) }

    /// The peak magnitude of the sound starting at `onset`, over `length` samples.
    static func peak(_ x: [Float], at onset: Int, length: Int = 2400) -> Float {
        Signal.peak(x, onset..<min(x.count, onset + length))
    }
}
