import Foundation
import HapticsCore
import HapticsTestSupport
import Testing
@testable import HapticsRender

/// Rendering to a file streams block by block; what it writes must be what the in-memory
/// render holds, converted sample by sample.
@Suite("Streaming render")
struct StreamingRenderTests {
    /// A pattern with transients, a continuous event with an envelope, a curve and a silent gap.
    var pattern: HapticPattern {
        var events: [HapticEvent] = (0..<12).map { (i: Int) -> HapticEvent in
            let x = Double(i)
            return .transient(at: x * 0.041, intensity: 0.3 + x / 20, sharpness: x / 12)
        }
        events.append(.continuous(at: 0.2, duration: 0.4, intensity: 0.9, sharpness: 0.4, attack: 0.1, release: 0.2))
        events.append(.transient(at: 1.3, intensity: 1, sharpness: 1))
        let curve = HapticParameterCurve(.hapticSharpnessControl, at: 0.3, points: [(0, 0), (0.2, 0.5), (0.3, -0.2)])
        return HapticPattern(events: events, curves: [curve])
    }

    /// The data bytes the in-memory render becomes in a WAV of `format`.
    func expectedData(_ signal: RenderedSignal, format: SampleFormat) -> [UInt8] {
        var bytes: [UInt8] = []
        for sample in signal.samples {
            switch format {
            case .s16:
                let v = UInt16(bitPattern: int16Sample(sample))
                bytes += [UInt8(v & 0xFF), UInt8(v >> 8)]
            case .f32:
                let v = sample.bitPattern
                bytes += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)]
            }
        }
        return bytes
    }

    @Test("a WAV file holds the in-memory render, byte for byte", arguments: [SampleFormat.s16, .f32], [1, 3])
    func fileEqualsMemory(format: SampleFormat, repetitions: Int) throws {
        let playback = HapticRenderer.Playback(count: repetitions)
        let signal = HapticRenderer.render(pattern, playback: playback)
        let folder = try TemporaryFolder(prefix: "haptics-stream")
        let path = folder.path("render.wav")
        let statistics = try HapticRenderer(pattern: pattern, playback: playback).writeWAV(to: path, format: format)
        let wav = try WAVFile(contentsOf: URL(fileURLWithPath: path))
        #expect(statistics.frames == signal.frameCount)
        #expect(statistics.peak == signal.statistics.peak)
        #expect(statistics.clippedSamples == signal.statistics.clippedSamples)
        // The sum of squares is gathered per block in single precision, and loop wraps split
        // blocks where the caller's buffer ends, so the RMS agrees to rounding only.
        #expect(abs(statistics.rms - signal.statistics.rms) <= 1e-6 * signal.statistics.rms)
        #expect(wav.data == expectedData(signal, format: format))
    }

    @Test("a multi-channel WAV file holds the in-memory render, byte for byte")
    func multiChannelFileEqualsMemory() throws {
        let signal = HapticRenderer.render(pattern, profile: .dualsense)
        let folder = try TemporaryFolder(prefix: "haptics-stream")
        let path = folder.path("render.wav")
        try HapticRenderer(pattern: pattern, profile: .dualsense).writeWAV(to: path, format: .s16)
        #expect(try WAVFile(contentsOf: URL(fileURLWithPath: path)).data == expectedData(signal, format: .s16))
    }

    @Test("silence between events is written as zeros, and counts in the statistics")
    func silentBlocks() {
        let sparse = HapticPattern(events: [.transient(at: 0, intensity: 1, sharpness: 0.5), .transient(at: 2, intensity: 1, sharpness: 0.5)])
        let signal = HapticRenderer.render(sparse)
        #expect(signal.frameCount >= 2 * 48_000)
        let gap = signal.samples[4_800..<(2 * 48_000 - 100)]
        #expect(gap.allSatisfy { $0 == 0 && $0.sign == .plus })
        #expect(signal.statistics.frames == signal.frameCount)
        // RMS over the whole length: the silence counts.
        let squares = signal.samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        #expect(abs(signal.statistics.rms - (squares / Double(signal.frameCount)).squareRoot()) < 1e-6)
    }
}
