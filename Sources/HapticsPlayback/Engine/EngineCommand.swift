import HapticsRender

/// A request from the API side to the audio thread, applied at `frame` on the engine's render
/// timeline (or at the next frame rendered, when `frame` is in the past or ``now``).
/// Fixed-size: the audio thread copies it and never allocates.
struct EngineCommand {
    /// Apply as soon as possible.
    static let now = Int.min

    var frame: Int
    var slot: Int
    var action: Action
    /// Counted in ``RenderLoop/scheduledCommands`` when sent (it was ahead of the render
    /// position, so it waits in the pending list); uncounted when applied or dropped.
    var isScheduled = false

    /// Whether it moves a player's transport (start, stop, pause, resume, seek, cancel): what
    /// an engine that stops drops rather than applies.
    var isPlayback: Bool {
        switch action {
        case .start, .stop, .pause, .resume, .seek, .cancel: true
        default: false
        }
    }

    /// Frees what the command carries (a long curve's points), for a command that will never
    /// reach the audio thread. Not for the audio thread.
    func releaseResources() {
        if case .control(_, var element) = action { element.takeOverflow()?.release() }
    }

    enum Action {
        /// Takes over a synth for a player slot (retained by the engine until ``detach``).
        case attach(Unmanaged<PatternSynth>)
        /// Releases a slot; the engine frees its synth once the audio thread confirms.
        case detach
        /// Plays from `offset` seconds into the pattern (restarting if already playing).
        case start(offset: Double, run: Int)
        /// Fades out and ends, reporting completion.
        case stop
        /// Drops this slot's pending commands and stops.
        case cancel
        case pause
        case resume
        case seek(offset: Double)
        case setRate(Double)
        /// Loop at `end` (0: the pattern's end), `count` times in all (0: forever).
        case setLoop(enabled: Bool, end: Double, count: Int)
        case setMuted(Bool)
        /// A dynamic parameter change; the element's times are relative to when it applies.
        case control(HapticControl, RuntimeControls.Element)
        /// Engine-wide mute (`slot` unused).
        case muteEngine(Bool)
        /// Engine-wide mute of audio events (`slot` unused).
        case muteAudio(Bool)
    }
}

/// A notice from the audio thread to the engine's notification thread.
enum EngineEvent {
    /// A player finished playing (naturally, stopped or cancelled); `run` tells which start.
    case finished(slot: Int, run: Int)
    /// The audio thread released a slot; its synth can be freed.
    case detached(slot: Int)
    /// No player has been active for the idle timeout, in the given start of the output (an
    /// event from an earlier start, handled late, must not stop a later one).
    case idle(start: Int)
    /// The audio thread ended: after a requested stop, or because the device failed.
    case ended
    /// A long runtime curve's points the audio thread no longer uses, to free.
    case release(Unmanaged<CurvePoints>)
}
