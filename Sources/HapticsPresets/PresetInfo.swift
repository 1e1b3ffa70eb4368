/// What `haptics list` shows about a preset: its name, what it means, and the other names it
/// answers to.
public struct PresetInfo: Sendable, Hashable, Codable {
    /// The canonical name, as SwiftUI (or the platform that introduced the kind) spells it.
    public var name: String
    /// What the preset is for; settings scale presets by category.
    public var category: PresetCategory
    /// One line saying what the preset means.
    public var meaning: String
    /// Other names for the same preset (platform names with the same meaning).
    public var aliases: [String]
    /// The full description from the pattern file: the meaning and when to use it.
    public var description: String

    /// Creates a description of a preset.
    package init(name: String, category: PresetCategory, meaning: String, aliases: [String], description: String) {
        self.name = name
        self.category = category
        self.meaning = meaning
        self.aliases = aliases
        self.description = description
    }
}
