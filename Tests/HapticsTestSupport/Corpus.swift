import Foundation
import Testing

/// The public AHAP corpus: `HAPTICS_CORPUS`, or `../shared/corpus/ahap` next to the package.
/// Absent in a user's clone, where the tests that need it are skipped with ``absentMessage``.
public enum Corpus {
    public static let directory: URL? = {
        let fileManager = FileManager.default
        if let override = ProcessInfo.processInfo.environment["HAPTICS_CORPUS"], !override.isEmpty {
            let url = URL(fileURLWithPath: override)
            return fileManager.fileExists(atPath: url.path) ? url : nil
        }
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if fileManager.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                let corpus = folder.deletingLastPathComponent().appendingPathComponent("shared/corpus/ahap")
                return fileManager.fileExists(atPath: corpus.path) ? corpus : nil
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }()

    public static let isAvailable = directory != nil
    public static let absentMessage: Comment = "AHAP corpus not found: set HAPTICS_CORPUS or place it at ../shared/corpus/ahap"

    /// Every `.ahap` file, sorted by name.
    public static var files: [URL] {
        guard let directory,
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".ahap") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// A corpus file by name, when the corpus is present.
    public static func file(_ name: String) -> URL? {
        directory?.appendingPathComponent(name)
    }
}
