/// Carries a rumble output to the engine's thread. `RumbleOutput` does not require
/// `Sendable`; the engine uses the output from one thread at a time (its control thread, and
/// `stop()` which implementations make safe from any thread).
struct UncheckedRumbleOutput: @unchecked Sendable {
    let base: any RumbleOutput
    init(_ base: any RumbleOutput) { self.base = base }
}
