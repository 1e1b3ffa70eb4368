extension HapticFeedback: CustomStringConvertible, LosslessStringConvertible {
    /// Finds feedback by name, as typed on a command line or stored in a file.
    ///
    /// Accepts every preset name and alias (`success`, `failure`, `light`, `directionUp`),
    /// ignoring case, `-` and `_` (`level-change`, `LEVEL_CHANGE`), and the call form with
    /// parameters that ``description`` writes: `impact(weight: heavy, intensity: 0.7)`,
    /// `impact(flexibility: .soft)`, `heavy(intensity: 0.5)`. Returns nil for anything else,
    /// including an intensity outside 0…1.
    public init?(name: String) {
        let text = name.trimmingSpaces()
        guard let open = text.firstIndex(of: "(") else {
            guard let feedback = HapticFeedback.named(text) else { return nil }
            self = feedback
            return
        }
        guard text.hasSuffix(")") else { return nil }
        let base = String(text[..<open]).trimmingSpaces()
        let arguments = text[text.index(after: open)..<text.index(before: text.endIndex)]
        guard let feedback = HapticFeedback.named(base) else { return nil }
        var weight: Weight?
        var flexibility: Flexibility?
        var intensity: Double?
        for argument in arguments.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = argument.split(separator: ":", maxSplits: 1).map { $0.trimmingSpaces() }
            guard parts.count == 2 else {
                if arguments.trimmingSpaces().isEmpty { break }
                return nil
            }
            let value = parts[1].hasPrefix(".") ? String(parts[1].dropFirst()) : parts[1]
            switch parts[0] {
            case "weight" where weight == nil:
                guard let parsed = Weight(rawValue: value.lowercased()) else { return nil }
                weight = parsed
            case "flexibility" where flexibility == nil:
                guard let parsed = Flexibility(rawValue: value.lowercased()) else { return nil }
                flexibility = parsed
            case "intensity" where intensity == nil:
                guard let parsed = Double(value), (0...1).contains(parsed) else { return nil }
                intensity = parsed
            default:
                return nil
            }
        }
        guard let result = feedback.with(weight: weight, flexibility: flexibility, intensity: intensity) else { return nil }
        self = result
    }

    /// Same as ``init(name:)``, for `LosslessStringConvertible`.
    public init?(_ description: String) {
        self.init(name: description)
    }

    /// The name ``init(name:)`` reads back: the preset name for kinds without parameters,
    /// `impact(weight: heavy, intensity: 0.7)` for impacts, leaving out default arguments.
    public var description: String {
        switch self {
        case .impact(let weight, let intensity):
            return Self.call(weight == .medium ? nil : "weight: \(weight.rawValue)", intensity: intensity)
        case .flexibleImpact(let flexibility, let intensity):
            return Self.call("flexibility: \(flexibility.rawValue)", intensity: intensity)
        default:
            return presetName
        }
    }

    private static func call(_ argument: String?, intensity: Double) -> String {
        let arguments = [argument, intensity == 1 ? nil : "intensity: \(intensity)"].compactMap { $0 }
        return arguments.isEmpty ? "impact" : "impact(\(arguments.joined(separator: ", ")))"
    }

    /// The feedback with an impact's weight, flexibility or intensity replaced; nil when the
    /// parameters do not fit: weight or flexibility on anything but the plain impact (a
    /// `heavy` already has its weight), both at once, or an intensity on a non-impact.
    public func with(weight: Weight? = nil, flexibility: Flexibility? = nil, intensity: Double? = nil) -> HapticFeedback? {
        switch self {
        case .impact(let ownWeight, let ownIntensity):
            let isPlain = ownWeight == .medium
            switch (weight, flexibility) {
            case (nil, nil): return .impact(weight: ownWeight, intensity: intensity ?? ownIntensity)
            case (let weight?, nil) where isPlain: return .impact(weight: weight, intensity: intensity ?? ownIntensity)
            case (nil, let flexibility?) where isPlain: return .impact(flexibility: flexibility, intensity: intensity ?? ownIntensity)
            default: return nil
            }
        case .flexibleImpact(let ownFlexibility, let ownIntensity):
            guard weight == nil, flexibility == nil else { return nil }
            return .impact(flexibility: ownFlexibility, intensity: intensity ?? ownIntensity)
        default:
            guard weight == nil, flexibility == nil, intensity == nil else { return nil }
            return self
        }
    }

    /// Feedback for a bare name: the names that carry an impact parameter, then every preset
    /// name and alias in the library.
    static func named(_ name: String) -> HapticFeedback? {
        let key = PresetName.key(name.hasPrefix(".") ? String(name.dropFirst()) : name)
        if let feedback = parameterNames[key] { return feedback }
        guard let canonical = PresetLibrary.info(named: key)?.name else { return nil }
        return presets.first { $0.presetName == canonical }
    }

    /// UIKit's and SwiftUI's impact names, which pick a parameter rather than only a pattern
    /// (`solid` is the plain impact's pattern, but as `impact(flexibility: .solid)`).
    private static let parameterNames: [String: HapticFeedback] = [
        "light": .impact(weight: .light),
        "medium": .impact(weight: .medium),
        "heavy": .impact(weight: .heavy),
        "rigid": .impact(flexibility: .rigid),
        "solid": .impact(flexibility: .solid),
        "soft": .impact(flexibility: .soft),
    ]
}
