import CLinuxInput
import Glibc
import Synchronization

/// A haptic touchpad (`FF_HAPTIC`, Linux 6.18): it plays the waveforms stored on the device
/// (click, press, release), not signals, so each onset of the engine's motor levels (a rise
/// from zero: a transient, or the start of a continuous event) plays one waveform at the
/// level's strength, and what follows an onset is not representable.
///
/// At init it uploads one `FF_HAPTIC` effect (id -1, ``Waveform/click`` by default), so a
/// device that refuses the waveform fails before playback. At each onset it uploads the effect
/// again with the onset's intensity (the kernel takes a percentage) and writes play. ``stop()``
/// erases the effect and closes the device. Threading as ``EvdevRumbleOutput``: ``setMotors(strong:weak:)``
/// from the engine's control thread, ``stop()`` from any thread, no allocation, no lock.
package final class HapticTouchpadOutput: RumbleOutput, @unchecked Sendable {
    /// The predefined waveforms of the HID haptics page (usage & 0xFFFF, as the kernel takes them).
    package enum Waveform: UInt16, Sendable {
        /// A click, what a transient plays.
        case click = 0x1003
        /// A press.
        case press = 0x1006
        /// A release.
        case release = 0x1007
    }

    /// `FF_HAPTIC`, which older kernel headers lack.
    package static let effectType: UInt16 = 0x4f

    /// The device path, for messages.
    package let devicePath: String
    /// The kernel-assigned effect id.
    package let effectID: Int16
    private let device: any ForceFeedbackDevice
    private var effect: ff_effect
    private var lastLevel: UInt16 = 0
    private let stopped = Atomic<Bool>(false)
    private let callsInFlight = Atomic<Int>(0)

    /// Prepares `device` and takes ownership of it: it is closed by ``stop()``, and also when
    /// init fails.
    package init(device: some ForceFeedbackDevice, waveform: Waveform = .click) throws(RumbleOutputError) {
        let path = device.path
        let capabilities = try device.supportedEffectsOrClose()
        guard capabilities.supports(Int32(Self.effectType)) else {
            device.close()
            throw .deviceUnavailable(device: path, reason: "is not a haptic touchpad (no FF_HAPTIC)")
        }
        var effect = ff_effect()
        effect.type = Self.effectType
        effect.id = -1
        Self.setHaptic(&effect, usage: waveform.rawValue, intensity: 100)
        do {
            try device.upload(&effect)
        } catch {
            device.close()
            throw .unavailable(path, error)
        }
        self.device = device
        devicePath = path
        effectID = effect.id
        self.effect = effect
    }

    deinit { stop() }

    /// Writes `struct ff_haptic_effect` into the effect's union: `hid_usage` at 0, `vendor_id`
    /// at 2, `vendor_waveform_page` at 4, `intensity` at 6, `repeat_count` at 8,
    /// `retrigger_period` at 10 (the kernel's layout; no vendor waveform, no repeat).
    static func setHaptic(_ effect: inout ff_effect, usage: UInt16, intensity: UInt16) {
        withUnsafeMutableBytes(of: &effect.u) { raw in
            raw.storeBytes(of: usage, toByteOffset: 0, as: UInt16.self)
            raw.storeBytes(of: UInt16(0), toByteOffset: 2, as: UInt16.self)
            raw.storeBytes(of: UInt8(0), toByteOffset: 4, as: UInt8.self)
            raw.storeBytes(of: intensity, toByteOffset: 6, as: UInt16.self)
            raw.storeBytes(of: UInt16(0), toByteOffset: 8, as: UInt16.self)
            raw.storeBytes(of: UInt16(0), toByteOffset: 10, as: UInt16.self)
        }
    }

    /// Plays the waveform when the level rises from zero, at its strength.
    package func setMotors(strong: UInt16, weak: UInt16) throws(RumbleOutputError) {
        callsInFlight.add(1, ordering: .sequentiallyConsistent)
        defer { callsInFlight.subtract(1, ordering: .sequentiallyConsistent) }
        guard !stopped.load(ordering: .sequentiallyConsistent) else { return }
        let level = UInt16(min(UInt32(strong) + UInt32(weak), 0xFFFF))
        defer { lastLevel = level }
        guard lastLevel == 0, level > 0 else { return }
        let percent = UInt16(max(1, (UInt32(level) * 100 + 0x7FFF) / 0xFFFF))
        withUnsafeMutableBytes(of: &effect.u) { $0.storeBytes(of: percent, toByteOffset: 6, as: UInt16.self) }
        do {
            try device.upload(&effect)
            try device.write(haptics_make_event(UInt16(EV_FF), UInt16(effectID), 1))
        } catch {
            throw .lost(devicePath, error)
        }
    }

    /// Erases the effect and closes the device. Idempotent.
    package func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        var pause = timespec(tv_sec: 0, tv_nsec: 500_000)
        var attempts = 0
        while callsInFlight.load(ordering: .sequentiallyConsistent) != 0 && attempts < 200 {
            nanosleep(&pause, nil)
            attempts += 1
        }
        try? device.erase(effectID: effectID)
        device.close()
    }
}
