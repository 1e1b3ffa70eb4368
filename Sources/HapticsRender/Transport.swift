/// How one playing pattern moves through time: whether it plays, is paused or is stopping, its
/// loop (where it wraps, how many times), and its gain ramp (mute). It drives a
/// ``PatternSynth`` as a tape transport drives a tape: the synth makes the sound, the
/// transport says from where and for how long.
///
/// Written once for both places a pattern plays: the offline ``HapticRenderer`` drives its
/// synth through one, and each of the real-time engine's player slots holds one, so a render
/// with a ``HapticRenderer/Playback`` equals what a player with the same loop and rate plays,
/// sample for sample, by construction. A render cycle is
///
/// ```swift
/// var done = 0
/// while done < frames {
///     let count = transport.nextSpan(of: synth, atMost: frames - done)
///     if count > 0 { /* synth.render(…, frames: count) */ }
///     done += count
///     transport.endSpan(of: synth)
/// }
/// ```
///
/// A loop wraps on its exact frame: a span ends there, and `endSpan` takes the synth back to
/// the pattern's start. A loop shorter than a frame (a tiny loop end at a high rate) still
/// plays one frame after each wrap, so the position always moves on.
///
/// A value without a synth of its own: its owner passes the synth to every call (the engine
/// holds its synths unretained on the audio thread, where a release could free one). It
/// allocates nothing, takes no lock and belongs to one thread at a time.
package struct Transport: Sendable {
    /// Where the pattern is in its life.
    package enum State: Sendable, Hashable {
        /// Not playing (never started, finished, or stopped and faded out).
        case idle
        case playing
        /// Pattern time holds; voices have faded out.
        case paused
        /// Stopped: voices fade out, then the transport is idle.
        case stopping
    }

    package private(set) var state = State.idle
    /// Whether the pattern repeats; where it wraps, in pattern seconds (0: the synth's
    /// ``PatternSynth/naturalLoopEnd``); how many times it plays in all (0: forever).
    package private(set) var loopEnabled = false
    package private(set) var loopEnd = 0.0
    package private(set) var loopCount = 0
    /// Wraps left in this run of a counted loop.
    package private(set) var wrapsLeft = 0
    /// The span last returned ends at the loop's end: ``endSpan(of:)`` wraps.
    private var wrapDue = false
    /// The last span ended in a wrap: the next one is at least a frame long.
    private var justWrapped = false
    /// The player's gain (mute), ramped per sample.
    package var gain: GainRamp

    /// An idle transport whose gain ramps by `gainStep` per sample (2 ms from 0 to 1 in the
    /// engine).
    package init(gainStep: Float) {
        gain = GainRamp(step: gainStep)
    }

    /// Whether the pattern wraps at its loop end (rather than playing on to its end).
    package var isLooping: Bool { loopEnabled && (loopCount == 0 || wrapsLeft > 0) }

    // MARK: Commands

    /// Plays from `offset` pattern seconds (restarting if already playing); a counted loop
    /// starts its count again.
    package mutating func start(_ synth: PatternSynth, at offset: Double) {
        // Seek first: a paused synth only moves, and unpausing then starts what is in progress
        // at `offset` (unpausing first would sound the old position for 2 ms). Values sent
        // before the start hold: `seek` carries those in effect over to the new position.
        synth.seek(to: offset)
        synth.setPaused(false)
        state = .playing
        wrapsLeft = loopCount - 1
        justWrapped = false
    }

    /// Ends the pattern: its voices fade out, then the transport is idle. Nothing when idle.
    package mutating func stop(_ synth: PatternSynth) {
        guard state != .idle else { return }
        synth.stop()
        state = .stopping
    }

    /// Holds pattern time (voices fade out). Only while playing.
    package mutating func pause(_ synth: PatternSynth) {
        guard state == .playing else { return }
        synth.setPaused(true)
        state = .paused
    }

    /// Lets a paused pattern run again.
    package mutating func resume(_ synth: PatternSynth) {
        guard state == .paused else { return }
        synth.setPaused(false)
        state = .playing
    }

    /// Moves to `offset` pattern seconds; a paused pattern only moves (no sound until resumed).
    package mutating func seek(_ synth: PatternSynth, to offset: Double) {
        synth.seek(to: offset)
        justWrapped = false
    }

    /// Changes how fast pattern time runs, from the next frame on (see
    /// ``PatternSynth/setRate(_:)`` for the range).
    package func setRate(_ synth: PatternSynth, _ rate: Double) {
        synth.setRate(rate)
    }

    /// Sets the loop: wrap at `end` (0: the pattern's end), `count` plays in all (0: forever).
    package mutating func setLoop(enabled: Bool, end: Double, count: Int) {
        loopEnabled = enabled
        loopEnd = end
        loopCount = count
        wrapsLeft = count - 1
    }

    /// Mutes or unmutes the player through its gain ramp; an idle one starts at its target.
    package mutating func setMuted(_ muted: Bool) {
        gain.target = muted ? 0 : 1
        // A silent player needs no ramp: it starts at its target.
        if state == .idle { gain.gain = gain.target }
    }

    /// Drops everything sounding at once and becomes idle: only once the output is silent
    /// (the engine's stop has faded it out).
    package mutating func silence(_ synth: PatternSynth) {
        synth.silence()
        state = .idle
    }

    // MARK: Spans

    /// Frames of `synth` to render next, at most `frames`: fewer when the loop wraps within
    /// them (the span then ends on the wrap's frame, and may be empty), else `frames`.
    /// Follow it with ``endSpan(of:)`` once they are rendered.
    package mutating func nextSpan(of synth: PatternSynth, atMost frames: Int) -> Int {
        wrapDue = false
        let after = justWrapped
        justWrapped = false
        guard isLooping && state == .playing else { return frames }
        let end = loopEnd > 0 ? loopEnd : synth.naturalLoopEnd
        let untilEnd = Self.frames(from: synth.patternTime, to: end, sampleRate: synth.sampleRate, rate: synth.rate)
        guard untilEnd <= Double(frames) else { return frames }
        wrapDue = true
        // A loop shorter than a frame (tiny loop end, high rate) still plays a frame per wrap,
        // or it would wrap forever without advancing.
        return max(after ? 1 : 0, Int(max(0, untilEnd)))
    }

    /// After the span ``nextSpan(of:atMost:)`` returned was rendered: wraps to the pattern's
    /// start if the span ended at the loop's end.
    package mutating func endSpan(of synth: PatternSynth) {
        guard wrapDue else { return }
        wrapDue = false
        synth.seek(to: 0)
        if loopCount > 0 { wrapsLeft -= 1 }
        justWrapped = true
    }

    /// Becomes idle when the pattern is over: played to its end (and not looping), or
    /// stopped and faded out. Returns whether it just did (the player finished).
    package mutating func finishIfDone(_ synth: PatternSynth) -> Bool {
        switch state {
        case .playing where synth.isFinished && !isLooping, .stopping where !synth.isSounding:
            state = .idle
            return true
        default:
            return false
        }
    }

    /// Frames from pattern time `time` to `end` at `rate`, rounded to the nearest frame: where
    /// a loop wraps. In `Double`: far past the end (a seek) the count overflows `Int`.
    package static func frames(from time: Double, to end: Double, sampleRate: Double, rate: Double) -> Double {
        ((end - time) * sampleRate / rate).rounded()
    }
}

/// A gain that moves towards its target by a fixed step per sample (mute and unmute ramps,
/// fades), so that no change clicks.
package struct GainRamp: Sendable {
    /// The gain of the next sample.
    package var gain: Float = 1
    package var target: Float = 1
    /// How far the gain moves per sample.
    package var step: Float

    /// A ramp at 1, moving `step` per sample.
    package init(step: Float) {
        self.step = step
    }

    /// Whether the gain is 1 and stays there: samples pass unchanged.
    package var isUnity: Bool { gain == 1 && target == 1 }

    /// Whether the gain is 0 and stays there.
    package var isSilent: Bool { gain == 0 && target == 0 }

    @inline(__always)
    private static func next(_ gain: Float, to target: Float, step: Float) -> Float {
        if gain < target { return min(target, gain + step) } else if gain > target { return max(target, gain - step) }
        return gain
    }

    /// Adds `frames` samples of `source`, each through the ramp, into `destination`, and moves
    /// the ramp on.
    package mutating func add(_ source: UnsafePointer<Float>, into destination: UnsafeMutablePointer<Float>, frames: Int) {
        if isUnity {
            for i in 0..<frames { destination[i] += source[i] }
            return
        }
        var g = gain
        for i in 0..<frames {
            g = Self.next(g, to: target, step: step)
            destination[i] += source[i] * g
        }
        gain = g
    }

    /// Adds a stereo pair through the gains ``add(_:into:frames:)`` would apply to the same
    /// frames, without moving the ramp (the audio beside a haptic signal, through the same
    /// ramp).
    package func add(
        left: UnsafePointer<Float>, right: UnsafePointer<Float>, into leftDestination: UnsafeMutablePointer<Float>,
        _ rightDestination: UnsafeMutablePointer<Float>, frames: Int
    ) {
        if isUnity {
            for i in 0..<frames {
                leftDestination[i] += left[i]
                rightDestination[i] += right[i]
            }
            return
        }
        var g = gain
        for i in 0..<frames {
            g = Self.next(g, to: target, step: step)
            leftDestination[i] += left[i] * g
            rightDestination[i] += right[i] * g
        }
    }

    /// Multiplies `frames` samples in place through the ramp and moves it on.
    package mutating func scale(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        if isUnity { return }
        var g = gain
        for i in 0..<frames {
            g = Self.next(g, to: target, step: step)
            buffer[i] *= g
        }
        gain = g
    }

    /// Multiplies a stereo pair in place through the ramp and moves it on.
    package mutating func scale(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        if isUnity { return }
        var g = gain
        for i in 0..<frames {
            g = Self.next(g, to: target, step: step)
            left[i] *= g
            right[i] *= g
        }
        gain = g
    }

    /// Moves the ramp on by `frames` samples through silence (nothing to scale), in one step.
    package mutating func skip(frames: Int) {
        let move = step * Float(frames)
        gain = gain < target ? min(target, gain + move) : max(target, gain - move)
    }
}
