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
    let url: URL
    let profile: ActuatorProfile

    init(profile: ActuatorProfile = .wideband) {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("corehaptics-\(UUID().uuidString).wav")
        self.profile = profile
    }

    deinit { try? FileManager.default.removeItem(at: url) }

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

    struct Timeout: Error, CustomStringConvertible {
        var description: String
    }

    /// The first haptic channel's samples once at least `seconds` were written (the file
    /// may still be open: its header then claims no data, so the data is read to the end).
    func samples(seconds: Double, timeout: TimeInterval = 10) throws -> [Float] {
        let header = 44
        let rate = Double(profile.sampleRate)
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let bytes = try? [UInt8](Data(contentsOf: url)), bytes.count > header,
               LittleEndian.tag(bytes, 0) == "RIFF", LittleEndian.tag(bytes, 36) == "data" {
                let channels = Int(LittleEndian.u16(bytes, 22))
                let bits = Int(LittleEndian.u16(bytes, 34))
                let frameBytes = channels * bits / 8
                let frames = (bytes.count - header) / frameBytes
                if Double(frames) >= seconds * rate {
                    let channel = profile.hapticChannels.first ?? 0
                    return (0..<frames).map { frame in
                        let offset = header + frame * frameBytes + channel * bits / 8
                        // alsa-lib labels float samples as 32-bit integers: 32 bits are floats
                        // here, since the engine asks for FLOAT_LE first.
                        return bits == 32 ? Float(bitPattern: LittleEndian.u32(bytes, offset))
                            : Float(Int16(bitPattern: LittleEndian.u16(bytes, offset))) / 32768
                    }
                }
            }
            guard Date() < deadline else {
                throw Timeout(description: "\(url.path) did not reach \(seconds) s of audio in \(timeout) s")
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
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
