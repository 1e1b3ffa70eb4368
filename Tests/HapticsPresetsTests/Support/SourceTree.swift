import Foundation

/// The package's source tree, when the tests run from a checkout (they may not: a test bundle
/// can be built and run elsewhere).
enum SourceTree {
    /// The folder holding Package.swift, found by walking up from this file.
    static let packageRoot: URL? = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }()

    /// `Patterns/`, the authored preset files.
    static var patternsFolder: URL? {
        guard let folder = packageRoot?.appendingPathComponent("Patterns", isDirectory: true),
            FileManager.default.fileExists(atPath: folder.path)
        else { return nil }
        return folder
    }

    /// Every `Patterns/*.ahap`, sorted by name; empty without the source tree.
    static var patternFiles: [URL] {
        guard let folder = patternsFolder,
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".ahap") }.sorted().map { folder.appendingPathComponent($0) }
    }

    static let isPresent = patternsFolder != nil
}
