// The umbrella module apps import: the model, rendering, presets and playback.
@_exported import HapticsCore
@_exported import HapticsOutputs
@_exported import HapticsPlayback
@_exported import HapticsPresets
@_exported import HapticsRender
@_exported import HapticsSystem
@_exported import FoundationEssentials
import Synchronization

/// One-line haptic feedback for apps: `try Haptics.play(.success)`.
///
/// Plays on a shared engine for the output `HapticOutputSelection.current` chooses (the
/// `HAPTICS_DEVICE` environment variable, e.g. `plughw:CARD=Device,DEV=0`, `/dev/input/event5`
/// or `null`, then the user's settings, then the best haptic actuator found: a vibration motor,
/// the DualSense, a gamepad's rumble; never the speakers unless configured), started on first
/// use and stopped by itself after 10 s without feedback. The user's settings
/// (`HapticSettings`: master intensity, per-category scales, off switch) apply.
public enum Haptics {
    private static let shared = Mutex<(engine: HapticEngine, selection: HapticOutputSelection)?>(nil)

    /// Plays a feedback kind now, fire-and-forget: returns at once, and the feedback plays on
    /// the audio thread. For apps that keep running. A program that exits right after should
    /// wait with ``playToEnd(_:)-(HapticFeedback)`` or ``playAndWait(_:)-(HapticFeedback)``,
    /// which return once it has been heard (at exit the shared engine is given at most 2 s to
    /// finish, then closed).
    ///
    /// There is no `async` form of `play`, so `try await Haptics.play(…)` means the same in
    /// every context (it never waits, and the compiler warns that nothing is awaited); the
    /// waiting forms have their own names.
    ///
    /// - Throws: `HapticError` when no output device can be opened.
    public static func play(_ feedback: HapticFeedback) throws {
        let pattern = HapticPattern(feedback: feedback)
        try engine().playPattern(pattern)
    }

    /// Plays a pattern now, fire-and-forget, on the shared engine.
    public static func play(_ pattern: HapticPattern) throws {
        try engine().playPattern(pattern)
    }

    /// Plays a feedback kind and returns once it has been heard (its last sample has left the
    /// device): for a command-line program that exits next, or code that goes on after the
    /// feedback. The `async` counterpart of ``playAndWait(_:)-(HapticFeedback)``, as
    /// `HapticEngine.play(_:)` is of `HapticEngine.playAndWait(_:)`.
    ///
    /// ```swift
    /// try await Haptics.playToEnd(.success)   // then exit
    /// ```
    ///
    /// - Throws: `HapticError` when no output device can be opened.
    public static func playToEnd(_ feedback: HapticFeedback) async throws {
        try await engine().play(HapticPattern(feedback: feedback))
    }

    /// Plays a pattern and returns once it has been heard.
    public static func playToEnd(_ pattern: HapticPattern) async throws {
        try await engine().play(pattern)
    }

    /// Plays a feedback kind and blocks until it has been heard: the synchronous form of
    /// ``playToEnd(_:)-(HapticFeedback)``, for code that is not async.
    public static func playAndWait(_ feedback: HapticFeedback) throws {
        try engine().playAndWait(HapticPattern(feedback: feedback))
    }

    /// Plays a pattern and blocks until it has been heard.
    public static func playAndWait(_ pattern: HapticPattern) throws {
        try engine().playAndWait(pattern)
    }

    /// The shared engine, created and started on first use. Once it has stopped (10 s
    /// without feedback, or its device went away) the output is chosen again, so a gamepad
    /// or vibration motor connected since, or a changed setting, is used by the next feedback.
    public static func engine() throws -> HapticEngine {
        try shared.withLock { shared throws(HapticError) -> HapticEngine in
            if let current = shared, current.engine.isRunning { return current.engine }
            let selection = HapticOutputSelection.current
            if let current = shared, selection == current.selection {
                try current.engine.start()
                return current.engine
            }
            let created = selection.makeEngine()
            created.isAutoShutdownEnabled = true
            try created.start()
            EnginesAtExit.register(created)
            shared = (created, selection)
            return created
        }
    }
}
