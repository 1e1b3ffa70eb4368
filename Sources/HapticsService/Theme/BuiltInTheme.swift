import Haptics
import HapticsFormats

/// The theme used when no feedbackd theme is installed: `Themes/default.json`, every event of
/// feedbackd's event naming spec as a `Pattern` of one of the presets, in the `quiet` section
/// (played at `full` and `quiet`, not at `silent`). It is compiled in as
/// `BuiltInTheme+JSON.swift`, which a test keeps equal to the file
/// (`HAPTICS_UPDATE_THEME=1 swift test --skip-build --filter BuiltInTheme` rewrites it).
enum BuiltInTheme {
    /// The theme file's place in the package, relative to its root.
    static let sourcePath = "Themes/default.json"

    /// The theme, read once.
    static let document: FeedbackdTheme.Document = {
        do {
            return try FeedbackdTheme.read(bytes: Array(json.utf8), name: "built-in theme")
        } catch {
            // The built-in theme is read by the tests; a malformed one is a build defect.
            fatalError("\(error)")
        }
    }()
}
