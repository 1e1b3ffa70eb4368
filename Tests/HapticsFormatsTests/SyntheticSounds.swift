import Foundation
import HapticsRender
import HapticsTestSupport

/// Sounds the analysis tests synthesise, with their truth, written as WAV files through the
/// project's ``WAVWriter`` and read back through libsndfile like any user's file.
enum SyntheticSounds {
    /// Where the sounds are written, for the whole run (a static is never released).
    static let scratch = try! TemporaryFolder(prefix: "haptics-formats-tests")

    /// A deterministic generator (xorshift), so every run hears the same noise.
    struct Random {
        var state: UInt64
        mutating func next() -> Double {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Double(state >> 11) / Double(1 << 53)
        }
        /// Standard normal (Box–Muller).
        mutating func gaussian() -> Double {
            let u = max(next(), 1e-12)
            let v = next()
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
    }

    /// Writes interleaved samples to a temporary WAV file (32-bit float) and returns its path.
    static func write(_ samples: [Float], sampleRate: Int, channels: Int = 1, name: String) throws -> String {
        let path = scratch.path(name + ".wav")
        let writer = try WAVWriter(path: path, sampleRate: sampleRate, channelCount: channels, format: .f32, frameCount: samples.count / channels)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.finish()
        return path
    }

    /// Clicks (3 ms bursts of a decaying 2.5 kHz tone) at known times over white noise, at a
    /// signal-to-noise ratio in dB between a click's RMS and the noise's RMS. The first click
    /// comes at 0.25 s.
    static func clicks(count: Int, snr: Double, sampleRate: Double = 48_000, seed: UInt64) -> (samples: [Float], onsets: [Double]) {
        var random = Random(state: seed)
        var onsets: [Double] = []
        var t = 0.25
        for _ in 0..<count {
            onsets.append(t)
            t += 0.12 + 0.25 * random.next()
        }
        let length = Int((t + 0.25) * sampleRate)
        let clickLength = Int(0.003 * sampleRate)
        let clickRMS = 0.5
        let noiseRMS = clickRMS / pow(10, snr / 20)
        // The noise fades in over 100 ms: an abrupt start would be an onset too.
        var samples = (0..<length).map { i in Float(noiseRMS * random.gaussian() * min(1, Double(i) / (0.1 * sampleRate))) }
        for onset in onsets {
            let start = Int(onset * sampleRate)
            for i in 0..<clickLength where start + i < length {
                let decay = exp(-Double(i) / Double(clickLength) * 2)
                // Scaled so the burst's RMS is clickRMS.
                samples[start + i] += Float(clickRMS * 1.9 * decay * sin(2 * .pi * 2500 * Double(i) / sampleRate))
            }
        }
        return (samples, onsets)
    }

    /// A 440 Hz tone with a slowly moving level (two swells and a fade), and its level function.
    static func swells(duration: Double = 4, sampleRate: Double = 48_000) -> [Float] {
        let n = Int(duration * sampleRate)
        return (0..<n).map { i in
            let t = Double(i) / sampleRate
            let level = 0.05 + 0.45 * pow(sin(.pi * t / duration * 2), 2) * (1 - 0.5 * t / duration)
            return Float(level * sin(2 * .pi * 440 * t))
        }
    }

    /// A logarithmic sine sweep from `low` to `high` Hz at constant amplitude.
    static func sweep(from low: Double = 100, to high: Double = 8000, duration: Double = 4, sampleRate: Double = 48_000) -> [Float] {
        let n = Int(duration * sampleRate)
        let k = log(high / low)
        return (0..<n).map { i in
            let t = Double(i) / sampleRate
            let phase = 2 * .pi * low * duration / k * (exp(k * t / duration) - 1)
            return Float(0.5 * sin(phase))
        }
    }
}
