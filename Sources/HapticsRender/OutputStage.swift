/// The last step before a device or file: output gain, hard clipping to ±1 (counted), and
/// placing the mono haptic signal on the profile's haptic channels of an interleaved frame.
package struct OutputStage: Sendable {
    package let channelCount: Int
    /// For each output channel, whether it carries the haptic signal.
    private let carries: [Bool]
    /// The common case, one channel carrying haptics, takes a loop without per-channel tests.
    private let isMono: Bool
    package var gain: Float
    /// Samples (of the mono signal) that exceeded ±1 and were clipped.
    package private(set) var clippedSamples = 0
    /// Largest absolute sample after gain and clipping, and the running sum of squares.
    package private(set) var peak: Float = 0
    package private(set) var sumOfSquares = 0.0
    package private(set) var frames = 0

    package init(profile: ActuatorProfile, gain: Double) {
        channelCount = profile.channelCount
        carries = (0..<profile.channelCount).map { profile.hapticChannels.contains($0) }
        self.gain = Float(profile.gain * gain)
        isMono = profile.channelCount == 1 && profile.hapticChannels == [0]
    }

    /// Writes `frames` mono samples as interleaved frames.
    package mutating func write(mono: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) {
        // Float accumulators within a block (at most a few thousand samples of magnitude ≤ 1),
        // folded into the Double totals once per block: keeps the loop vectorisable.
        var peak: Float = 0
        var squares: Float = 0
        var clipped = 0
        let gain = self.gain
        if isMono {
            for i in 0..<frames {
                let raw = mono[i] * gain
                let x = min(max(raw, -1), 1)
                clipped &+= (x != raw) ? 1 : 0
                peak = max(peak, abs(x))
                squares += x * x
                output[i] = x
            }
        } else {
            for i in 0..<frames {
                let raw = mono[i] * gain
                let x = min(max(raw, -1), 1)
                clipped &+= (x != raw) ? 1 : 0
                peak = max(peak, abs(x))
                squares += x * x
                let base = i * channelCount
                for c in 0..<channelCount { output[base + c] = carries[c] ? x : 0 }
            }
        }
        self.peak = max(self.peak, peak)
        sumOfSquares += Double(squares)
        clippedSamples += clipped
        self.frames += frames
    }

    /// Root mean square of the haptic signal so far.
    package var rms: Double { frames > 0 ? (sumOfSquares / Double(frames)).squareRoot() : 0 }
}

/// Float → 16-bit conversion used by every 16-bit output (files and devices), so that what a
/// device receives and what a file holds agree to the bit: clip to ±1, scale by 32767, round
/// half away from zero.
@inline(__always)
public func int16Sample(_ x: Float) -> Int16 {
    guard !x.isNaN else { return 0 }
    let scaled = min(max(x, -1), 1) * 32767
    // Truncating after adding ±½ is rounding half away from zero, without a libm call.
    return Int16(scaled + (scaled >= 0 ? 0.5 : -0.5))
}
