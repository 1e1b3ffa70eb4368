import Foundation
import HapticsTestSupport

/// A settings file in a fresh temporary folder, and the environment that points at it, so a
/// test never reads the real user's settings.
struct TemporarySettings {
    private let temporary: TemporaryFolder
    let file: URL
    var folder: URL { temporary.url }

    /// Writes `text` as the settings file.
    init(_ text: String) throws {
        temporary = try TemporaryFolder(prefix: "haptics-settings")
        file = try temporary.write("settings.json", text)
    }

    /// `HAPTICS_SETTINGS` naming the file, plus any other variables.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        extra.merging(["HAPTICS_SETTINGS": file.path]) { mine, _ in mine }
    }

    /// Removes the folder now (it also goes when the last copy of this value does).
    func remove() {
        try? FileManager.default.removeItem(at: temporary.url)
    }
}
