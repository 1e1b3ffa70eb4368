import Foundation

/// A settings file in a fresh temporary folder, and the environment that points at it, so a
/// test never reads the real user's settings.
struct TemporarySettings {
    let folder: URL
    let file: URL

    /// Writes `text` as the settings file.
    init(_ text: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("haptics-settings-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        file = folder.appendingPathComponent("settings.json")
        try Data(text.utf8).write(to: file)
    }

    /// `HAPTICS_SETTINGS` naming the file, plus any other variables.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        extra.merging(["HAPTICS_SETTINGS": file.path]) { mine, _ in mine }
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
