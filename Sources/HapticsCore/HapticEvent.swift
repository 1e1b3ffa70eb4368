import FoundationEssentials
import Glibc

/// One thing that happens in a pattern: a tap, a vibration or a sound, at a time relative to
/// the pattern's start.
public struct HapticEvent: Sendable, Hashable {
    /// What kind of event this is (AHAP `EventType`).
    public var kind: Kind
    /// Seconds from the pattern's start to the event's start (AHAP `Time`), never negative.
    public var relativeTime: Double
    /// The event's length in seconds (AHAP `EventDuration`). A transient's duration only pads
    /// the pattern; a continuous event vibrates for this long (plus its release).
    public var duration: Double
    /// The parameters written for the event, in the order given. Missing ones take their
    /// defaults; see ``value(of:)``.
    public var parameters: [Parameter]
    /// The sound an ``Kind/audioCustom`` event plays; `nil` for every other kind.
    public var audio: AudioResource?

    /// Creates an event.
    public init(_ kind: Kind, at relativeTime: Double, duration: Double = 0, parameters: [Parameter] = [], audio: AudioResource? = nil) {
        self.kind = kind
        self.relativeTime = relativeTime
        self.duration = duration
        self.parameters = parameters
        self.audio = audio
    }

    /// A brief tap.
    ///
    /// - Parameters:
    ///   - time: seconds from the pattern's start.
    ///   - intensity: strength, 0…1.
    ///   - sharpness: feel, from round (0) to crisp (1).
    public static func transient(
        at time: Double, intensity: Double = ParameterID.hapticIntensity.defaultValue, sharpness: Double = ParameterID.hapticSharpness.defaultValue
    ) -> HapticEvent {
        HapticEvent(
            .transient, at: time,
            parameters: [
                Parameter(.hapticIntensity, intensity),
                Parameter(.hapticSharpness, sharpness),
            ])
    }

    /// A vibration of a given length, shaped by an envelope.
    ///
    /// Envelope values are 0…1; see ``HapticEnvelope/seconds(for:)`` for how they become times.
    /// With `sustained` false the vibration attacks then decays and may end before `duration`.
    public static func continuous(
        at time: Double,
        duration: Double,
        intensity: Double = ParameterID.hapticIntensity.defaultValue,
        sharpness: Double = ParameterID.hapticSharpness.defaultValue,
        attack: Double? = nil,
        decay: Double? = nil,
        release: Double? = nil,
        sustained: Bool? = nil
    ) -> HapticEvent {
        var parameters = [Parameter(.hapticIntensity, intensity), Parameter(.hapticSharpness, sharpness)]
        if let attack { parameters.append(Parameter(.attackTime, attack)) }
        if let decay { parameters.append(Parameter(.decayTime, decay)) }
        if let release { parameters.append(Parameter(.releaseTime, release)) }
        if let sustained { parameters.append(Parameter(.sustained, sustained ? 1 : 0)) }
        return HapticEvent(.continuous, at: time, duration: duration, parameters: parameters)
    }

    /// The value the event uses for a parameter: the last one written for it, clamped to the
    /// parameter's range, or the parameter's default.
    public func value(of id: ParameterID) -> Double {
        if let written = parameters.last(where: { $0.id == id }) {
            return id.range.clamp(written.value)
        }
        return id.defaultValue
    }

    /// Whether a continuous event holds until its duration (`Sustained` ≥ 0.5, the default) or
    /// attacks and then decays.
    public var isSustained: Bool { value(of: .sustained) >= 0.5 }

    /// When the event stops contributing, in pattern time: a transient's time plus its
    /// duration; a sustained continuous event's end plus its release; a non-sustained one's
    /// attack plus decay, if that comes before its duration.
    public var end: Double {
        switch kind {
        case .transient, .audioCustom:
            return relativeTime + duration
        case .continuous, .audioContinuous:
            let attack = HapticEnvelope.seconds(for: value(of: .attackTime))
            if isSustained {
                return relativeTime + duration + HapticEnvelope.seconds(for: value(of: .releaseTime))
            }
            let decay = HapticEnvelope.seconds(for: value(of: .decayTime))
            return relativeTime + min(duration, attack + decay)
        }
    }

    /// The kinds of event (AHAP `EventType`).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A brief impulse, complete on its own (`HapticTransient`).
        case transient = "HapticTransient"
        /// A vibration lasting the event's duration, up to 30 s (`HapticContinuous`).
        case continuous = "HapticContinuous"
        /// A synthesized audio tone (`AudioContinuous`), played on the audio channels.
        case audioContinuous = "AudioContinuous"
        /// A sound file (`AudioCustom`), played on the audio channels.
        case audioCustom = "AudioCustom"

        /// Whether the event drives actuators (as opposed to producing sound).
        public var isHaptic: Bool { self == .transient || self == .continuous }
    }

    /// A parameter value written for an event (AHAP `EventParameters` entry).
    public struct Parameter: Sendable, Hashable {
        /// Which parameter.
        public var id: ParameterID
        /// Its value, in the parameter's range.
        public var value: Double

        /// Creates a parameter value.
        public init(_ id: ParameterID, _ value: Double) {
            self.id = id
            self.value = value
        }
    }

    /// The parameters an event can have, with their ranges and defaults.
    public enum ParameterID: String, Sendable, Hashable, CaseIterable {
        /// Perceived strength, 0…1.
        case hapticIntensity = "HapticIntensity"
        /// Feel from round and soft (0) to crisp and precise (1).
        case hapticSharpness = "HapticSharpness"
        /// Envelope attack, 0…1; higher values lengthen it exponentially.
        case attackTime = "AttackTime"
        /// Envelope decay, 0…1; used only when not sustained.
        case decayTime = "DecayTime"
        /// Release after a continuous event's end, 0…1.
        case releaseTime = "ReleaseTime"
        /// 1: attack, hold for the duration, release. 0: attack then decay.
        case sustained = "Sustained"
        /// Audio volume, 0…1.
        case audioVolume = "AudioVolume"
        /// Audio pitch, −1…1.
        case audioPitch = "AudioPitch"
        /// Audio pan, −1 (left)…1 (right).
        case audioPan = "AudioPan"
        /// Audio brightness, 0…1.
        case audioBrightness = "AudioBrightness"

        /// The values the parameter takes; others are clamped into it.
        public var range: ClosedRange<Double> {
            switch self {
            case .audioPitch, .audioPan: return -1...1
            default: return 0...1
            }
        }

        /// The value used when an event does not give one.
        ///
        /// Intensity 0.75 and sharpness 0.5 are what one iOS build reports for transients;
        /// the project uses them for continuous events too.
        public var defaultValue: Double {
            switch self {
            case .hapticIntensity: return 0.75
            case .hapticSharpness: return 0.5
            case .attackTime, .decayTime, .releaseTime: return 0
            case .sustained: return 1
            case .audioVolume, .audioBrightness: return 1
            case .audioPitch, .audioPan: return 0
            }
        }

        /// Whether the parameter affects haptic events (as opposed to audio events).
        public var isHaptic: Bool {
            switch self {
            case .audioVolume, .audioPitch, .audioPan, .audioBrightness: return false
            default: return true
            }
        }
    }

    /// The sound file of an ``Kind/audioCustom`` event.
    public struct AudioResource: Sendable, Hashable {
        /// The path as written in the AHAP file (`EventWaveformPath`), relative to its folder.
        public var path: String
        /// Whether the event's envelope shapes the sound's volume (`EventWaveformUseVolumeEnvelope`,
        /// default true when absent).
        public var usesVolumeEnvelope: Bool?
        /// Whether the sound loops for the event's duration (`EventWaveformLoopEnabled`,
        /// default false when absent).
        public var loopEnabled: Bool?
        /// The folder a relative ``path`` is relative to: the AHAP file's folder when the
        /// decoder was given one (``AHAPDecoder/decode(contentsOf:)`` does); `nil` means the
        /// current directory. Not written to AHAP, and not part of equality: two resources are
        /// equal when their AHAP text is (a file and its exported copy decode to equal patterns).
        public var directory: URL?

        public static func == (a: AudioResource, b: AudioResource) -> Bool {
            a.path == b.path && a.usesVolumeEnvelope == b.usesVolumeEnvelope && a.loopEnabled == b.loopEnabled
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(path)
            hasher.combine(usesVolumeEnvelope)
            hasher.combine(loopEnabled)
        }

        /// Creates a reference to a sound file.
        public init(path: String, usesVolumeEnvelope: Bool? = nil, loopEnabled: Bool? = nil, directory: URL? = nil) {
            self.path = path
            self.usesVolumeEnvelope = usesVolumeEnvelope
            self.loopEnabled = loopEnabled
            self.directory = directory
        }

        /// Where the sound file is: ``path`` as given when absolute, else under ``directory``
        /// (or the current directory).
        public var resolvedPath: String {
            if path.hasPrefix("/") { return path }
            guard let directory else { return path }
            return directory.appendingPathComponent(path).path
        }
    }
}

/// How envelope parameters (attack, decay, release; 0…1) become times.
package enum HapticEnvelope {
    /// `5 ms × 1000^v`: 5 ms at 0, 160 ms at 0.5, 5 s at 1. Values outside 0…1 are clamped.
    package static func seconds(for value: Double) -> Double {
        0.005 * pow(1000, min(max(value, 0), 1))
    }
}

extension ClosedRange where Bound == Double {
    /// The value moved into the range; NaN becomes the lower bound.
    @inlinable package func clamp(_ value: Double) -> Double {
        guard !value.isNaN else { return lowerBound }
        return Swift.min(Swift.max(value, lowerBound), upperBound)
    }
}
