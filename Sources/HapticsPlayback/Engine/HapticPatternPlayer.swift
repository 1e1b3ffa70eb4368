import FoundationEssentials
import HapticsCore
import HapticsRender
import Synchronization
import HapticsSystem

/// Plays one pattern on an engine. Commands are stamped with engine times and take effect at
/// their exact sample; call them from any thread.
///
/// Times are on ``HapticEngine/currentTime``'s clock; 0, or a time already past, means now.
public class HapticPatternPlayer: @unchecked Sendable {
    let engine: HapticEngine
    let slot: Int
    /// The pattern's duration in seconds.
    public let duration: TimeInterval
    /// Sound files of `AudioCustom` events that could not be loaded (missing, too large or
    /// malformed), one per file: those events stay silent, the rest plays.
    public let soundFileProblems: [SoundFileError]
    private let muted = Locked(false)

    init(engine: HapticEngine, pattern: HapticPattern) throws(HapticError) {
        guard !pattern.isEmpty else { throw .invalidPattern("the pattern has no events, parameters or curves") }
        if let problem = pattern.synthesisProblem { throw .invalidPattern(problem) }
        self.engine = engine
        duration = pattern.duration
        // Sound files are read here, on the caller's thread, never on the audio thread.
        let compiled = engine.compile(pattern)
        soundFileProblems = compiled.soundFileProblems
        slot = try engine.attach(compiled)
    }

    deinit { engine.detach(slot: slot) }

    /// Plays the pattern from its start at `time` (restarting it if it is playing).
    public func start(atTime time: TimeInterval = 0) throws(HapticError) {
        try engine.start(self, at: time, offset: 0)
    }

    /// Stops at `time`: sounding events fade out over 2 ms.
    public func stop(atTime time: TimeInterval = 0) throws(HapticError) {
        try command(.stop, at: time)
    }

    /// Changes dynamic parameters from `time` on (each parameter's `relativeTime` is added).
    /// Haptic parameters act on haptic events, audio parameters on audio events.
    public func sendParameters(_ parameters: [HapticDynamicParameter], atTime time: TimeInterval = 0) throws(HapticError) {
        for parameter in parameters {
            guard let control = HapticControl(parameter.id) else { continue }
            guard parameter.relativeTime.isFinite, parameter.relativeTime >= 0 else { throw .invalidTime }
            guard parameter.value.isFinite else {
                throw .invalidPattern("\(parameter.id.rawValue) value \(parameter.value) is not a finite number")
            }
            let base = time == 0 ? engine.currentTime : time
            try command(.control(control, RuntimeControls.Element(step: parameter.value, at: 0)), at: base + parameter.relativeTime)
        }
    }

    /// Runs a parameter curve starting at `time` (which replaces the curve's own time). Every
    /// control point is honoured, as in a pattern's curves (Apple's devices refuse curves of
    /// more than 16 points; `haptics validate --strict` says so for files).
    public func scheduleParameterCurve(_ curve: HapticParameterCurve, atTime time: TimeInterval = 0) throws(HapticError) {
        guard let control = HapticControl(curve.id) else { return }
        if let problem = HapticPattern(events: [], curves: [curve]).synthesisProblem {
            throw .invalidPattern(problem.replacing("curves[0]", with: "the curve"))
        }
        try command(.control(control, RuntimeControls.Element(curve: curve.controlPoints, at: 0)), at: time)
    }

    /// Drops this player's pending commands and stops now (2 ms fade).
    public func cancel() throws(HapticError) {
        try command(.cancel, at: 0)
    }

    /// Whether the player is silenced (it keeps playing; unmuting resumes where it is).
    public var isMuted: Bool {
        get { muted.withLock { $0 } }
        set {
            muted.withLock { $0 = newValue }
            try? command(.setMuted(newValue), at: 0)
        }
    }

    func command(_ action: EngineCommand.Action, at time: TimeInterval) throws(HapticError) {
        try engine.send(EngineCommand(frame: try engine.frame(for: time), slot: slot, action: action))
    }
}

/// A player that can also pause, resume, seek, loop and change speed, and reports completion.
public final class HapticAdvancedPatternPlayer: HapticPatternPlayer, @unchecked Sendable {
    private let settings = Locked((loop: false, loopEnd: 0.0, count: 0, rate: 1.0))

    /// Holds the pattern at `time`; sounding events fade out over 2 ms.
    public func pause(atTime time: TimeInterval = 0) throws(HapticError) {
        try command(.pause, at: time)
    }

    /// Continues from where it paused, at `time`; continuous events resume mid-envelope.
    public func resume(atTime time: TimeInterval = 0) throws(HapticError) {
        try command(.resume, at: time)
    }

    /// Jumps to `offset` seconds into the pattern, now.
    public func seek(toOffset offset: TimeInterval) throws(HapticError) {
        guard offset.isFinite, offset >= 0 else { throw .invalidTime }
        try command(.seek(offset: offset), at: 0)
    }

    /// Whether the pattern starts over when it reaches ``loopEnd``.
    public var loopEnabled: Bool {
        get { settings.withLock { $0.loop } }
        set {
            let (end, count) = settings.withLock { s in
                s.loop = newValue
                return (s.loopEnd, s.count)
            }
            try? command(.setLoop(enabled: newValue, end: end, count: count), at: 0)
        }
    }

    /// Where a loop wraps, in pattern seconds; 0 means the pattern's end (its duration, or
    /// the end of its last sound if later). Values under 1 ms count as 1 ms.
    public var loopEnd: TimeInterval {
        get { settings.withLock { $0.loopEnd } }
        set {
            let value = newValue.isFinite && newValue > 0 ? max(0.001, newValue) : 0
            let (enabled, count) = settings.withLock { s in
                s.loopEnd = value
                return (s.loop, s.count)
            }
            try? command(.setLoop(enabled: enabled, end: value, count: count), at: 0)
        }
    }

    /// How many times a looping pattern plays in all, counting the first (0, the default:
    /// until stopped). The last repetition plays to the pattern's end and the player then
    /// completes. (Not in Core Haptics, which loops until stopped.)
    public var loopCount: Int {
        get { settings.withLock { $0.count } }
        set {
            let value = max(0, newValue)
            let (enabled, end) = settings.withLock { s in
                s.count = value
                return (s.loop, s.loopEnd)
            }
            try? command(.setLoop(enabled: enabled, end: end, count: value), at: 0)
        }
    }

    /// How fast pattern time runs (> 0): 2 plays twice as fast. Frequencies do not change.
    /// The engine plays rates between 1/1000 and 1000 (others are held to that range).
    public var playbackRate: Double {
        get { settings.withLock { $0.rate } }
        set {
            guard newValue > 0, newValue.isFinite else { return }
            settings.withLock { $0.rate = newValue }
            try? command(.setRate(newValue), at: 0)
        }
    }

    /// Called (on the engine's notification thread) when the pattern finishes, is stopped or
    /// is cancelled.
    public var completionHandler: (@Sendable (Error?) -> Void)? {
        get { handler.withLock { $0 } }
        set {
            handler.withLock { $0 = newValue }
            engine.setCompletionHandler(slot: slot, newValue)
        }
    }
    private let handler = Locked<(@Sendable (Error?) -> Void)?>(nil)
}
