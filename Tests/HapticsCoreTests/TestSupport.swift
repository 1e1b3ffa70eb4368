import Foundation
import Testing
@testable import HapticsCore

/// The public AHAP corpus: `HAPTICS_CORPUS`, or `../shared/corpus/ahap` next to the package.
/// Absent in a user's clone, where the tests that need it are skipped.
enum Corpus {
    static let directory: URL? = {
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

    static let isAvailable = directory != nil
    static let absentMessage: Comment = "AHAP corpus not found: set HAPTICS_CORPUS or place it at ../shared/corpus/ahap"

    /// Every `.ahap` file, sorted by name.
    static var files: [URL] {
        guard let directory,
              let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return names.filter { $0.hasSuffix(".ahap") }.sorted().map { directory.appendingPathComponent($0) }
    }

    static func file(_ name: String) -> URL? {
        directory?.appendingPathComponent(name)
    }
}

/// Decodes JSON text as the file `test.ahap`.
func decode(_ json: String, mode: ValidationMode = .lenient, baseDirectory: URL? = nil) throws(AHAPError) -> AHAPDocument {
    try AHAPDecoder(mode: mode).decode(Data(json.utf8), source: "test.ahap", baseDirectory: baseDirectory)
}

/// Every diagnostic of decoding JSON text, whether decoding succeeded or failed.
func diagnostics(of json: String, mode: ValidationMode = .lenient, baseDirectory: URL? = nil) -> [AHAPDiagnostic] {
    do {
        return try decode(json, mode: mode, baseDirectory: baseDirectory).diagnostics
    } catch {
        return error.diagnostics
    }
}

/// The errors of decoding JSON text; empty when it decodes.
func errors(of json: String, mode: ValidationMode = .lenient) -> [AHAPDiagnostic] {
    diagnostics(of: json, mode: mode).filter { $0.severity == .error }
}

/// A document whose `Pattern` holds the given elements (JSON text, comma-separated).
func document(_ elements: String) -> String {
    "{ \"Version\": 1.0, \"Pattern\": [ \(elements) ] }"
}

/// A transient event element at a time.
func transient(at time: String = "0", extra: String = "") -> String {
    "{ \"Event\": { \"Time\": \(time), \"EventType\": \"HapticTransient\"\(extra.isEmpty ? "" : ", " + extra) } }"
}

/// A temporary folder removed when the value is discarded at the end of a test.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("haptics-core-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func write(_ name: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }
}
