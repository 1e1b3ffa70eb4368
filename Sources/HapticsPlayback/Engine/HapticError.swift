import HapticsCore

/// Why an engine or player operation failed. ``code`` gives Core Haptics' number for the same
/// condition, for people porting code that checks it.
public enum HapticError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The engine is not running; start it first (-4805).
    case engineNotRunning
    /// The operation is not allowed now (-4806), with why.
    case operationNotPermitted(String)
    /// The player was released or belongs to an engine that is gone (-4812).
    case invalidPatternPlayer
    /// The pattern could not be used (-4813), with why.
    case invalidPattern(String)
    /// A time was negative, NaN or infinite (-4840).
    case invalidTime
    /// The output device could not be opened or failed (-4810), with the device's message.
    case output(AudioOutputError)
    /// The rumble device could not be opened or failed (-4810), with its message.
    case rumble(RumbleOutputError)
    /// Every player slot is in use (-4899): release players you no longer need.
    case tooManyPlayers(limit: Int)
    /// The audio thread has not taken earlier commands for a while (-4898).
    case commandQueueFull
    /// Too many commands are scheduled for future times at once (-4898): let some take
    /// effect first.
    case tooManyScheduledCommands(limit: Int)

    /// Core Haptics' error code for the same condition.
    public var code: Int {
        switch self {
        case .engineNotRunning: -4805
        case .operationNotPermitted: -4806
        case .invalidPatternPlayer: -4812
        case .invalidPattern: -4813
        case .invalidTime: -4840
        case .output, .rumble: -4810
        case .tooManyPlayers: -4899
        case .commandQueueFull, .tooManyScheduledCommands: -4898
        }
    }

    public var description: String {
        switch self {
        case .engineNotRunning: "the haptic engine is not running (start it first)"
        case .operationNotPermitted(let why): "operation not permitted: \(why)"
        case .invalidPatternPlayer: "the player is no longer valid"
        case .invalidPattern(let why): "invalid pattern: \(why)"
        case .invalidTime: "times must be finite and not negative"
        case .output(let error): error.description
        case .rumble(let error): error.description
        case .tooManyPlayers(let limit): "too many players (at most \(limit) at once; release unused ones)"
        case .commandQueueFull: "the audio thread is not keeping up with commands"
        case .tooManyScheduledCommands(let limit): "more than \(limit) commands are scheduled ahead; let some take effect first"
        }
    }
}

/// Why an engine stopped on its own (`stoppedHandler`), with Core Haptics' numbers.
public enum HapticEngineStoppedReason: Int, Sendable {
    /// Another client took the device (1).
    case audioSessionInterrupt = 1
    /// The application was suspended (2).
    case applicationSuspended = 2
    /// No player was active for the idle timeout, with auto-shutdown enabled (3).
    case idleTimeout = 3
    /// `notifyWhenPlayersFinished`'s handler asked to stop the engine (4).
    case notifyWhenFinished = 4
    /// The engine was released while running (5).
    case engineDestroyed = 5
    /// The output device went away (unplugged controller or sound card) (6).
    case deviceLost = 6
    /// The output failed for another reason (-1).
    case systemError = -1
}

/// What `notifyWhenPlayersFinished`'s handler asks the engine to do next.
public enum HapticEngineFinishedAction: Int, Sendable {
    /// Stop the engine (its stopped handler is called with ``HapticEngineStoppedReason/notifyWhenFinished``).
    case stopEngine = 1
    /// Keep it running.
    case leaveEngineRunning = 2
}
