import Haptics

/// The `show --json` object.
struct PatternSummary: Encodable {
    var source: String
    /// The AHAP file's `Version`.
    var ahapVersion: Double
    var duration: Double
    var metadata: [String: String]
    var counts: Counts
    var events: [Event]
    var parameters: [Parameter]
    var curves: [Curve]

    init(source: String, pattern: HapticPattern) {
        self.source = source
        ahapVersion = pattern.version
        duration = pattern.duration
        var metadata = pattern.metadata.other
        if let project = pattern.metadata.project { metadata["Project"] = project }
        if let created = pattern.metadata.created { metadata["Created"] = created }
        if let description = pattern.metadata.description { metadata["Description"] = description }
        self.metadata = metadata
        counts = Counts(pattern.counts)
        events = Self.timeOrdered(pattern.events, time: \.relativeTime).map(Event.init)
        parameters = Self.timeOrdered(pattern.parameters, time: \.relativeTime).map(Parameter.init)
        curves = Self.timeOrdered(pattern.curves, time: \.relativeTime).map(Curve.init)
    }

    private static func timeOrdered<T>(_ items: [T], time: (T) -> Double) -> [T] {
        items.enumerated()
            .sorted { (time($0.element), $0.offset) < (time($1.element), $1.offset) }
            .map(\.element)
    }

    struct Counts: Encodable {
        var events, transients, continuous, audioContinuous, audioCustom, parameters, curves: Int

        init(_ counts: HapticPattern.Counts) {
            events = counts.events
            transients = counts.transients
            continuous = counts.continuous
            audioContinuous = counts.audioContinuous
            audioCustom = counts.audioCustom
            parameters = counts.parameters
            curves = counts.curves
        }
    }

    struct Event: Encodable {
        var event: HapticEvent

        enum CodingKeys: String, CodingKey {
            case time, type, duration, end, haptic, intensity, sharpness, parameters, waveformPath
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(event.relativeTime, forKey: .time)
            try container.encode(event.kind.rawValue, forKey: .type)
            try container.encode(event.duration, forKey: .duration)
            try container.encode(event.end, forKey: .end)
            try container.encode(event.kind.isHaptic, forKey: .haptic)
            try container.encode(event.kind.isHaptic ? event.value(of: .hapticIntensity) : nil, forKey: .intensity)
            try container.encode(event.kind.isHaptic ? event.value(of: .hapticSharpness) : nil, forKey: .sharpness)
            try container.encode(event.parameters.map { Point(id: $0.id.rawValue, value: $0.value) }, forKey: .parameters)
            try container.encode(event.audio?.path, forKey: .waveformPath)
        }

        struct Point: Encodable {
            var id: String
            var value: Double
        }
    }

    struct Parameter: Encodable {
        var time: Double
        var id: String
        var value: Double

        init(_ parameter: HapticDynamicParameter) {
            time = parameter.relativeTime
            id = parameter.id.rawValue
            value = parameter.value
        }
    }

    struct Curve: Encodable {
        var time: Double
        var id: String
        var end: Double
        var controlPoints: [Point]

        init(_ curve: HapticParameterCurve) {
            time = curve.relativeTime
            id = curve.id.rawValue
            end = curve.end
            controlPoints = curve.controlPoints.map { Point(time: $0.relativeTime, value: $0.value) }
        }

        struct Point: Encodable {
            var time: Double
            var value: Double
        }
    }
}
