import HapticsRender
/// The arithmetic between the engine's Float32 samples and what an ALSA device is sent.
///
/// Kept apart from ``ALSAOutput`` so that an offline renderer can produce exactly what a
/// 16-bit device receives, and so that the fade after a recovery can be tested without a device.
package enum ALSASampleConversion {
    /// One Float32 sample as a 16-bit sample: NaN becomes 0, the value is clipped to −1…1,
    /// multiplied by 32767 in single precision and rounded to the nearest integer, halves away
    /// from zero. So 1 → 32767, −1 → −32767 (−32768 is never produced), 0.5 → 16384 (16383.5
    /// rounded up) and −0.5 → −16384.
    @inline(__always)
    package static func s16(_ sample: Float) -> Int16 {
        // The renderer's definition, so a 16-bit device and a 16-bit file agree to the bit.
        int16Sample(sample)
    }

    /// Copies `frames` interleaved frames, applying `fade` frame by frame.
    static func copy(
        _ source: UnsafePointer<Float>, frames: Int, channels: Int,
        into destination: UnsafeMutablePointer<Float>, fade: inout ALSAFadeIn
    ) {
        var index = 0
        for _ in 0..<frames {
            let gain = fade.nextGain()
            for _ in 0..<channels {
                destination[index] = source[index] * gain
                index += 1
            }
        }
    }

    /// Converts `frames` interleaved frames to 16-bit, applying `fade` before the conversion.
    static func convertToS16(
        _ source: UnsafePointer<Float>, frames: Int, channels: Int,
        into destination: UnsafeMutablePointer<Int16>, fade: inout ALSAFadeIn
    ) {
        if !fade.isActive {
            convertToInt16(source, count: frames * channels, into: UnsafeMutableRawPointer(destination))
            return
        }
        var index = 0
        for _ in 0..<frames {
            let gain = fade.nextGain()
            for _ in 0..<channels {
                destination[index] = s16(source[index] * gain)
                index += 1
            }
        }
    }
}

/// A linear ramp from silence to full level over a fixed number of frames, armed after the
/// device lost samples (an underrun, a suspend, a stop) so that the resumed signal does not
/// start with a step.
struct ALSAFadeIn {
    /// Frames the ramp lasts.
    let length: Int
    private(set) var remaining = 0

    init(length: Int) {
        self.length = max(1, length)
    }

    var isActive: Bool { remaining > 0 }

    /// Restarts the ramp: the next frame gets gain 0.
    mutating func arm() {
        remaining = length
    }

    /// The gain for the next frame: 0, 1/length, 2/length, … then 1 once the ramp is over.
    @inline(__always)
    mutating func nextGain() -> Float {
        guard remaining > 0 else { return 1 }
        let gain = Float(length - remaining) / Float(length)
        remaining -= 1
        return gain
    }
}
