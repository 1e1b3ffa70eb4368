import FoundationEssentials
import HapticsCore
import Synchronization

/// The presets: one authored AHAP file per kind of feedback, from `Patterns/`, embedded into
/// the library at build time so an installed program needs no resource files.
///
/// Names are looked up ignoring case, `-` and `_`, and aliases resolve to their preset
/// (`failure` is `error`). Patterns come back with the user's settings applied.
public enum PresetLibrary {
    /// Every preset, by category and then in ``HapticFeedback/presets`` order.
    public static var all: [PresetInfo] { catalog.infos }

    /// The preset a name or alias picks, or nil.
    public static func info(named name: String) -> PresetInfo? {
        catalog.index[PresetName.key(name)].map { catalog.infos[$0] }
    }

    /// The closest preset name or alias to a name that is not one, for "did you mean …?".
    public static func suggestion(for name: String) -> String? {
        NameSuggestion.best(for: name, among: all.flatMap { [$0.name] + $0.aliases })
    }

    /// The preset's pattern with its strength scaled by `intensity` (0…1) and the settings
    /// applied; nil when no preset has the name. See ``HapticPattern/init(feedback:settings:)``
    /// for what scaling and muting do.
    public static func pattern(named name: String, intensity: Double = 1, settings: HapticSettings = .current) -> HapticPattern? {
        guard let info = info(named: name), let authored = authoredPattern(named: info.name) else { return nil }
        return authored.scalingIntensity(by: (0.0...1.0).clamp(intensity) * settings.scale(for: info.category))
    }

    /// The preset's pattern exactly as authored: no intensity, no settings.
    public static func authoredPattern(named name: String) -> HapticPattern? {
        guard let info = info(named: name) else { return nil }
        return try? decoded(info.name).get()
    }

    /// The preset's AHAP file, as written in `Patterns/`.
    public static func source(named name: String) -> String? {
        guard let info = info(named: name) else { return nil }
        return catalog.sources[info.name]
    }

    /// Embedded files that did not decode: empty in every tested build (the library's tests
    /// decode each one strictly). A preset whose file did not decode plays nothing.
    public static var problems: [AHAPError] {
        all.compactMap { info in
            if case .failure(let error) = decoded(info.name) { return error }
            return nil
        }
    }

    /// Names, metadata and sources, available without decoding any pattern.
    private struct Catalog: Sendable {
        var infos: [PresetInfo] = []
        var index: [String: Int] = [:]
        var sources: [String: String] = [:]

        init(_ embedded: [EmbeddedPattern]) {
            // Ranks looked up once per preset, not at every comparison of the sort.
            let order = Dictionary(HapticFeedback.presets.enumerated().map { ($1.presetName, $0) }, uniquingKeysWith: { first, _ in first })
            let categories = Dictionary(uniqueKeysWithValues: PresetCategory.allCases.enumerated().map { ($1, $0) })
            let sorted =
                embedded
                .map { (key: (categories[$0.category] ?? 0, order[$0.name] ?? order.count, $0.name), pattern: $0) }
                .sorted { $0.key < $1.key }
                .map(\.pattern)
            for pattern in sorted {
                let position = infos.count
                infos.append(
                    PresetInfo(
                        name: pattern.name, category: pattern.category, meaning: pattern.meaning, aliases: pattern.aliases, description: pattern.description))
                sources[pattern.name] = pattern.json
                for name in [pattern.name] + pattern.aliases { index[PresetName.key(name)] = position }
            }
        }
    }

    /// A preset decoded on first use, then kept. One at a time, not the whole library: a
    /// command plays one preset, and decoding all of them at launch was a measurable part of
    /// `haptics play`'s start-up.
    private static func decoded(_ name: String) -> Result<HapticPattern, AHAPError> {
        if let known = decodedPatterns.withLock({ $0[name] }) { return known }
        let result = Result { () throws(AHAPError) in
            try AHAPDecoder(mode: .lenient).decode(Data((catalog.sources[name] ?? "").utf8), source: "Patterns/\(name).ahap").pattern
        }
        decodedPatterns.withLock { $0[name] = result }
        return result
    }

    private static let catalog = Catalog(embeddedPatterns)
    private static let decodedPatterns = Mutex<[String: Result<HapticPattern, AHAPError>]>([:])
}
