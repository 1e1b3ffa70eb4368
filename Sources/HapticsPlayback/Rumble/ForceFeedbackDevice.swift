import CLinuxInput

/// The kernel calls a rumble output makes, behind a seam so tests can record them.
///
/// ``LinuxForceFeedbackDevice`` makes them on an evdev node. Every call reports failure as a
/// ``ForceFeedbackDeviceError`` carrying `errno`; the calls used while playing
/// (``upload(_:)``, ``write(_:)``) must not allocate.
package protocol ForceFeedbackDevice: AnyObject {
    /// The device node, e.g. `/dev/input/event5`.
    var path: String { get }

    /// The device's name (`EVIOCGNAME`), e.g. "Microsoft X-Box 360 pad".
    func name() throws(ForceFeedbackDeviceError) -> String

    /// The supported effects (`EVIOCGBIT(EV_FF, …)`) and how many fit at once
    /// (`EVIOCGEFFECTS`). Empty when the device has no force feedback.
    func supportedEffects() throws(ForceFeedbackDeviceError) -> ForceFeedbackCapabilities

    /// Uploads `effect` (`EVIOCSFF`). With `id == -1` the kernel allocates a slot and writes its
    /// id back into `effect`; with an uploaded id it updates that effect, also while it plays.
    func upload(_ effect: inout ff_effect) throws(ForceFeedbackDeviceError)

    /// Stops and erases an uploaded effect (`EVIOCRMFF`).
    func erase(effectID: Int16) throws(ForceFeedbackDeviceError)

    /// Writes one event: `EV_FF` with code = effect id and value 1 (play) or 0 (stop), or
    /// `EV_FF`/`FF_GAIN` with the gain 0…0xFFFF.
    func write(_ event: input_event) throws(ForceFeedbackDeviceError)

    /// Closes the device; the kernel stops and erases whatever effects it still held.
    /// Idempotent.
    func close()
}

extension ForceFeedbackDevice {
    /// ``supportedEffects()`` for an output taking ownership of the device: on failure the
    /// device is closed (the output's init fails, so nothing else would close it).
    func supportedEffectsOrClose() throws(RumbleOutputError) -> ForceFeedbackCapabilities {
        do {
            return try supportedEffects()
        } catch {
            close()
            throw .unavailable(path, error)
        }
    }
}
