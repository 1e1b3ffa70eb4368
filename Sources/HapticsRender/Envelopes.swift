import FoundationEssentials
import HapticsCore

/// The shape of a transient: a burst of about two cycles at the event's frequency, 8–40 ms
/// long, rising with a raised cosine over its first millisecond and falling back to zero with
/// a raised cosine. The carrier is phased so that it peaks where the envelope does, so the
/// burst's peak sample is the event's amplitude.
enum TransientShape {
    /// Onset ramp length in seconds.
    static let attack = 0.001

    /// Burst length in seconds for a carrier frequency.
    static func length(frequency: Double) -> Double {
        min(max(2 / frequency, 0.008), 0.040)
    }
}

/// A continuous event's amplitude envelope over its own (pattern) time, from Core Haptics'
/// `AttackTime`, `DecayTime`, `ReleaseTime` and `Sustained`:
/// sustained: linear attack, hold until the duration, linear release after it; otherwise
/// linear attack then linear decay, ending at the duration or attack + decay, whichever is
/// first (cut short by a 1 ms fade so it never stops at a non-zero sample).
struct ContinuousEnvelope: Sendable {
    var attack: Double
    var decay: Double
    var release: Double
    var duration: Double
    var sustained: Bool

    /// Fade applied when a non-sustained event is cut by its duration.
    static let cutFade = 0.001

    init(attack: Double, decay: Double, release: Double, duration: Double, sustained: Bool) {
        self.attack = attack
        self.decay = decay
        self.release = release
        self.duration = duration
        self.sustained = sustained
    }

    /// The envelope of an event, with envelope-time controls (−1…1) added to its values.
    init(_ event: CompiledPattern.Event, attackControl: Double = 0, decayControl: Double = 0, releaseControl: Double = 0) {
        self.init(
            attack: HapticEnvelope.seconds(for: event.attack + attackControl),
            decay: HapticEnvelope.seconds(for: event.decay + decayControl),
            release: HapticEnvelope.seconds(for: event.release + releaseControl),
            duration: event.duration,
            sustained: event.sustained)
    }

    /// When the envelope reaches zero for good, in seconds from the event's start.
    var end: Double {
        sustained ? duration + release : min(duration, attack + decay)
    }

    /// The level (0…1) at `t` seconds after the event's start.
    @inline(__always)
    func level(at t: Double) -> Double {
        guard t > 0 else { return 0 }
        if sustained {
            if t <= duration { return min(1, t / attack) }
            let held = min(1, duration / attack)
            return max(0, held * (1 - (t - duration) / release))
        }
        guard t < end else { return 0 }
        let natural = t < attack ? t / attack : max(0, 1 - (t - attack) / decay)
        if duration < attack + decay {
            return natural * min(1, (duration - t) / Self.cutFade)
        }
        return natural
    }
}
