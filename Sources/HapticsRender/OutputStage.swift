internal import CSystem

/// The last step before a device or file: output gain, hard clipping to ±1 (counted; a sample
/// that is not a number becomes 0, so none ever reaches an output), and
/// placing the mono haptic signal on the profile's haptic channels of an interleaved frame,
/// and the stereo audio signal (audio events), when there is one, on the profile's
/// ``ActuatorProfile/audioChannels``: the first two silent channels (the DualSense's speaker
/// pair), or else added to channels 1 and 2 of a stereo-or-wider output, or summed to mono
/// (`(L + R)/√2`) on a one-channel output. The gain applies to both signals.
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
    /// Largest absolute sample of the audio signal as it reached its channels (after gain).
    package private(set) var audioPeak: Float = 0
    /// Where the audio pair goes: its left and right channel (equal for a mono sum).
    private let audioLeftChannel: Int
    private let audioRightChannel: Int

    package init(profile: ActuatorProfile, gain: Double) {
        channelCount = profile.channelCount
        carries = (0..<profile.channelCount).map { profile.hapticChannels.contains($0) }
        self.gain = Float(profile.gain * gain)
        isMono = profile.channelCount == 1 && profile.hapticChannels == [0]
        let audio = profile.audioChannels
        audioLeftChannel = audio.first ?? 0
        audioRightChannel = audio.count > 1 ? audio[1] : audioLeftChannel
    }

    /// Writes `frames` frames: the mono haptic signal as ``write(mono:frames:into:)`` does,
    /// plus the stereo audio pair on the audio channels. Samples on channels that carry both
    /// are summed before clipping; clipped samples of the haptic signal and of the channels
    /// that carry audio are counted.
    package mutating func write(
        mono: UnsafePointer<Float>, audioLeft: UnsafePointer<Float>, audioRight: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>
    ) {
        write(mono: mono, frames: frames, into: output)
        let gain = self.gain
        let channels = channelCount
        let left = audioLeftChannel
        let right = audioRightChannel
        var peak: Float = 0
        var clipped = 0
        // Haptic samples are already clipped there; add audio to the unclipped haptic value.
        let leftHaptic = carries[left]
        let rightHaptic = carries[right]
        if left == right {
            let scale = gain * Float(0.5.squareRoot())
            for i in 0..<frames {
                let a = (audioLeft[i] + audioRight[i]) * scale
                let raw = (leftHaptic ? mono[i] * gain : 0) + a
                let x = Self.clip(raw)
                clipped &+= (x != raw) ? 1 : 0
                peak = max(peak, abs(a))
                output[i * channels + left] = x
            }
        } else {
            for i in 0..<frames {
                let base = i * channels
                let h = mono[i] * gain
                let l = audioLeft[i] * gain
                let r = audioRight[i] * gain
                let rawL = (leftHaptic ? h : 0) + l
                let rawR = (rightHaptic ? h : 0) + r
                let xL = Self.clip(rawL)
                let xR = Self.clip(rawR)
                clipped &+= ((xL != rawL) ? 1 : 0) &+ ((xR != rawR) ? 1 : 0)
                peak = max(peak, max(abs(l), abs(r)))
                output[base + left] = xL
                output[base + right] = xR
            }
        }
        audioPeak = max(audioPeak, min(peak, 1))
        clippedSamples += clipped
    }

    /// Writes `frames` mono samples as interleaved frames.
    package mutating func write(mono: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) {
        if isMono && writeUnclipped(mono: mono, frames: frames, into: output) { return }
        writeClipping(mono: mono, frames: frames, into: output)
    }

    /// The common case on one channel: a block that stays within ±1 after the gain, written
    /// with its peak and sum of squares and nothing to clip, in a third of the instructions
    /// of ``writeClipping(mono:frames:into:)``. Returns false, having counted nothing, for a
    /// block with a sample beyond ±1 or not a number: that one is written again, clipped.
    @inline(__always)
    private mutating func writeUnclipped(mono: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) -> Bool {
        let gain8 = SIMD8<Float>(repeating: gain)
        var peak8 = SIMD8<Float>(repeating: 0)
        var squares8 = SIMD8<Float>(repeating: 0)
        var i = 0
        while i + 8 <= frames {
            let x = UnsafeRawPointer(mono + i).loadUnaligned(as: SIMD8<Float>.self) * gain8
            let magnitude = unsafeBitCast(unsafeBitCast(x, to: SIMD8<Int32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
            peak8.replace(with: magnitude, where: magnitude .> peak8)
            squares8 += x * x
            UnsafeMutableRawPointer(output + i).storeBytes(of: x, as: SIMD8<Float>.self)
            i += 8
        }
        var peak = peak8.max()
        var squares = squares8.sum()
        while i < frames {
            let x = mono[i] * gain
            peak = max(peak, abs(x))
            squares += x * x
            output[i] = x
            i += 1
        }
        // A NaN sample makes the sum NaN (the peak skips it); the clipping path counts it.
        guard peak <= 1, !squares.isNaN else { return false }
        self.peak = max(self.peak, peak)
        sumOfSquares += Double(squares)
        self.frames += frames
        return true
    }

    /// As ``write(mono:frames:into:)`` into `scratch` followed by ``convertToInt16(_:count:into:)``
    /// into `destination`, bit for bit and with the same figures. One channel, nothing to clip
    /// and AVX2 (the usual render) take one pass that never stores the floats: a quarter of a
    /// render's CPU was writing them and reading them back to convert them.
    package mutating func writeInt16(
        mono: UnsafePointer<Float>, frames: Int, into destination: UnsafeMutableRawPointer, scratch: UnsafeMutablePointer<Float>
    ) {
        if isMono && frames >= 8 {
            // The lanes' peaks come folded (the largest of non-negative numbers, whatever the
            // order); their sums of squares are folded here, as writeUnclipped folds them.
            var peak: Float = 0
            var squares8 = SIMD8<Float>(repeating: 0)
            let done = withUnsafeMutableBytes(of: &squares8) { squares in
                haptics_gain_convert_int16_avx2(mono, frames, gain, destination, &peak, squares.baseAddress!.assumingMemoryBound(to: Float.self))
            }
            if done > 0 {
                // The rest as writeUnclipped finishes a block, then converted one by one.
                var squares = squares8.sum()
                for i in done..<frames {
                    let x = mono[i] * gain
                    peak = max(peak, abs(x))
                    squares += x * x
                    destination.storeBytes(of: int16Sample(x).littleEndian, toByteOffset: 2 * i, as: Int16.self)
                }
                if peak <= 1, !squares.isNaN {
                    self.peak = max(self.peak, peak)
                    sumOfSquares += Double(squares)
                    self.frames += frames
                    return
                }
                // Something to clip: written again, as write(mono:frames:into:) does then.
                writeClipping(mono: mono, frames: frames, into: scratch)
                convertToInt16(scratch, count: frames, into: destination)
                return
            }
        }
        write(mono: mono, frames: frames, into: scratch)
        convertToInt16(scratch, count: frames * channelCount, into: destination)
    }

    /// Writes `frames` mono samples as interleaved frames, clipping to ±1 and counting what
    /// was clipped.
    private mutating func writeClipping(mono: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) {
        // Float accumulators within a block (at most a few thousand samples of magnitude ≤ 1),
        // folded into the Double totals once per block: keeps the loop vectorisable.
        var peak: Float = 0
        var squares: Float = 0
        var clipped = 0
        let gain = self.gain
        if isMono {
            // Eight lanes at a time, each with its own peak, sum of squares and clip count,
            // folded once per block: the same samples as the scalar form, bit for bit.
            let gain8 = SIMD8<Float>(repeating: gain)
            var peak8 = SIMD8<Float>(repeating: 0)
            var squares8 = SIMD8<Float>(repeating: 0)
            var clipped8 = SIMD8<Int32>(repeating: 0)
            var i = 0
            while i + 8 <= frames {
                let raw = UnsafeRawPointer(mono + i).loadUnaligned(as: SIMD8<Float>.self) * gain8
                var x = raw
                x.replace(with: -1, where: x .< -1)
                x.replace(with: 1, where: x .> 1)
                // Not a number (a NaN differs from itself): silence, counted as clipped.
                x.replace(with: 0, where: x .!= x)
                // A true comparison is all ones (−1) in its lane.
                clipped8 &-= unsafeBitCast(x .!= raw, to: SIMD8<Int32>.self)
                let magnitude = unsafeBitCast(unsafeBitCast(x, to: SIMD8<Int32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
                peak8.replace(with: magnitude, where: magnitude .> peak8)
                squares8 += x * x
                UnsafeMutableRawPointer(output + i).storeBytes(of: x, as: SIMD8<Float>.self)
                i += 8
            }
            clipped = Int(clipped8.wrappedSum())
            peak = peak8.max()
            squares = squares8.sum()
            while i < frames {
                let raw = mono[i] * gain
                let x = Self.clip(raw)
                clipped &+= (x != raw) ? 1 : 0
                peak = max(peak, abs(x))
                squares += x * x
                output[i] = x
                i += 1
            }
        } else {
            for i in 0..<frames {
                let raw = mono[i] * gain
                let x = Self.clip(raw)
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

    /// A sample held to ±1, and 0 for one that is not a number: nothing that is not a finite
    /// number ever reaches a device or a file (an infinity is clipped like any loud sample).
    /// A changed sample counts as clipped, since `x != raw` also holds for a NaN.
    @inline(__always)
    static func clip(_ raw: Float) -> Float {
        raw.isNaN ? 0 : min(max(raw, -1), 1)
    }

    /// Writes `frames` frames of a silent haptic signal, as ``write(mono:frames:into:)`` would
    /// write `zeros` (which it reads only for a gain that does not leave zero a plain zero).
    package mutating func writeSilence(zeros: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) {
        // A negative or non-finite gain turns zero into −0 or NaN, which the full path writes.
        guard gain.isFinite, gain >= 0 else { return write(mono: zeros, frames: frames, into: output) }
        output.update(repeating: 0, count: frames * channelCount)
        self.frames += frames
    }

    /// As ``writeSilence(zeros:frames:into:)`` into `scratch` followed by
    /// ``convertToInt16(_:count:into:)`` into `destination`: zero bytes, unless the gain makes
    /// zero something else.
    package mutating func writeSilenceInt16(
        zeros: UnsafePointer<Float>, frames: Int, into destination: UnsafeMutableRawPointer, scratch: UnsafeMutablePointer<Float>
    ) {
        guard gain.isFinite, gain >= 0 else {
            write(mono: zeros, frames: frames, into: scratch)
            return convertToInt16(scratch, count: frames * channelCount, into: destination)
        }
        destination.initializeMemory(as: UInt8.self, repeating: 0, count: 2 * frames * channelCount)
        self.frames += frames
    }

    /// Adds the figures of a stage that wrote the frames after this one's (the second part of
    /// a render split in two).
    package mutating func absorb(_ other: OutputStage) {
        clippedSamples += other.clippedSamples
        peak = max(peak, other.peak)
        sumOfSquares += other.sumOfSquares
        frames += other.frames
        audioPeak = max(audioPeak, other.audioPeak)
    }

    /// Root mean square of the haptic signal so far.
    package var rms: Double { frames > 0 ? (sumOfSquares / Double(frames)).squareRoot() : 0 }
}
