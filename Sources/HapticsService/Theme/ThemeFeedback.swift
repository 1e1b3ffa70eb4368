import FoundationEssentials
import Glibc
import Haptics
import HapticsFormats

/// A level of feedback, feedbackd's profiles: `full` plays the theme's full, quiet and silent
/// sections, `quiet` the quiet and silent ones, `silent` only the silent one. One model with
/// the theme file's sections.
package typealias FeedbackLevel = FeedbackdTheme.Level

/// One feedback of a theme, ready to play: what the theme file says and the pattern the engine
/// plays for it, made once when the theme loads.
package struct ThemeFeedback: Sendable {
    /// The theme file's feedback types, and the `Pattern` extension.
    package enum Kind: String, Sendable, Hashable {
        case vibraRumble = "VibraRumble"
        case vibraPeriodic = "VibraPeriodic"
        case vibraPattern = "VibraPattern"
        case sound = "Sound"
        case led = "Led"
        case pattern = "Pattern"
    }

    /// The event it answers.
    package var eventName: String
    /// The section it came from.
    package var level: FeedbackLevel
    /// Its type.
    package var kind: Kind
    /// What the theme file says; nil for a feedback the service made itself (the
    /// `sound-file` hint's sound).
    package var source: FeedbackdTheme.Kind?
    /// What the engine plays; nil where it cannot play here (`Led`; a sound the sound theme
    /// lacks).
    package var pattern: HapticPattern?
    /// Whether it moves an actuator (the `Vibra` types and `Pattern`); a `Sound` is audio.
    package var isHaptic: Bool

    /// A feedback the service makes itself, such as the `sound-file` hint's sound.
    package init(kind: Kind, pattern: HapticPattern?, isHaptic: Bool, eventName: String = "", level: FeedbackLevel = .full) {
        self.init(eventName: eventName, level: level, kind: kind, source: nil, pattern: pattern, isHaptic: isHaptic)
    }

    /// A theme's feedback.
    package init(eventName: String, level: FeedbackLevel, kind: Kind, source: FeedbackdTheme.Kind?, pattern: HapticPattern?, isHaptic: Bool) {
        self.eventName = eventName
        self.level = level
        self.kind = kind
        self.source = source
        self.pattern = pattern
        self.isHaptic = isHaptic
    }

    /// The pattern with every haptic intensity capped so that its amplitude (intensity²) stays
    /// at most `maxHapticStrength` (feedbackd's `max-haptic-strength`, 0…1: a cap on the motor's
    /// magnitude, not a scale). Audio is left alone.
    package func pattern(maxHapticStrength: Double) -> HapticPattern? {
        guard var pattern, isHaptic, maxHapticStrength < 1 else { return pattern }
        let cap = max(0, maxHapticStrength).squareRoot()
        for index in pattern.events.indices where pattern.events[index].kind.isHaptic {
            let intensity = pattern.events[index].value(of: .hapticIntensity)
            pattern.events[index].parameters.removeAll { $0.id == .hapticIntensity }
            pattern.events[index].parameters.append(HapticEvent.Parameter(.hapticIntensity, min(intensity, cap)))
        }
        return pattern
    }
}

/// How feedbackd's haptic feedbacks become patterns the engine plays sample-accurately, each
/// timed by the pattern rather than by a timer per step.
///
/// A feedbackd magnitude is the motor's strength (`FF_RUMBLE`'s `0xFFFF × m`); the engine's
/// amplitude is intensity², so a magnitude `m` becomes intensity `√m` and is felt at the same
/// strength. feedbackd has no sharpness: every vibration has sharpness 0.5 (180 Hz on the
/// wideband profile).
package enum ThemePatterns {
    /// The sharpness of every theme vibration.
    package static let sharpness = 0.5

    /// The intensity that gives a magnitude's strength.
    package static func intensity(magnitude: Double) -> Double { (0.0...1.0).clamp(magnitude).squareRoot() }

    /// A vibration of `milliseconds` at a magnitude, starting at `start` ms.
    static func vibration(at start: Int, milliseconds: Int, magnitude: Double, attack: Double? = nil) -> HapticEvent {
        .continuous(
            at: Double(start) / 1000, duration: Double(milliseconds) / 1000, intensity: intensity(magnitude: magnitude),
            sharpness: sharpness, attack: attack, sustained: true)
    }

    /// `VibraRumble`: `count` rumbles of `duration / count − pause` ms, each followed by
    /// `pause` ms; where that leaves no rumble, one rumble of 1 s (feedbackd's rule).
    package static func rumble(duration: Int, count: Int, pause: Int, magnitude: Double) -> HapticPattern {
        var count = max(count, 1)
        var pause = pause
        var rumble = duration / count - pause
        if rumble <= 0 {
            (rumble, pause, count) = (1000, 0, 1)
        }
        let events = (0..<count).map { vibration(at: $0 * (rumble + pause), milliseconds: rumble, magnitude: magnitude) }
        return HapticPattern(events: magnitude > 0 ? events : [])
    }

    /// `VibraPeriodic`: one vibration of `duration` ms whose fade-in is its attack: the envelope
    /// rises over `fadeInTime` ms, shortened by the share of the magnitude the fade-in level
    /// already has (the engine's attack starts at zero).
    package static func periodic(duration: Int, magnitude: Double, fadeInTime: Int, fadeInLevel: Double) -> HapticPattern {
        guard magnitude > 0, duration > 0 else { return HapticPattern(events: []) }
        let share = min(max(fadeInLevel / magnitude, 0), 1)
        let attackSeconds = min(Double(fadeInTime), Double(duration)) / 1000 * (1 - share)
        // The envelope's attack value v lasts 5 ms × 1000^v (HapticEnvelope).
        let attack = attackSeconds <= 0.005 ? 0 : min(1, log(attackSeconds / 0.005) / log(1000))
        return HapticPattern(events: [vibration(at: 0, milliseconds: duration, magnitude: magnitude, attack: attack)])
    }

    /// `VibraPattern`: step `i` is a continuous event of `magnitudes[i]` for `durations[i]` ms;
    /// neighbouring steps of one magnitude are one event, and magnitude 0 is a pause.
    package static func steps(magnitudes: [Double], durations: [Int]) -> HapticPattern {
        var events: [HapticEvent] = []
        var time = 0
        var run: (start: Int, length: Int, magnitude: Double)?
        func close() {
            if let open = run, open.magnitude > 0, open.length > 0 {
                events.append(vibration(at: open.start, milliseconds: open.length, magnitude: open.magnitude))
            }
            run = nil
        }
        for (magnitude, duration) in zip(magnitudes, durations) {
            if let open = run, open.magnitude == magnitude {
                run?.length += duration
            } else {
                close()
                run = (time, duration, magnitude)
            }
            time += duration
        }
        close()
        return HapticPattern(events: events)
    }
}
