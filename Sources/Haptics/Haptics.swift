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
/// Plays on a shared engine for the output ``HapticOutputSelection/current`` chooses (the
/// `HAPTICS_DEVICE` environment variable, e.g. `plughw:CARD=Device,DEV=0`, `/dev/input/event5`
/// or `null`, then the user's settings, then the best haptic actuator found: a vibration motor,
/// the DualSense, a gamepad's rumble; never the speakers unless configured), started on first
/// use and stopped by itself after 10 s without feedback. The user's settings
/// (``HapticSettings``: master intensity, per-category scales, off switch) apply.
public enum Haptics {
    private static let shared = Mutex<(engine: HapticEngine, selection: HapticOutputSelection)?>(nil)

    /// Plays a feedback kind now. Returns at once; the feedback plays on the audio thread.
    /// A program that exits right after should use `try await Haptics.play(_:)` or
    /// ``playAndWait(_:)-(HapticFeedback)``, which return once it has been heard (at exit the
    /// shared engine is given at most 2 s to finish, then closed).
    ///
    /// - Throws: ``HapticError`` when no output device can be opened.
    public static func play(_ feedback: HapticFeedback) throws {
        let pattern = HapticPattern(feedback: feedback)
        try engine().playPattern(pattern)
    }

    /// Plays a pattern now, fire-and-forget, on the shared engine.
    public static func play(_ pattern: HapticPattern) throws {
        try engine().playPattern(pattern)
    }

    /// Plays a feedback kind and returns once it has been heard: for a command-line program
    /// that exits next (``play(_:)-(HapticFeedback)`` returns at once, and an exiting program
    /// cuts it off).
    ///
    /// ```swift
    /// try await Haptics.play(.success)   // then exit
    /// ```
    ///
    /// At the top level of a `main.swift`, Swift 6.3 picks the synchronous overload even after
    /// `await` (with a warning that nothing is awaited): call this from an async function, or
    /// use ``playAndWait(_:)-(HapticFeedback)``.
    public static func play(_ feedback: HapticFeedback) async throws {
        try await engine().play(HapticPattern(feedback: feedback))
    }

    /// Plays a pattern and returns once it has been heard.
    public static func play(_ pattern: HapticPattern) async throws {
        try await engine().play(pattern)
    }

    /// Plays a feedback kind and blocks until it has been heard: the synchronous form of
    /// `try await Haptics.play(_:)`, for code that is not async.
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
