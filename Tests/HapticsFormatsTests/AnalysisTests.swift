import Foundation
import HapticsCore
import HapticsFormats
import Testing

/// Audio-to-haptics measured on sounds with known truth.
@Suite("Audio analysis")
struct AnalysisTests {
    /// Onset F1 within ±10 ms for clicks over noise at several signal-to-noise ratios.
    @Test("onsets of clicks over noise: F1 ≥ 0.95 within ±10 ms", arguments: [20.0, 10.0, 6.0])
    func clicks(snr: Double) throws {
        let (samples, truth) = SyntheticSounds.clicks(count: 40, snr: snr, seed: 0x5eed + UInt64(snr))
        let path = try SyntheticSounds.write(samples, sampleRate: 48_000, name: "clicks-\(Int(snr))dB")
        let audio = try AudioFile(contentsOf: path)
        let result = try AudioAnalyzer().analyze(audio)
        var matched = Set<Int>()
        var hits = 0
        for onset in result.onsets {
            if let index = truth.indices.first(where: { !matched.contains($0) && abs(truth[$0] - onset) <= 0.010 }) {
                matched.insert(index)
                hits += 1
            }
        }
        let precision = result.onsets.isEmpty ? 0 : Double(hits) / Double(result.onsets.count)
        let recall = Double(hits) / Double(truth.count)
        let f1 = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0
        let errors = result.onsets.compactMap { o in truth.map { abs($0 - o) }.min() }.filter { $0 <= 0.01 }
        let meanError = errors.isEmpty ? 0 : errors.reduce(0, +) / Double(errors.count)
        print(
            String(
                format: "clicks at %4.1f dB SNR: %d found, %d true, precision %.3f, recall %.3f, F1 %.3f, mean error %.2f ms",
                snr, result.onsets.count, truth.count, precision, recall, f1, meanError * 1000))
        #expect(f1 >= 0.95, "F1 \(f1) at \(snr) dB")
        #expect(result.layers.transients.count == result.onsets.count)
    }

    /// The felt amplitude (the rendered drive's envelope) follows the sound's RMS envelope.
    @Test("intensity envelope correlates ≥ 0.9 with the audio's RMS envelope")
    func envelope() throws {
        let samples = SyntheticSounds.swells()
        let path = try SyntheticSounds.write(samples, sampleRate: 48_000, name: "swells")
        var options = AnalysisOptions()
        options.transients = false
        let result = try AudioAnalyzer(options: options).analyze(try AudioFile(contentsOf: path))
        let pattern = result.pattern()
        let drive = Measure.envelope(Measure.drive(pattern), window: 480)
        let audio = Measure.rmsEnvelope(samples, window: 480)
        let n = min(drive.count, audio.count)
        let r = Measure.correlation(Array(drive.prefix(n)), Array(audio.prefix(n)))
        print(
            String(
                format: "envelope correlation %.4f (%d curve points for %.1f s)", r,
                pattern.curves.filter { $0.id == .hapticIntensityControl }.map(\.controlPoints.count).reduce(0, +), Double(audio.count) / 100))
        #expect(r >= 0.9)
        // The point budget holds: 20 points per second (+ chunk joins).
        let points = result.layers.intensity.count
        #expect(points <= 20 * 4 + 2)
        // Curves obey Apple's limits.
        #expect(pattern.curves.allSatisfy { $0.controlPoints.count <= 16 })
        #expect(pattern.events.allSatisfy { $0.duration <= 30 })
    }

    /// A rising sweep feels sharper and sharper.
    @Test("a sweep's sharpness rises monotonically (Spearman ≥ 0.95)")
    func sweep() throws {
        let samples = SyntheticSounds.sweep()
        let path = try SyntheticSounds.write(samples, sampleRate: 44_100, name: "sweep")
        let result = try AudioAnalyzer().analyze(try AudioFile(contentsOf: path))
        let times = stride(from: 0.1, to: 3.9, by: 0.01).map { $0 }
        let sharpness = times.map { HapticLayers.value(of: result.layers.sharpness, at: $0) }
        let rho = Measure.spearman(times, sharpness)
        print(String(format: "sweep: sharpness %.2f → %.2f, Spearman %.4f", sharpness.first!, sharpness.last!, rho))
        #expect(rho >= 0.95)
        #expect(sharpness.last! - sharpness.first! > 0.5)
    }

    /// Any rate and channel count: a stereo file is mixed to mono.
    @Test("stereo files are mixed to mono at their own rate")
    func stereo() throws {
        let mono = SyntheticSounds.sweep(duration: 0.5, sampleRate: 22_050)
        var stereo: [Float] = []
        for s in mono { stereo += [s, -s * 0.5 + s] }
        let path = try SyntheticSounds.write(stereo, sampleRate: 22_050, channels: 2, name: "stereo")
        let audio = try AudioFile(contentsOf: path)
        #expect(audio.channelCount == 2)
        #expect(audio.sampleRate == 22_050)
        #expect(audio.samples.count == mono.count)
        #expect(abs(audio.samples[1000] - mono[1000] * 0.75) < 1e-5)
    }

    @Test("an unreadable file is one error naming it")
    func unreadable() {
        #expect(throws: FormatError.self) { try AudioFile(contentsOf: "/nonexistent/sound.wav") }
    }
}
