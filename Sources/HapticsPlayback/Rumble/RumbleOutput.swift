/// Where the engine's control-rate motor levels go: a game controller's rumble motors, a CSV
/// timeline, or a test recorder.
///
/// The engine calls ``setMotors(strong:weak:)`` from its control thread, only when a value
/// changed, and ``stop()`` on every exit path.
public protocol RumbleOutput: AnyObject {
    /// Sets both motors, each 0…0xFFFF.
    ///
    /// `strong` drives the low-frequency, heavy (left) motor; `weak` the high-frequency, light
    /// (right) one, as SDL, Unity and Godot name them. Called from the engine's control thread;
    /// must not allocate, lock or block on anything but the device write itself.
    func setMotors(strong: UInt16, weak: UInt16) throws(RumbleOutputError)

    /// Sets the motors to zero, stops and releases whatever the output holds.
    ///
    /// Idempotent and safe on every exit path, including one that handles SIGINT or SIGTERM:
    /// it must not allocate nor take a lock the control thread might hold.
    func stop()
}
