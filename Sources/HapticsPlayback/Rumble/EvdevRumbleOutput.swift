import CLinuxInput
import Glibc
import Synchronization

/// Rumble on an evdev force-feedback device: one effect, updated in place as levels change.
///
/// At init it uploads one effect (`FF_RUMBLE`, or the `FF_PERIODIC` emulation described in
/// ``RumbleEffectKind``) with id -1 and zero levels, so a device without a free slot fails
/// before playback rather than during it; it also sets `FF_GAIN` when the device has it.
/// Then, per ``setMotors(strong:weak:)``:
///
/// - non-zero levels: upload the effect again under the same id (the kernel changes a playing
///   effect in place) and, if it is not playing, write play (`EV_FF`, code = id, value 1);
/// - both zero: write stop (value 0) instead of uploading zeros, so an idle pad costs nothing.
///
/// ``stop()`` sets the motors to zero, erases the effect, puts a gain it changed back to full
/// scale and closes the device.
///
/// Threading: ``setMotors(strong:weak:)`` from one thread at a time (the engine's control
/// thread); ``stop()`` from any thread, concurrently with it. `stop()` marks the output
/// stopped, waits for a `setMotors` already inside the device (a single syscall, so
/// microseconds; at most 100 ms, in case it interrupted that very call as a signal handler),
/// then tears down. Later `setMotors` calls return without touching the device. Both use only
/// atomics, syscalls and stack values: no allocation, no lock.
public final class EvdevRumbleOutput: RumbleOutput, @unchecked Sendable {
    /// The device path, for messages.
    public let devicePath: String
    /// The effect used: rumble, or the periodic emulation.
    package let effectKind: RumbleEffectKind
    /// The kernel-assigned effect id.
    package let effectID: Int16
    /// The device's capabilities, as read at init.
    package let capabilities: ForceFeedbackCapabilities
    /// The gain sent as `FF_GAIN` (0…0xFFFF), or nil when the device has no `FF_GAIN` and the
    /// levels are scaled in software instead.
    package let deviceGain: UInt16?

    private let device: any ForceFeedbackDevice
    /// Levels are multiplied by this / 65536 when the device cannot apply the gain itself.
    private let softwareGain: UInt32
    private var effect: ff_effect
    private var lastStrong: UInt16 = 0
    private var lastWeak: UInt16 = 0

    private let playing = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    private let callsInFlight = Atomic<Int>(0)

    /// Prepares `device` for rumble and takes ownership of it: it is closed by ``stop()``, and
    /// also when init fails.
    ///
    /// - Parameter gain: 0…1, applied with `FF_GAIN` when the device supports it (which also
    ///   resets a gain an earlier program left behind; `FF_GAIN` is device-wide and cannot be
    ///   read back; ``stop()`` puts it back to full scale), else by scaling the levels.
    ///   Out-of-range values are clamped, NaN counts as 0. Apply a user's gain either here or
    ///   in the level mapping, not both.
    /// - Parameter sharpnessAsPeriod: on a device with `FF_PERIODIC`, play
    ///   ``RumbleEffectKind/periodicSharpness(waveform:)`` (vibration motors) rather than rumble.
    package init(device: some ForceFeedbackDevice, gain: Double = 1, sharpnessAsPeriod: Bool = false) throws(RumbleOutputError) {
        let path = device.path
        let capabilities = try device.supportedEffectsOrClose()
        let periodic = sharpnessAsPeriod && capabilities.supportsPeriodic ? capabilities.periodicWaveform : nil
        guard let kind = periodic.map(RumbleEffectKind.periodicSharpness) ?? RumbleEffectKind(capabilities: capabilities) else {
            device.close()
            let reason =
                capabilities.hasForceFeedback
                ? "supports force feedback, but neither rumble nor periodic effects"
                : "does not support force feedback"
            throw .deviceUnavailable(device: path, reason: reason)
        }
        let gain = gain.isNaN ? 0 : min(max(gain, 0), 1)

        var deviceGain: UInt16?
        if capabilities.supportsGain {
            let value = UInt16((gain * 0xFFFF).rounded())
            do {
                try device.write(haptics_make_event(UInt16(EV_FF), UInt16(FF_GAIN), Int32(value)))
            } catch {
                device.close()
                throw .unavailable(path, error)
            }
            deviceGain = value
        }

        var effect = kind.makeEffect()
        do {
            try device.upload(&effect)
        } catch {
            device.close()
            throw .unavailable(path, error)
        }
        guard effect.id >= 0 else {
            device.close()
            throw .deviceUnavailable(device: path, reason: "the driver assigned no effect id")
        }

        self.device = device
        self.devicePath = path
        self.effectKind = kind
        self.effectID = effect.id
        self.capabilities = capabilities
        self.deviceGain = deviceGain
        self.softwareGain = deviceGain == nil ? UInt32((gain * 65536).rounded()) : 65536
        self.effect = effect
    }

    deinit { stop() }

    /// Whether the effect is playing (last levels non-zero, not stopped).
    public var isPlaying: Bool { playing.load(ordering: .acquiring) }

    /// Sends the levels (see the type's description). After ``stop()`` it returns without
    /// touching the device; a failure of the device is ``RumbleOutputError/deviceLost(device:reason:)``.
    public func setMotors(strong: UInt16, weak: UInt16) throws(RumbleOutputError) {
        callsInFlight.add(1, ordering: .sequentiallyConsistent)
        defer { callsInFlight.subtract(1, ordering: .sequentiallyConsistent) }
        guard !stopped.load(ordering: .sequentiallyConsistent) else { return }

        let strong = scaled(strong)
        let weak = scaled(weak)
        guard strong != lastStrong || weak != lastWeak else { return }
        do {
            if strong == 0 && weak == 0 {
                if playing.load(ordering: .relaxed) {
                    try device.write(haptics_make_event(UInt16(EV_FF), UInt16(effectID), 0))
                    playing.store(false, ordering: .releasing)
                }
            } else {
                effectKind.setLevels(strong: strong, weak: weak, in: &effect)
                try device.upload(&effect)
                if !playing.load(ordering: .relaxed) {
                    try device.write(haptics_make_event(UInt16(EV_FF), UInt16(effectID), 1))
                    playing.store(true, ordering: .releasing)
                }
            }
        } catch {
            throw .lost(devicePath, error)
        }
        lastStrong = strong
        lastWeak = weak
    }

    /// Zero, stop, erase, restore the gain, close; see the type's description for threading.
    public func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        waitForCallInFlight()
        if playing.exchange(false, ordering: .acquiringAndReleasing) {
            // A zero upload first: should the stop event be lost, the effect still holds zeros.
            // Built on the stack, not from `effect`, which a call we gave up waiting for may
            // still be writing.
            var zero = effectKind.makeEffect()
            zero.id = effectID
            try? device.upload(&zero)
            try? device.write(haptics_make_event(UInt16(EV_FF), UInt16(effectID), 0))
        }
        try? device.erase(effectID: effectID)
        if let deviceGain, deviceGain != 0xFFFF {
            // FF_GAIN outlives the descriptor and other programs (games) would inherit ours.
            // It cannot be read back; full scale is the kernel's default and what they expect.
            try? device.write(haptics_make_event(UInt16(EV_FF), UInt16(FF_GAIN), 0xFFFF))
        }
        device.close()
    }

    private func scaled(_ level: UInt16) -> UInt16 {
        UInt16((UInt32(level) * softwareGain) >> 16)
    }

    /// Waits up to 100 ms for a `setMotors` inside the device to leave it. `nanosleep` is
    /// async-signal-safe; the bound covers a signal handler that interrupted that very call.
    private func waitForCallInFlight() {
        var pause = timespec(tv_sec: 0, tv_nsec: 500_000)
        var attempts = 0
        while callsInFlight.load(ordering: .sequentiallyConsistent) != 0 && attempts < 200 {
            nanosleep(&pause, nil)
            attempts += 1
        }
    }
}
