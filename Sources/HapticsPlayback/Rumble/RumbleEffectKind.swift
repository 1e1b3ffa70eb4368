import CLinuxInput

/// The one effect a rumble output keeps uploaded, and how motor levels map onto it.
///
/// - `FF_RUMBLE` carries both motors as they are.
/// - Devices with `FF_PERIODIC` but no `FF_RUMBLE` (USB PID wheels, some uinput drivers) get a
///   periodic effect whose magnitude follows the stronger motor, `max(strong, weak) / 2`
///   (periodic magnitudes are signed, 0…0x7FFF). The two motors cannot be told apart there.
///   The period is 50 ms, what the kernel's own rumble-to-periodic conversion
///   (`compat_effect` in ff-core.c) uses; ff-memless would ignore it and play the magnitude
///   on both motors.
///
/// Both use `replay.length = 0`, which the Linux API defines as "until stopped": ff-memless
/// only ends an effect when `replay.length` is non-zero, and hid-pidff maps 0 to the USB PID
/// "infinite" duration. A finite length would silently end a constant level held longer than
/// it, because the engine sends only changes. Leaving it infinite is safe: stopping is
/// explicit (``EvdevRumbleOutput/stop()``) and the kernel stops and erases a descriptor's
/// effects when it is closed, even when the process is killed.
package enum RumbleEffectKind: Sendable, Hashable {
    /// `FF_RUMBLE`, strong and weak magnitudes.
    case rumble
    /// `FF_PERIODIC` with this waveform (`FF_SINE`, …), magnitude from the stronger motor.
    case periodic(waveform: UInt16)
    /// `FF_PERIODIC` for a vibration motor that has it: the magnitude is the event's amplitude
    /// (both motors' levels added) and the sharpness, the light motor's share of it, sets the
    /// period, from ``dullPeriod`` (sharpness 0) to ``sharpPeriod`` (sharpness 1): a crisp
    /// buzz for sharp events, a slow throb for dull ones, which rumble steps cannot tell apart.
    case periodicSharpness(waveform: UInt16)

    /// The period of the periodic emulation, in ms.
    package static let periodicPeriod: UInt16 = 50
    /// ``periodicSharpness(waveform:)``'s periods for sharpness 0 and 1, in ms.
    package static let dullPeriod: UInt32 = 40
    package static let sharpPeriod: UInt32 = 8

    /// The kind to use on a device with `capabilities`; nil when it has neither.
    package init?(capabilities: ForceFeedbackCapabilities) {
        if capabilities.supportsRumble {
            self = .rumble
        } else if capabilities.supports(Int32(FF_PERIODIC)), let waveform = capabilities.periodicWaveform {
            self = .periodic(waveform: waveform)
        } else {
            return nil
        }
    }

    /// A new effect of this kind with id -1 (for the kernel to assign) and the given levels.
    package func makeEffect(strong: UInt16 = 0, weak: UInt16 = 0) -> ff_effect {
        var effect = ff_effect()
        effect.id = -1
        effect.replay.length = 0
        effect.replay.delay = 0
        switch self {
        case .rumble:
            effect.type = UInt16(FF_RUMBLE)
        case .periodic(let waveform):
            effect.type = UInt16(FF_PERIODIC)
            effect.u.periodic.waveform = waveform
            effect.u.periodic.period = Self.periodicPeriod
        case .periodicSharpness(let waveform):
            effect.type = UInt16(FF_PERIODIC)
            effect.u.periodic.waveform = waveform
            effect.u.periodic.period = UInt16(Self.dullPeriod)
        }
        setLevels(strong: strong, weak: weak, in: &effect)
        return effect
    }

    /// Writes the motor levels into `effect`. Allocation-free: runs on the control thread.
    package func setLevels(strong: UInt16, weak: UInt16, in effect: inout ff_effect) {
        switch self {
        case .rumble:
            effect.u.rumble.strong_magnitude = strong
            effect.u.rumble.weak_magnitude = weak
        case .periodic:
            effect.u.periodic.magnitude = Int16(max(strong, weak) >> 1)
        case .periodicSharpness:
            let total = UInt32(strong) + UInt32(weak)
            effect.u.periodic.magnitude = Int16(min(total, 0xFFFF) >> 1)
            if total > 0 {
                let span = Self.dullPeriod - Self.sharpPeriod
                effect.u.periodic.period = UInt16(Self.dullPeriod - (span * UInt32(weak) + total / 2) / total)
            }
        }
    }
}
