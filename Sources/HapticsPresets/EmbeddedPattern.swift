/// One `Patterns/*.ahap` file as the build embedded it (see the EmbedPatterns plugin, which
/// generates the `embeddedPatterns` table of these).
struct EmbeddedPattern: Sendable {
    /// The file name without `.ahap`: the preset's canonical name.
    var name: String
    /// `Metadata.Category`.
    var category: PresetCategory
    /// The first sentence of `Metadata.Description`, without its period.
    var meaning: String
    /// `Metadata.Description` in full.
    var description: String
    /// `Metadata.Aliases`, split at commas.
    var aliases: [String]
    /// The file's exact text.
    var json: String
}
