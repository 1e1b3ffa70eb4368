/// An output that can play its next write over the silence it still holds, so that a player
/// started on an idle engine is heard at the next frame the device can safely take instead of
/// behind that silence (PulseAudio: a write relative to the server's read position).
///
/// Only the audio thread calls it, just before a write; what it skips must be silence, which
/// is never heard and simply drops out of the engine's timeline (its clock jumps ahead by it).
protocol QueuedSilenceSkipping: AnyObject {
    /// The next ``AudioOutput/write(_:)`` starts at the earliest frame still safe to replace.
    func skipQueuedSilence()
}

extension PulseOutput: QueuedSilenceSkipping {}
