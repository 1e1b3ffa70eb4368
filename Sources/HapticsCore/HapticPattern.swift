/// A haptic pattern: events, dynamic parameters and parameter curves, all timed relative to
/// the moment the pattern starts playing.
///
/// Build one in code:
///
/// ```swift
/// let pattern = HapticPattern(events: [
///     .transient(at: 0, intensity: 0.6, sharpness: 0.6),
///     .transient(at: 0.15, intensity: 1, sharpness: 1),
///     .continuous(at: 0.3, duration: 0.4, intensity: 0.5, sharpness: 0.2),
/// ], curves: [
///     HapticParameterCurve(.hapticIntensityControl, at: 0.3, points: [(0, 1), (0.4, 0)]),
/// ])
/// ```
///
/// or read one from an AHAP file with ``AHAPDecoder``. Elements keep the order they were
/// given in; renderers sort them by time.
public struct HapticPattern: Sendable, Hashable {
    /// The AHAP format version the pattern was read from or will be written as.
    public var version: Double
    /// Free-form information about the pattern (AHAP `Metadata`).
    public var metadata: Metadata
    /// The events, in the order they were given.
    public var events: [HapticEvent]
    /// Dynamic parameter changes, in the order they were given.
    public var parameters: [HapticDynamicParameter]
    /// Parameter curves, in the order they were given.
    public var curves: [HapticParameterCurve]

    /// Creates a pattern from its elements.
    public init(
        events: [HapticEvent],
        parameters: [HapticDynamicParameter] = [],
        curves: [HapticParameterCurve] = [],
        metadata: Metadata = Metadata(),
        version: Double = 1.0
    ) {
        self.version = version
        self.metadata = metadata
        self.events = events
        self.parameters = parameters
        self.curves = curves
    }

    /// Whether the pattern has no element at all (Core Haptics rejects such patterns).
    public var isEmpty: Bool { events.isEmpty && parameters.isEmpty && curves.isEmpty }

    /// The pattern's length in seconds, computed as Core Haptics does: the latest of every
    /// event's end (a continuous event's end includes its release or decay, see
    /// ``HapticEvent/end``), every parameter's time and every curve's last point.
    public var duration: Double {
        var end = 0.0
        for event in events { end = max(end, event.end) }
        for parameter in parameters { end = max(end, parameter.relativeTime) }
        for curve in curves { end = max(end, curve.end) }
        return end
    }

    /// Free-form information stored with a pattern (AHAP `Metadata`).
    public struct Metadata: Sendable, Hashable {
        /// `Project`: the project or app the pattern belongs to.
        public var project: String?
        /// `Created`: when the pattern was made, as written by its author.
        public var created: String?
        /// `Description`: what the pattern means and when to use it.
        public var description: String?
        /// Any other metadata keys, by key.
        public var other: [String: String]

        /// Creates metadata.
        public init(project: String? = nil, created: String? = nil, description: String? = nil, other: [String: String] = [:]) {
            self.project = project
            self.created = created
            self.description = description
            self.other = other
        }

        /// Whether no key is set.
        public var isEmpty: Bool { project == nil && created == nil && description == nil && other.isEmpty }
    }
}

extension HapticPattern {
    /// Counts of the pattern's elements, by kind.
    public struct Counts: Sendable, Hashable {
        /// `HapticTransient` events.
        public var transients = 0
        /// `HapticContinuous` events.
        public var continuous = 0
        /// `AudioContinuous` events.
        public var audioContinuous = 0
        /// `AudioCustom` events.
        public var audioCustom = 0
        /// `Parameter` elements.
        public var parameters = 0
        /// `ParameterCurve` elements.
        public var curves = 0
        /// All events, whatever their kind.
        public var events: Int { transients + continuous + audioContinuous + audioCustom }
    }

    /// How many elements of each kind the pattern holds.
    public var counts: Counts {
        var counts = Counts()
        for event in events {
            switch event.kind {
            case .transient: counts.transients += 1
            case .continuous: counts.continuous += 1
            case .audioContinuous: counts.audioContinuous += 1
            case .audioCustom: counts.audioCustom += 1
            }
        }
        counts.parameters = parameters.count
        counts.curves = curves.count
        return counts
    }
}
