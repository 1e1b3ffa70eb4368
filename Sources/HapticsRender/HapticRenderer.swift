import FoundationEssentials
import HapticsCore

/// Renders a pattern offline into the drive signal for an actuator profile, block by block.
///
/// ```swift
/// let renderer = HapticRenderer(pattern: pattern, profile: .lra)
/// var block = [Float](repeating: 0, count: 512 * renderer.channelCount)
/// while case let frames = block.withUnsafeMutableBufferPointer({ renderer.render(into: $0) }), frames > 0 {
///     // use frames × channelCount interleaved samples
/// }
/// ```
///
/// Memory stays constant whatever the pattern's length, and nothing is allocated per block. The
/// real-time engine runs the same synthesis, so playing a pattern sends a device exactly what
/// rendering it writes.
///
/// By default the render is the haptic drive signal alone. With `includingAudio`, audio events
/// are mixed in as the engine plays them (see ``ActuatorProfile/audioChannels``): on the
/// profile's silent channels, or added to channels 1–2 (mono: summed) of a mono-copied profile.
public final class HapticRenderer {
    /// Output sample rate in hertz.
    public let sampleRate: Int
    /// Interleaved channels per frame.
    public let channelCount: Int
    /// Frames the whole render produces: the pattern's duration or the end of its last sound,
    /// whichever is later.
    public let totalFrames: Int
    // This and the stage, the end and the transport below are read and written on every
    // block, by the one thread rendering: their accesses are not checked at run time, which
    // cost more than the block's bookkeeping (1.7% of a long render's CPU).
    /// Frames produced so far.
    @exclusivity(unchecked) public private(set) var renderedFrames = 0
    /// Haptic events that found no free voice (too many overlapping at once).
    public var droppedEvents: Int { synth.droppedEvents + absorbedDrops }
    /// Whether audio events are mixed in.
    public let includesAudio: Bool
    /// Sound files of `AudioCustom` events that could not be loaded (their events are silent).
    public var soundFileProblems: [SoundFileError] { synth.pattern.soundFileProblems }

    private let synth: PatternSynth
    @exclusivity(unchecked) private var output: OutputStage
    /// Where this renderer stops: ``totalFrames``, or the frame where a second renderer took
    /// over (``splitAtSilence()``).
    @exclusivity(unchecked) private var endFrame: Int
    /// The gain given, for a second renderer.
    private let gain: Double
    /// Events the second part of a split render dropped.
    private var absorbedDrops = 0
    private let mono: UnsafeMutableBufferPointer<Float>
    /// The audio pair, when audio is mixed in.
    private let audioLeft: UnsafeMutableBufferPointer<Float>
    private let audioRight: UnsafeMutableBufferPointer<Float>
    /// A block of the output stage's interleaved floats, for renders to 16-bit samples that
    /// cannot skip them.
    private let scratch: UnsafeMutableBufferPointer<Float>
    /// Frames rendered per synthesis step.
    static let blockFrames = 512

    /// Prepares to render `pattern`.
    ///
    /// - Parameters:
    ///   - sampleRate: output rate; the profile's own rate when nil. Check it first with
    ///     ``ActuatorProfile/problem(withSampleRate:)``.
    ///   - gain: multiplies the profile's gain.
    ///   - includingAudio: mix audio events in (reading their sound files now); by default
    ///     the render is the haptic signal alone.
    public convenience init(
        pattern: HapticPattern, profile: ActuatorProfile = .wideband, sampleRate: Int? = nil, gain: Double = 1,
        includingAudio: Bool = false, playback: Playback = Playback()
    ) {
        self.init(
            compiled: CompiledPattern(pattern, includingAudio: includingAudio), profile: profile, sampleRate: sampleRate, gain: gain,
            playback: playback)
    }

    /// How the pattern is played, as an advanced player would play it: a number of times in a
    /// row, wrapping at a loop end, at a rate. The render then equals what the engine plays
    /// for a player with the same `loopCount`, `loopEnd` and `playbackRate`.
    public struct Playback: Sendable, Hashable {
        /// Times the pattern plays in all (1: once).
        public var count: Int
        /// Where each repetition wraps, in pattern seconds; 0: the pattern's end (its duration,
        /// or the end of its last sound if later), as for the advanced player.
        public var loopEnd: Double
        /// How fast pattern time runs (1/1000…1000); frequencies do not change.
        public var rate: Double

        /// Plays once at normal speed by default.
        public init(count: Int = 1, loopEnd: Double = 0, rate: Double = 1) {
            self.count = max(1, count)
            self.loopEnd = loopEnd.isFinite && loopEnd > 0 ? max(0.001, loopEnd) : 0
            self.rate = rate.isFinite && rate > 0 ? min(max(rate, PatternSynth.rateRange.lowerBound), PatternSynth.rateRange.upperBound) : 1
        }
    }

    private let playback: Playback
    /// The loop and rate, driven as an engine's player slot drives its synth.
    @exclusivity(unchecked) private var transport: Transport

    /// Prepares to render an already compiled pattern; audio events are mixed in when it was
    /// compiled with them.
    package init(
        compiled: CompiledPattern, profile: ActuatorProfile = .wideband, sampleRate: Int? = nil, gain: Double = 1,
        playback: Playback = Playback()
    ) {
        let rate = sampleRate ?? profile.sampleRate
        self.playback = playback
        self.gain = gain
        includesAudio = compiled.includesAudio
        self.sampleRate = rate
        channelCount = profile.channelCount
        synth = PatternSynth(pattern: compiled, profile: profile, sampleRate: Double(rate))
        output = OutputStage(profile: profile, gain: gain)
        // The renderer plays no ramps (it has no mute): any step does.
        transport = Transport(gainStep: 1)
        transport.setLoop(enabled: true, end: playback.loopEnd, count: playback.count)
        if playback.rate != 1 { transport.setRate(synth, playback.rate) }
        transport.start(synth, at: 0)
        let end = max(compiled.duration, compiled.soundingEnd(profile: profile))
        let loopEnd = playback.loopEnd > 0 ? playback.loopEnd : synth.naturalLoopEnd
        // Each wrap lands on a whole frame (the transport's): repetitions before the last,
        // then the last one to the pattern's end.
        let repetitionFrames = Int(Transport.frames(from: 0, to: loopEnd, sampleRate: Double(rate), rate: playback.rate))
        let lastFrames = Int((end * Double(rate) / playback.rate).rounded(.up))
        // One control tick of slack: a continuous voice reaches zero on the tick after its end.
        totalFrames = (playback.count - 1) * max(1, repetitionFrames) + lastFrames + (end > 0 ? synth.tickFrames : 0)
        endFrame = totalFrames
        mono = .allocate(capacity: Self.blockFrames)
        mono.initialize(repeating: 0)
        let audioFrames = includesAudio ? Self.blockFrames : 0
        audioLeft = .allocate(capacity: audioFrames)
        audioLeft.initialize(repeating: 0)
        audioRight = .allocate(capacity: audioFrames)
        audioRight.initialize(repeating: 0)
        scratch = .allocate(capacity: Self.blockFrames * channelCount)
        scratch.initialize(repeating: 0)
    }

    deinit {
        scratch.deallocate()
        mono.deallocate()
        audioLeft.deallocate()
        audioRight.deallocate()
    }

    /// Renders the next frames into `buffer` (interleaved, `channelCount` samples a frame) and
    /// returns how many frames it wrote; 0 once the render is complete.
    public func render(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        let channels = channelCount
        return renderSpans(capacity: buffer.count / channels) { n, written in
            let out = base + written * channels
            if includesAudio {
                output.write(mono: mono.baseAddress!, audioLeft: audioLeft.baseAddress!, audioRight: audioRight.baseAddress!, frames: n, into: out)
            } else if synth.lastBlockSounded {
                output.write(mono: mono.baseAddress!, frames: n, into: out)
            } else {
                // Nothing sounded: the block is silence, written without mixing.
                output.writeSilence(zeros: mono.baseAddress!, frames: n, into: out)
            }
        }
    }

    /// Renders up to `capacity` frames as 16-bit little-endian samples at `destination`
    /// (unaligned, interleaved), exactly as ``render(into:)`` followed by
    /// ``convertToInt16(_:count:into:)`` would; returns the frames written, 0 once the render
    /// is complete. The haptic signal goes from the synthesis to its samples without being
    /// stored as floats in between where it can (``OutputStage/writeInt16(mono:frames:into:scratch:)``).
    package func render(int16 destination: UnsafeMutableRawPointer, frames capacity: Int) -> Int {
        let frameBytes = 2 * channelCount
        let channels = channelCount
        let scratch = self.scratch.baseAddress!
        return renderSpans(capacity: capacity) { n, written in
            let out = destination + written * frameBytes
            if includesAudio {
                output.write(mono: mono.baseAddress!, audioLeft: audioLeft.baseAddress!, audioRight: audioRight.baseAddress!, frames: n, into: scratch)
                convertToInt16(scratch, count: n * channels, into: out)
            } else if synth.lastBlockSounded {
                output.writeInt16(mono: mono.baseAddress!, frames: n, into: out, scratch: scratch)
            } else {
                output.writeSilenceInt16(zeros: mono.baseAddress!, frames: n, into: out, scratch: scratch)
            }
        }
    }

    /// Renders up to `capacity` frames, a span at a time: synthesises each span into the
    /// haptic signal (and the audio pair) and hands it to `emit` (its frames, and the frames
    /// written before it) to put through the output stage. Returns the frames rendered.
    @inline(__always)
    private func renderSpans(capacity: Int, _ emit: (_ frames: Int, _ written: Int) -> Void) -> Int {
        var written = 0
        while written < capacity && renderedFrames < endFrame {
            // A loop wraps on its exact frame: the span ends there, and the wrap follows it.
            let n = transport.nextSpan(of: synth, atMost: min(Self.blockFrames, capacity - written, endFrame - renderedFrames))
            if n == 0 {
                transport.endSpan(of: synth)
                continue
            }
            mono.baseAddress!.update(repeating: 0, count: n)
            if includesAudio {
                audioLeft.baseAddress!.update(repeating: 0, count: n)
                audioRight.baseAddress!.update(repeating: 0, count: n)
                synth.render(adding: mono.baseAddress!, audioLeft: audioLeft.baseAddress!, audioRight: audioRight.baseAddress!, frames: n)
            } else {
                synth.render(adding: mono.baseAddress!, frames: n)
            }
            emit(n, written)
            written += n
            renderedFrames += n
            transport.endSpan(of: synth)
        }
        return written
    }

    /// Splits what is left to render in two at a silence near its middle: returns a renderer
    /// for the second part, positioned at that frame, and stops this one there. The two parts
    /// together are exactly the whole. `nil`, and nothing changed, when the render cannot be
    /// split: it has started, mixes audio, repeats, or never falls silent in its middle half.
    package func splitAtSilence() -> HapticRenderer? {
        guard renderedFrames == 0, endFrame == totalFrames, playback.count == 1, !includesAudio,
            let frame = synth.silentFrame(near: totalFrames / 2, within: (totalFrames / 4)...(totalFrames * 3 / 4))
        else { return nil }
        let second = HapticRenderer(compiled: synth.pattern, profile: synth.profile, sampleRate: sampleRate, gain: gain, playback: playback)
        second.synth.skipSilence(to: frame)
        second.renderedFrames = frame
        endFrame = frame
        return second
    }

    /// Takes in the figures of the second part of a split render once both parts are done.
    package func absorb(_ second: HapticRenderer) {
        precondition(renderedFrames == endFrame && second.renderedFrames == second.totalFrames)
        output.absorb(second.output)
        absorbedDrops += second.droppedEvents
        renderedFrames = second.renderedFrames
        endFrame = totalFrames
    }

    /// Figures about the signal rendered so far.
    public var statistics: RenderStatistics {
        RenderStatistics(
            frames: renderedFrames, sampleRate: sampleRate, peak: Double(output.peak),
            rms: output.rms, clippedSamples: output.clippedSamples, droppedEvents: droppedEvents,
            audioPeak: Double(output.audioPeak))
    }

    /// Renders a whole pattern into memory: the haptic signal, plus audio events with
    /// `includingAudio`.
    public static func render(
        _ pattern: HapticPattern, profile: ActuatorProfile = .wideband, sampleRate: Int? = nil, gain: Double = 1,
        includingAudio: Bool = false, playback: Playback = Playback()
    ) -> RenderedSignal {
        let renderer = HapticRenderer(
            pattern: pattern, profile: profile, sampleRate: sampleRate, gain: gain, includingAudio: includingAudio,
            playback: playback)
        var samples = [Float](repeating: 0, count: renderer.totalFrames * renderer.channelCount)
        var offset = 0
        samples.withUnsafeMutableBufferPointer { all in
            while true {
                let rest = UnsafeMutableBufferPointer(rebasing: all[(offset * renderer.channelCount)...])
                let n = renderer.render(into: rest)
                if n == 0 { break }
                offset += n
            }
        }
        return RenderedSignal(samples: samples, channelCount: renderer.channelCount, sampleRate: renderer.sampleRate, statistics: renderer.statistics)
    }
}

/// Figures about a rendered signal (`haptics render --stats`).
public struct RenderStatistics: Sendable, Hashable, Codable {
    /// Frames rendered.
    public var frames: Int
    /// Frames per second.
    public var sampleRate: Int
    /// Largest absolute sample of the haptic signal, 0…1.
    public var peak: Double
    /// Root mean square of the haptic signal.
    public var rms: Double
    /// Samples that exceeded ±1 and were clipped.
    public var clippedSamples: Int
    /// Events that could not sound because too many overlapped.
    public var droppedEvents: Int
    /// Largest absolute sample of the audio events' signal (0 without audio).
    public var audioPeak: Double = 0
    /// Length in seconds.
    public var duration: Double { Double(frames) / Double(sampleRate) }
}

/// A whole rendered signal in memory.
public struct RenderedSignal: Sendable {
    /// Interleaved samples, `channelCount` a frame.
    public var samples: [Float]
    /// Interleaved channels per frame.
    public var channelCount: Int
    /// Frames per second.
    public var sampleRate: Int
    /// Peak, RMS, clipped samples and length.
    public var statistics: RenderStatistics

    /// Samples per channel.
    public var frameCount: Int { samples.count / max(1, channelCount) }
    /// Seconds of signal.
    public var duration: Double { Double(frameCount) / Double(sampleRate) }
    /// Samples that were clipped.
    public var clippedSamples: Int { statistics.clippedSamples }

    /// One channel's samples.
    public func channel(_ index: Int) -> [Float] {
        stride(from: index, to: samples.count, by: channelCount).map { samples[$0] }
    }
}
