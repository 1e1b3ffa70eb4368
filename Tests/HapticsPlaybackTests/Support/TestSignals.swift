import Foundation

/// Known signals to play, and measurements on what came back.
enum TestSignals {
    /// `frames` samples of a sine starting at `phase` radians.
    static func sine(frequency: Double, amplitude: Float, frames: Int, sampleRate: Int, phase: Double = 0) -> [Float] {
        (0..<frames).map { amplitude * Float(sin(phase + 2 * Double.pi * frequency * Double($0) / Double(sampleRate))) }
    }

    /// Interleaves per-channel signals of equal length.
    static func interleave(_ channels: [[Float]]) -> [Float] {
        guard let frames = channels.first?.count else { return [] }
        var result: [Float] = []
        result.reserveCapacity(frames * channels.count)
        for frame in 0..<frames {
            for channel in channels { result.append(channel[frame]) }
        }
        return result
    }

    /// One channel of an interleaved signal.
    static func channel(_ index: Int, of samples: [Float], channelCount: Int) -> [Float] {
        stride(from: index, to: samples.count, by: channelCount).map { samples[$0] }
    }

    /// The first frame at or after `start` whose magnitude exceeds `threshold`.
    static func onset(in signal: [Float], after start: Int = 0, threshold: Float) -> Int? {
        guard start < signal.count else { return nil }
        return signal[start...].firstIndex { abs($0) > threshold }
    }

    /// The largest step between consecutive samples: a click shows up as a step far above what
    /// the signal's own slope allows.
    static func largestStep(in signal: ArraySlice<Float>) -> Float {
        zip(signal, signal.dropFirst()).map { abs($1 - $0) }.max() ?? 0
    }
}
