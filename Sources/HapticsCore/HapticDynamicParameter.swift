/// A change to how a playing pattern feels, from a time on: AHAP's `Parameter` element.
///
/// Intensity and volume controls multiply event values; every other control adds to them.
public struct HapticDynamicParameter: Sendable, Hashable {
    /// Which control changes.
    public var id: ID
    /// Seconds from the pattern's start (or, sent to a player, from the send time).
    public var relativeTime: Double
    /// The control's new value, in ``ID/range``.
    public var value: Double

    /// Creates a parameter change.
    public init(_ id: ID, _ value: Double, at relativeTime: Double = 0) {
        self.id = id
        self.value = value
        self.relativeTime = relativeTime
    }

    /// The dynamic parameters (AHAP `ParameterID` of `Parameter` and `ParameterCurve`).
    public enum ID: String, Sendable, Hashable, CaseIterable {
        /// Multiplies haptic intensity, 0…1.
        case hapticIntensityControl = "HapticIntensityControl"
        /// Adds to haptic sharpness, −1…1; affects continuous events only.
        case hapticSharpnessControl = "HapticSharpnessControl"
        /// Adds to the attack time of haptic events, −1…1.
        case hapticAttackTimeControl = "HapticAttackTimeControl"
        /// Adds to the decay time of haptic events, −1…1.
        case hapticDecayTimeControl = "HapticDecayTimeControl"
        /// Adds to the release time of haptic events, −1…1.
        case hapticReleaseTimeControl = "HapticReleaseTimeControl"
        /// Multiplies audio volume, 0…1.
        case audioVolumeControl = "AudioVolumeControl"
        /// Adds to audio pan, −1…1.
        case audioPanControl = "AudioPanControl"
        /// Adds to audio pitch, −1…1.
        case audioPitchControl = "AudioPitchControl"
        /// Adds to audio brightness, −1…1.
        case audioBrightnessControl = "AudioBrightnessControl"
        /// Adds to the attack time of audio events, −1…1.
        case audioAttackTimeControl = "AudioAttackTimeControl"
        /// Adds to the decay time of audio events, −1…1.
        case audioDecayTimeControl = "AudioDecayTimeControl"
        /// Adds to the release time of audio events, −1…1.
        case audioReleaseTimeControl = "AudioReleaseTimeControl"

        /// Whether the control multiplies (intensity, volume) rather than adds.
        package var multiplies: Bool { self == .hapticIntensityControl || self == .audioVolumeControl }

        /// The values the control takes; others are clamped into it.
        public var range: ClosedRange<Double> { multiplies ? 0...1 : -1...1 }

        /// The value in effect when nothing has set the control: 1 for multipliers, 0 otherwise.
        public var defaultValue: Double { multiplies ? 1 : 0 }

        /// Whether the control affects haptic events (as opposed to audio events).
        public var isHaptic: Bool { rawValue.hasPrefix("Haptic") }

        /// The event parameter the control acts on.
        package var target: HapticEvent.ParameterID {
            switch self {
            case .hapticIntensityControl: return .hapticIntensity
            case .hapticSharpnessControl: return .hapticSharpness
            case .hapticAttackTimeControl, .audioAttackTimeControl: return .attackTime
            case .hapticDecayTimeControl, .audioDecayTimeControl: return .decayTime
            case .hapticReleaseTimeControl, .audioReleaseTimeControl: return .releaseTime
            case .audioVolumeControl: return .audioVolume
            case .audioPanControl: return .audioPan
            case .audioPitchControl: return .audioPitch
            case .audioBrightnessControl: return .audioBrightness
            }
        }

        /// Applies the control's value to an event parameter value, clamped to its range.
        package func apply(_ control: Double, to value: Double) -> Double {
            target.range.clamp(multiplies ? value * control : value + control)
        }
    }
}

/// A dynamic parameter that moves through control points: AHAP's `ParameterCurve`. Values are
/// interpolated linearly between points and hold the last point's value after it.
public struct HapticParameterCurve: Sendable, Hashable {
    /// Which control the curve drives.
    public var id: HapticDynamicParameter.ID
    /// Seconds from the pattern's start to the curve's start.
    public var relativeTime: Double
    /// The points, with times relative to the curve's start, in time order.
    public var controlPoints: [ControlPoint]

    /// Creates a curve from its points.
    public init(_ id: HapticDynamicParameter.ID, at relativeTime: Double, controlPoints: [ControlPoint]) {
        self.id = id
        self.relativeTime = relativeTime
        self.controlPoints = controlPoints
    }

    /// Creates a curve from `(time, value)` pairs.
    public init(_ id: HapticDynamicParameter.ID, at relativeTime: Double, points: [(time: Double, value: Double)]) {
        self.init(id, at: relativeTime, controlPoints: points.map { ControlPoint(at: $0.time, $0.value) })
    }

    /// When the curve's last point is reached, in pattern time.
    public var end: Double { relativeTime + (controlPoints.map(\.relativeTime).max() ?? 0) }

    /// The curve's value at a time relative to its start: the first point's value before it,
    /// linear between points, the last point's value after it.
    public func value(at time: Double) -> Double {
        guard let first = controlPoints.first else { return id.defaultValue }
        if time <= first.relativeTime { return first.value }
        for (a, b) in zip(controlPoints, controlPoints.dropFirst()) where time < b.relativeTime {
            let span = b.relativeTime - a.relativeTime
            guard span > 0 else { return b.value }
            return a.value + (b.value - a.value) * (time - a.relativeTime) / span
        }
        return controlPoints[controlPoints.count - 1].value
    }

    /// One point of a curve.
    public struct ControlPoint: Sendable, Hashable {
        /// Seconds from the curve's start.
        public var relativeTime: Double
        /// The control's value there.
        public var value: Double

        /// Creates a point.
        public init(at relativeTime: Double, _ value: Double) {
            self.relativeTime = relativeTime
            self.value = value
        }
    }
}
