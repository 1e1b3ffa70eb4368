import Foundation
import Haptics
import HapticsSystem

/// Plays one pattern on an engine, as in Apple's SDK; made by
/// ``CHHapticEngine/makePlayer(with:)``.
///
/// Times are on ``CHHapticEngine/currentTime``'s clock; ``CHHapticTimeImmediate`` (0), or a
/// time already past, means now. Commands may come from any thread. A started player plays to
/// its end even when the code that started it keeps no reference to it (as iOS code that
/// makes a player in a local variable expects).
public protocol CHHapticPatternPlayer: AnyObject {
    /// Plays the pattern from its start at `time`, restarting it if it is playing.
    /// - Throws: ``CHHapticError/Code/engineNotRunning`` when the engine is stopped (unless
    ///   it stopped itself with auto-shutdown, in which case it starts again).
    func start(atTime time: TimeInterval) throws
    /// Stops at `time`; sounding events fade out over 2 ms.
    func stop(atTime time: TimeInterval) throws
    /// Changes dynamic parameters from `time` on (each parameter's `relativeTime` is added).
    /// - Throws: ``CHHapticError/Code/badParameterEntry`` for a value that is not a finite
    ///   number, ``CHHapticError/Code/invalidTime`` for a time that is not (nothing is sent).
    func sendParameters(_ parameters: [CHHapticDynamicParameter], atTime time: TimeInterval) throws
    /// Runs a parameter curve from `time`, which replaces the curve's own `relativeTime`.
    /// - Throws: as ``sendParameters(_:atTime:)``.
    func scheduleParameterCurve(_ parameterCurve: CHHapticParameterCurve, atTime time: TimeInterval) throws
    /// Drops pending commands and stops now.
    func cancel() throws
    /// Whether the player is silenced (it keeps its place; unmuting is heard where it is).
    var isMuted: Bool { get set }
}

/// A player that can also pause, resume, seek, loop and change rate, and reports completion,
/// as in Apple's SDK; made by ``CHHapticEngine/makeAdvancedPlayer(with:)``.
public protocol CHHapticAdvancedPatternPlayer: CHHapticPatternPlayer {
    /// Holds playback at `time`.
    func pause(atTime time: TimeInterval) throws
    /// Continues from where it paused, at `time`.
    func resume(atTime time: TimeInterval) throws
    /// Jumps to `offsetTime` seconds into the pattern, now. At or past the end: stops (or
    /// wraps, when looping).
    func seek(toOffset offsetTime: TimeInterval) throws
    /// Whether the pattern starts over when it reaches ``loopEnd``.
    var loopEnabled: Bool { get set }
    /// Where a loop wraps, in pattern seconds; 0 means the end of the pattern.
    var loopEnd: TimeInterval { get set }
    /// How fast pattern time runs; any finite value above 0 (2 plays twice as fast, at the
    /// same pitch), played at 1/1000 to 1000 (rates beyond are held to those). Others (0,
    /// negative, NaN, infinite) are ignored.
    var playbackRate: Float { get set }
    /// Called when the pattern finishes, is stopped or cancelled, with an error if it
    /// failed. Runs on the engine's notification thread, not the main thread.
    var completionHandler: CHHapticAdvancedPatternPlayerCompletionHandler { get set }
}

/// Errors of the native player, with Core Haptics' codes.
func mapped<T>(_ body: () throws(HapticError) -> T) throws(CHHapticError) -> T {
    do { return try body() } catch { throw CHHapticError(error) }
}

/// A ``CHHapticPatternPlayer`` over a native player.
class NativePatternPlayer: CHHapticPatternPlayer, @unchecked Sendable {
    let player: HapticPatternPlayer
    /// The native pattern it plays, with audio resources resolved.
    let pattern: HapticPattern
    /// Releases what the player holds on its engine (audio resources in use).
    private let onRelease: (@Sendable () -> Void)?

    init(_ player: HapticPatternPlayer, pattern: HapticPattern, onRelease: (@Sendable () -> Void)?) {
        self.player = player
        self.pattern = pattern
        self.onRelease = onRelease
    }

    deinit { onRelease?() }

    func start(atTime time: TimeInterval) throws { try mapped { () throws(HapticError) in try player.start(atTime: time) } }
    func stop(atTime time: TimeInterval) throws { try mapped { () throws(HapticError) in try player.stop(atTime: time) } }

    func sendParameters(_ parameters: [CHHapticDynamicParameter], atTime time: TimeInterval) throws {
        let native = try parameters.map { parameter throws(CHHapticError) -> HapticDynamicParameter in
            guard let id = HapticDynamicParameter.ID(rawValue: parameter.parameterID.rawValue) else {
                throw CHHapticError(.invalidParameterType, "unknown dynamic parameter '\(parameter.parameterID.rawValue)'")
            }
            return HapticDynamicParameter(
                id, try NumericInput.value(parameter.value, .badParameterEntry, "a dynamic parameter's value"), at: parameter.relativeTime)
        }
        try mapped { () throws(HapticError) in try player.sendParameters(native, atTime: time) }
    }

    func scheduleParameterCurve(_ parameterCurve: CHHapticParameterCurve, atTime time: TimeInterval) throws {
        guard let id = HapticDynamicParameter.ID(rawValue: parameterCurve.parameterID.rawValue) else {
            throw CHHapticError(.invalidParameterType, "unknown dynamic parameter '\(parameterCurve.parameterID.rawValue)'")
        }
        let points = try parameterCurve.controlPoints.map { point throws(CHHapticError) in
            HapticParameterCurve.ControlPoint(
                at: point.relativeTime, try NumericInput.value(point.value, .badParameterEntry, "a control point's value"))
        }
        guard points.allSatisfy({ $0.relativeTime.isFinite && $0.relativeTime >= 0 }) else {
            throw CHHapticError(.invalidTime, "control point times must be finite and not negative")
        }
        // As in Core Haptics, the time given replaces the curve's own relativeTime.
        parameterCurve.relativeTime = time
        let curve = HapticParameterCurve(id, at: 0, controlPoints: points)
        try mapped { () throws(HapticError) in try player.scheduleParameterCurve(curve, atTime: time) }
    }

    func cancel() throws { try mapped { () throws(HapticError) in try player.cancel() } }

    var isMuted: Bool {
        get { player.isMuted }
        set { player.isMuted = newValue }
    }
}

/// A ``CHHapticAdvancedPatternPlayer`` over a native advanced player.
final class NativeAdvancedPatternPlayer: NativePatternPlayer, CHHapticAdvancedPatternPlayer, @unchecked Sendable {
    private var advanced: HapticAdvancedPatternPlayer { player as! HapticAdvancedPatternPlayer }
    private let lock = SystemLock()
    private var handler: CHHapticAdvancedPatternPlayerCompletionHandler = { _ in }

    func pause(atTime time: TimeInterval) throws { try mapped { () throws(HapticError) in try advanced.pause(atTime: time) } }
    func resume(atTime time: TimeInterval) throws { try mapped { () throws(HapticError) in try advanced.resume(atTime: time) } }
    func seek(toOffset offsetTime: TimeInterval) throws { try mapped { () throws(HapticError) in try advanced.seek(toOffset: offsetTime) } }

    var loopEnabled: Bool {
        get { advanced.loopEnabled }
        set { advanced.loopEnabled = newValue }
    }

    var loopEnd: TimeInterval {
        get { advanced.loopEnd }
        set { advanced.loopEnd = newValue }
    }

    var playbackRate: Float {
        get { Float(advanced.playbackRate) }
        set { advanced.playbackRate = Double(newValue) }
    }

    var completionHandler: CHHapticAdvancedPatternPlayerCompletionHandler {
        get { lock.withLock { handler } }
        set {
            lock.withLock { handler = newValue }
            let box = Unchecked(value: newValue)
            advanced.completionHandler = { error in box.value(error.map { CHHapticError.wrapping($0) }) }
        }
    }
}
