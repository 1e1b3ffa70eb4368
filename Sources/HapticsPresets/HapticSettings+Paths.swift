import FoundationEssentials

extension HapticSettings {
    /// Reads a settings file at a path (see ``load(contentsOf:)``).
    public static func load(contentsOfFile path: String) throws(HapticSettingsError) -> HapticSettings {
        try load(contentsOf: URL(fileURLWithPath: path))
    }
}
