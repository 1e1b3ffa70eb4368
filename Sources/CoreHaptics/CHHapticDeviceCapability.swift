import Foundation
import Haptics

/// The minimum, maximum and default value of a parameter, as in Apple's SDK.
public protocol CHHapticParameterAttributes: AnyObject {
    /// The smallest value the engine uses; smaller values are clamped to it.
    var minValue: Float { get }
    /// The largest value the engine uses; larger values are clamped to it.
    var maxValue: Float { get }
    /// The value used when an event or pattern does not give one.
    var defaultValue: Float { get }
}

/// What the hardware can play, as in Apple's SDK; from
/// ``CHHapticEngine/capabilitiesForHardware()``.
public protocol CHHapticDeviceCapability {
    /// Whether haptic events are felt: on Linux, whether the chosen output is a haptic
    /// actuator (a vibration motor, a gamepad, the DualSense, or a configured device that is
    /// not the sound system's `default`/`pulse`); false on a machine with only speakers.
    var supportsHaptics: Bool { get }
    /// Whether audio events (`AudioContinuous`, `AudioCustom`) are heard.
    var supportsAudio: Bool { get }
    /// The range and default of an event parameter for an event type.
    /// - Throws: ``CHHapticError/Code/invalidParameterType`` or
    ///   ``CHHapticError/Code/invalidEventType`` for unknown ones.
    func attributes(forEventParameter inParameter: CHHapticEvent.ParameterID, eventType type: CHHapticEvent.EventType) throws
        -> any CHHapticParameterAttributes
    /// The range and default of a dynamic parameter.
    /// - Throws: ``CHHapticError/Code/invalidParameterType`` for an unknown one.
    func attributes(forDynamicParameter inParameter: CHHapticDynamicParameter.ID) throws -> any CHHapticParameterAttributes
}

/// A parameter's range and default, and what the chosen actuator makes of it.
final class ParameterAttributes: CHHapticParameterAttributes, CustomStringConvertible, @unchecked Sendable {
    let minValue: Float
    let maxValue: Float
    let defaultValue: Float
    /// What the parameter's range becomes on the actuator, e.g. "60–300 Hz".
    let physicalRange: String?

    init(_ range: ClosedRange<Double>, default value: Double, physicalRange: String? = nil) {
        minValue = Float(range.lowerBound)
        maxValue = Float(range.upperBound)
        defaultValue = Float(value)
        self.physicalRange = physicalRange
    }

    var description: String {
        "\(minValue)…\(maxValue), default \(defaultValue)" + (physicalRange.map { " (\($0))" } ?? "")
    }
}

/// The capabilities of the output `HapticOutputSelection` chooses.
struct OutputCapability: CHHapticDeviceCapability {
    let selection: HapticOutputSelection
    let supportsHaptics: Bool

    /// Audio events play on the same output as the haptics (on its audio channels, see
    /// ``ActuatorProfile``): heard on an audio output, not on force feedback nor on `null`.
    var supportsAudio: Bool { selection.supportsAudio }

    func attributes(forEventParameter inParameter: CHHapticEvent.ParameterID, eventType type: CHHapticEvent.EventType) throws
        -> any CHHapticParameterAttributes
    {
        guard HapticEvent.Kind(rawValue: type.rawValue) != nil else {
            throw CHHapticError(.invalidEventType, "unknown event type '\(type.rawValue)'")
        }
        guard let id = HapticEvent.ParameterID(rawValue: inParameter.rawValue) else {
            throw CHHapticError(.invalidParameterType, "unknown event parameter '\(inParameter.rawValue)'")
        }
        let profile = selection.profile
        if selection.isForceFeedback {
            let kind = selection.output?.kind
            let physical: String? =
                switch (id, kind) {
                case (.hapticSharpness, .vibrationMotor?): "the vibration's period, 40 ms (dull) to 8 ms (sharp)"
                case (.hapticSharpness, .hapticTouchpad?): "not used: the touchpad plays its stored click"
                case (.hapticIntensity, .hapticTouchpad?): "the click's strength, 1–100 %"
                case (.hapticSharpness, _): "the balance of the heavy and light motors, at control rate"
                case (.hapticIntensity, _): "motor strength, 0…0xFFFF"
                default: nil
                }
            return ParameterAttributes(id.range, default: id.defaultValue, physicalRange: physical)
        }
        let physical: String? =
            switch id {
            case .hapticSharpness: "\(Int(profile.minFrequency))–\(Int(profile.maxFrequency)) Hz on '\(profile.name)'"
            case .hapticIntensity: "amplitude = intensity^\(profile.intensityExponent) × gain \(profile.gain) on '\(profile.name)'"
            case .attackTime, .decayTime, .releaseTime: "5 ms × 1000^value"
            default: nil
            }
        return ParameterAttributes(id.range, default: id.defaultValue, physicalRange: physical)
    }

    func attributes(forDynamicParameter inParameter: CHHapticDynamicParameter.ID) throws -> any CHHapticParameterAttributes {
        guard let id = HapticDynamicParameter.ID(rawValue: inParameter.rawValue) else {
            throw CHHapticError(.invalidParameterType, "unknown dynamic parameter '\(inParameter.rawValue)'")
        }
        return ParameterAttributes(id.range, default: id.defaultValue)
    }
}
