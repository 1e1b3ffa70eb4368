import HapticsCore

/// One step of a motor timeline.
public struct RumbleFrame: Sendable, Hashable, Codable {
    /// Milliseconds from the pattern's start.
    public var timeMilliseconds: Int
    /// The strong (heavy, low-frequency, left) motor, 0…65535.
    public var strong: UInt16
    /// The weak (light, high-frequency, right) motor, 0…65535.
    public var weak: UInt16

    /// Creates a frame.
    public init(timeMilliseconds: Int, strong: UInt16, weak: UInt16) {
        self.timeMilliseconds = timeMilliseconds
        self.strong = strong
        self.weak = weak
    }

    enum CodingKeys: String, CodingKey {
        case timeMilliseconds = "time_ms"
        case strong, weak
    }
}

/// Evaluates a pattern at control rate into dual-motor rumble levels.
///
/// The same synthesis as ``HapticRenderer`` runs at 1 kHz (one frame a millisecond), so
/// envelopes, parameters and curves mean exactly what they mean for actuators; every
/// `interval` the sounding voices are mapped to the two motors (the rumble mapping,
/// docs/ARCHITECTURE.md): amplitude split
/// by sharpness, strong `a·(1 − s)`, weak `a·s`, each clamped to 0…1, scaled by the gain and
/// sent as 16-bit magnitudes. Transients last at least 40 ms, so a motor has time to spin up.
public final class RumbleRenderer {
    /// Motor update period in milliseconds.
    public let intervalMilliseconds: Int
    /// Frames the whole timeline has, the last one at zero.
    public let frameCount: Int
    private let synth: PatternSynth
    private let gain: Double
    private let scratch: UnsafeMutablePointer<Float>
    private var produced = 0
    /// Synthesis frames (milliseconds) rendered so far.
    private var rendered = 0

    /// The rate the rumble synthesis runs at: one frame a millisecond.
    package static let controlRate = 1000.0
    /// Shortest motor pulse for a transient.
    package static let minimumPulse = 0.040
    /// The synth's transient length in rumble mode: levels are read after each millisecond
    /// is processed and a voice is gone once its last one is, so one more millisecond keeps
    /// the pulse visible for the full 40.
    package static let synthPulse = minimumPulse + 1 / controlRate

    /// Prepares a timeline; `interval` is in milliseconds (1…1000).
    public init(pattern: HapticPattern, intervalMilliseconds: Int = 10, gain: Double = 1, profile: ActuatorProfile = .wideband) {
        self.intervalMilliseconds = max(1, min(1000, intervalMilliseconds))
        self.gain = gain
        let compiled = CompiledPattern(pattern)
        synth = PatternSynth(
            pattern: compiled, profile: profile, sampleRate: Self.controlRate,
            minimumTransientLength: Self.synthPulse)
        var end = max(compiled.duration, compiled.soundingEnd(profile: profile))
        for event in pattern.events where event.kind == .transient {
            end = max(end, event.relativeTime + Self.minimumPulse)
        }
        // Frames at 0, interval, … up to the first at or after the end (plus a tick of
        // slack, as for audio), so the timeline closes at zero.
        let lastMs = Int((end * 1000).rounded(.up)) + 1
        frameCount = lastMs / self.intervalMilliseconds + 2
        scratch = .allocate(capacity: self.intervalMilliseconds + 1)
    }

    deinit { scratch.deallocate() }

    /// The next frame of the timeline, or nil at its end.
    public func next() -> RumbleFrame? {
        guard produced < frameCount else { return nil }
        let time = produced * intervalMilliseconds
        // Levels at `time` include everything that starts within that millisecond.
        let frames = time + 1 - rendered
        scratch.update(repeating: 0, count: frames)
        synth.render(adding: scratch, frames: frames)
        rendered += frames
        produced += 1
        let levels = Self.motorLevels(of: synth, gain: gain)
        return RumbleFrame(timeMilliseconds: time, strong: levels.strong, weak: levels.weak)
    }

    /// The whole timeline.
    public static func timeline(_ pattern: HapticPattern, intervalMilliseconds: Int = 10, gain: Double = 1) -> [RumbleFrame] {
        let renderer = RumbleRenderer(pattern: pattern, intervalMilliseconds: intervalMilliseconds, gain: gain)
        var frames: [RumbleFrame] = []
        while let frame = renderer.next() { frames.append(frame) }
        return frames
    }

    /// The mapping of the synth's sounding voices to the two motors.
    package static func motorLevels(of synths: some Sequence<PatternSynth>, gain: Double) -> (strong: UInt16, weak: UInt16) {
        var strong = 0.0
        var weak = 0.0
        for synth in synths { synth.addMotorLevels(strong: &strong, weak: &weak) }
        return (magnitude(strong * gain), magnitude(weak * gain))
    }

    package static func motorLevels(of synth: PatternSynth, gain: Double) -> (strong: UInt16, weak: UInt16) {
        var strong = 0.0
        var weak = 0.0
        synth.addMotorLevels(strong: &strong, weak: &weak)
        return (magnitude(strong * gain), magnitude(weak * gain))
    }

    /// 0…1 → 0…65535, clamped.
    @inline(__always)
    package static func magnitude(_ level: Double) -> UInt16 {
        // A level that is not a number (a NaN sent to a native player) stops the motor rather
        // than trapping the rumble thread.
        level.isNaN ? 0 : UInt16((min(max(level, 0), 1) * 65535).rounded())
    }
}
