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
        catalog.position(of: name).map { catalog.infos[$0] }
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
        return catalog.source(of: info.name)
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
        /// `infos[i]`'s file.
        var sources: [String] = []
        /// Every name and alias as `PresetName.key` spells it, with its preset's position in
        /// `infos`. A list searched in order: for a hundred short keys that is as quick as a
        /// dictionary, and these plain arrays (like the integer ranks below) spare each process
        /// the generic-metadata lookups dictionaries and tuples cost on first use, a quarter
        /// of `haptics list`'s own work.
        var keys: [String] = []
        var positions: [Int] = []

        init(_ embedded: [EmbeddedPattern]) {
            let order = HapticFeedback.presets.map(\.presetName)
            let categories = PresetCategory.allCases
            // Ranks computed once per preset, not at every comparison of the sort.
            let ranks = embedded.map { pattern in
                (categories.firstIndex(of: pattern.category) ?? 0) * (order.count + 1) + (order.firstIndex(of: pattern.name) ?? order.count)
            }
            let sorted = embedded.indices.sorted { a, b in
                ranks[a] != ranks[b] ? ranks[a] < ranks[b] : embedded[a].name < embedded[b].name
            }
            for i in sorted {
                let pattern = embedded[i]
                let position = infos.count
                infos.append(
                    PresetInfo(
                        name: pattern.name, category: pattern.category, meaning: pattern.meaning, aliases: pattern.aliases, description: pattern.description))
                sources.append(pattern.json)
                keys.append(PresetName.key(pattern.name))
                positions.append(position)
                for alias in pattern.aliases {
                    keys.append(PresetName.key(alias))
                    positions.append(position)
                }
            }
        }

        /// The position in `infos` of the preset a name or alias picks.
        func position(of name: String) -> Int? {
            let key = PresetName.key(name)
            return keys.firstIndex(of: key).map { positions[$0] }
        }

        /// The file of the preset with this canonical name.
        func source(of name: String) -> String? {
            infos.firstIndex { $0.name == name }.map { sources[$0] }
        }
    }

    /// A preset decoded on first use, then kept. One at a time, not the whole library: a
    /// command plays one preset, and decoding all of them at launch was a measurable part of
    /// `haptics play`'s start-up.
    private static func decoded(_ name: String) -> Result<HapticPattern, AHAPError> {
        if let known = decodedPatterns.withLock({ $0[name] }) { return known }
        let result = Result { () throws(AHAPError) in
            try AHAPDecoder(mode: .lenient).decode(Data((catalog.source(of: name) ?? "").utf8), source: "Patterns/\(name).ahap").pattern
        }
        decodedPatterns.withLock { $0[name] = result }
        return result
    }

    private static let catalog = Catalog(embeddedPatterns)
    private static let decodedPatterns = Mutex<[String: Result<HapticPattern, AHAPError>]>([:])
}
