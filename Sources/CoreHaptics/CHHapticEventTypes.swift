import Foundation
extension CHHapticEvent {
    /// The kinds of event, as in Apple's SDK: AHAP's `EventType` strings.
    public struct EventType: Hashable, Equatable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// A brief impulse, complete on its own (a tap). Its duration only pads the pattern.
        public static let hapticTransient = EventType(rawValue: "HapticTransient")
        /// A vibration lasting the event's duration (up to 30 s), shaped by an envelope.
        public static let hapticContinuous = EventType(rawValue: "HapticContinuous")
        /// A synthesised audio tone.
        public static let audioContinuous = EventType(rawValue: "AudioContinuous")
        /// A sound from a registered audio resource or waveform file.
        public static let audioCustom = EventType(rawValue: "AudioCustom")
    }

    /// The parameters an event can have, as in Apple's SDK: AHAP's `ParameterID` strings.
    public struct ParameterID: Hashable, Equatable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// Perceived strength, 0…1.
        public static let hapticIntensity = ParameterID(rawValue: "HapticIntensity")
        /// Feel from round and soft (0) to crisp and precise (1); on Linux, the frequency
        /// within the actuator profile's band.
        public static let hapticSharpness = ParameterID(rawValue: "HapticSharpness")
        /// Envelope attack, 0…1 (5 ms × 1000^value).
        public static let attackTime = ParameterID(rawValue: "AttackTime")
        /// Envelope decay, 0…1; used when not sustained.
        public static let decayTime = ParameterID(rawValue: "DecayTime")
        /// Release after a continuous event's end, 0…1.
        public static let releaseTime = ParameterID(rawValue: "ReleaseTime")
        /// 1: attack, hold for the duration, release. 0: attack then decay.
        public static let sustained = ParameterID(rawValue: "Sustained")
        /// Audio volume, 0…1.
        public static let audioVolume = ParameterID(rawValue: "AudioVolume")
        /// Audio pitch, −1…1.
        public static let audioPitch = ParameterID(rawValue: "AudioPitch")
        /// Audio pan, −1 (left)…1 (right).
        public static let audioPan = ParameterID(rawValue: "AudioPan")
        /// Audio brightness, 0…1.
        public static let audioBrightness = ParameterID(rawValue: "AudioBrightness")
    }
}

extension CHHapticDynamicParameter {
    /// The dynamic parameters, as in Apple's SDK: AHAP's `ParameterID` strings of
    /// `Parameter` and `ParameterCurve` elements. Intensity and volume controls multiply;
    /// the others add.
    public struct ID: Hashable, Equatable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// Multiplies the intensity of haptic events, 0…1 (default 1).
        public static let hapticIntensityControl = ID(rawValue: "HapticIntensityControl")
        /// Adds to the sharpness of continuous haptic events, −1…1.
        public static let hapticSharpnessControl = ID(rawValue: "HapticSharpnessControl")
        /// Adds to the attack time of haptic events, −1…1.
        public static let hapticAttackTimeControl = ID(rawValue: "HapticAttackTimeControl")
        /// Adds to the decay time of haptic events, −1…1.
        public static let hapticDecayTimeControl = ID(rawValue: "HapticDecayTimeControl")
        /// Adds to the release time of haptic events, −1…1.
        public static let hapticReleaseTimeControl = ID(rawValue: "HapticReleaseTimeControl")
        /// Multiplies the volume of audio events, 0…1 (default 1).
        public static let audioVolumeControl = ID(rawValue: "AudioVolumeControl")
        /// Adds to the pan of audio events, −1…1.
        public static let audioPanControl = ID(rawValue: "AudioPanControl")
        /// Adds to the brightness of audio events, −1…1.
        public static let audioBrightnessControl = ID(rawValue: "AudioBrightnessControl")
        /// Adds to the pitch of audio events, −1…1.
        public static let audioPitchControl = ID(rawValue: "AudioPitchControl")
        /// Adds to the attack time of audio events, −1…1.
        public static let audioAttackTimeControl = ID(rawValue: "AudioAttackTimeControl")
        /// Adds to the decay time of audio events, −1…1.
        public static let audioDecayTimeControl = ID(rawValue: "AudioDecayTimeControl")
        /// Adds to the release time of audio events, −1…1.
        public static let audioReleaseTimeControl = ID(rawValue: "AudioReleaseTimeControl")
    }
}
