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
    /// Frames produced so far.
    public private(set) var renderedFrames = 0
    /// Haptic events that found no free voice (too many overlapping at once).
    public var droppedEvents: Int { synth.droppedEvents }
    /// Whether audio events are mixed in.
    public let includesAudio: Bool
    /// Sound files of `AudioCustom` events that could not be loaded (their events are silent).
    public var soundFileProblems: [SoundFileError] { synth.pattern.soundFileProblems }

    private let synth: PatternSynth
    private var output: OutputStage
    private let mono: UnsafeMutableBufferPointer<Float>
    /// The audio pair, when audio is mixed in.
    private let audioLeft: UnsafeMutableBufferPointer<Float>
    private let audioRight: UnsafeMutableBufferPointer<Float>
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
    public convenience init(pattern: HapticPattern, profile: ActuatorProfile = .wideband, sampleRate: Int? = nil, gain: Double = 1,
                            includingAudio: Bool = false) {
        self.init(compiled: CompiledPattern(pattern, includingAudio: includingAudio), profile: profile, sampleRate: sampleRate, gain: gain)
    }

    /// Prepares to render an already compiled pattern; audio events are mixed in when it was
    /// compiled with them.
    public init(compiled: CompiledPattern, profile: ActuatorProfile = .wideband, sampleRate: Int? = nil, gain: Double = 1) {
        let rate = sampleRate ?? profile.sampleRate
        includesAudio = compiled.includesAudio
        self.sampleRate = rate
        channelCount = profile.channelCount
        synth = PatternSynth(pattern: compiled, profile: profile, sampleRate: Double(rate))
        output = OutputStage(profile: profile, gain: gain)
        let end = max(compiled.duration, compiled.soundingEnd(profile: profile))
        // One control tick of slack: a continuous voice reaches zero on the tick after its end.
        totalFrames = Int((end * Double(rate)).rounded(.up)) + (end > 0 ? synth.tickFrames : 0)
        mono = .allocate(capacity: Self.blockFrames)
        mono.initialize(repeating: 0)
        let audioFrames = includesAudio ? Self.blockFrames : 0
        audioLeft = .allocate(capacity: audioFrames)
        audioLeft.initialize(repeating: 0)
        audioRight = .allocate(capacity: audioFrames)
        audioRight.initialize(repeating: 0)
    }

    deinit {
        mono.deallocate()
        audioLeft.deallocate()
        audioRight.deallocate()
    }

    /// Renders the next frames into `buffer` (interleaved, `channelCount` samples a frame) and
    /// returns how many frames it wrote; 0 once the render is complete.
    public func render(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        let capacity = buffer.count / channelCount
        var written = 0
        while written < capacity && renderedFrames < totalFrames {
            let n = min(Self.blockFrames, capacity - written, totalFrames - renderedFrames)
            mono.baseAddress!.update(repeating: 0, count: n)
            if includesAudio {
                audioLeft.baseAddress!.update(repeating: 0, count: n)
                audioRight.baseAddress!.update(repeating: 0, count: n)
                synth.render(adding: mono.baseAddress!, audioLeft: audioLeft.baseAddress!, audioRight: audioRight.baseAddress!, frames: n)
                output.write(mono: mono.baseAddress!, audioLeft: audioLeft.baseAddress!, audioRight: audioRight.baseAddress!,
                             frames: n, into: base + written * channelCount)
            } else {
                synth.render(adding: mono.baseAddress!, frames: n)
                output.write(mono: mono.baseAddress!, frames: n, into: base + written * channelCount)
            }
            written += n
            renderedFrames += n
        }
        return written
    }

    /// Figures about the signal rendered so far.
    public var statistics: RenderStatistics {
        RenderStatistics(frames: renderedFrames, sampleRate: sampleRate, peak: Double(output.peak),
                         rms: output.rms, clippedSamples: output.clippedSamples, droppedEvents: synth.droppedEvents,
                         audioPeak: Double(output.audioPeak))
    }

    /// Renders everything left into a WAV file (`-` for standard output), streaming block by
    /// block, and returns the figures.
    @discardableResult
    public func writeWAV(to path: String, format: SampleFormat) throws(WAVError) -> RenderStatistics {
        let writer = try WAVWriter(path: path, sampleRate: sampleRate, channelCount: channelCount,
                                   format: format, frameCount: totalFrames - renderedFrames)
        let block = UnsafeMutableBufferPointer<Float>.allocate(capacity: 4096 * channelCount)
        defer { block.deallocate() }
        while case let frames = render(into: block), frames > 0 {
            try writer.write(UnsafeBufferPointer(rebasing: block[..<(frames * channelCount)]))
        }
        try writer.finish()
        return statistics
    }

    /// Renders a whole pattern into memory: the haptic signal, plus audio events with
    /// `includingAudio`.
    public static func render(_ pattern: HapticPattern, profile: ActuatorProfile = .wideband, sampleRate: Int? = nil, gain: Double = 1,
                              includingAudio: Bool = false) -> RenderedSignal {
        let renderer = HapticRenderer(pattern: pattern, profile: profile, sampleRate: sampleRate, gain: gain, includingAudio: includingAudio)
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
        return RenderedSignal(samples: samples, channelCount: renderer.channelCount, sampleRate: Double(renderer.sampleRate), statistics: renderer.statistics)
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
    public var sampleRate: Double
    /// Peak, RMS, clipped samples and length.
    public var statistics: RenderStatistics

    /// Samples per channel.
    public var frameCount: Int { samples.count / max(1, channelCount) }
    /// Samples that were clipped.
    public var clippedSamples: Int { statistics.clippedSamples }

    /// One channel's samples.
    public func channel(_ index: Int) -> [Float] {
        stride(from: index, to: samples.count, by: channelCount).map { samples[$0] }
    }
}
