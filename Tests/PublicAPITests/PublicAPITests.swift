import Foundation
import HapticsTestSupport
import Testing

/// The public API changes only on purpose: each library module's public declarations, as the
/// compiler's symbol graph lists them, must equal the baseline committed in `api/`. After an
/// intended change, regenerate it and commit the difference with the change:
///
///     HAPTICS_UPDATE_API=1 swift test --filter PublicAPITests
@Suite("The public API equals its committed baseline")
struct PublicAPITests {
    static let modules = [
        "HapticsCore", "HapticsRender", "HapticsPresets", "HapticsPlayback",
        "HapticsFormats", "Haptics", "CoreHaptics",
        "HapticsOutputs", "HapticsSystem",
    ]
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let updating = ProcessInfo.processInfo.environment["HAPTICS_UPDATE_API"] == "1"

    @Test("each library module's public declarations equal api/<module>.txt", arguments: modules)
    func publicDeclarationsMatchTheBaseline(module: String) throws {
        let current = try PublicSymbols.extract(module: module, packageRoot: Self.packageRoot)
        let baselineFile = Self.packageRoot.appendingPathComponent("api/\(module).txt")
        let text = current.joined(separator: "\n") + "\n"
        if Self.updating {
            try FileManager.default.createDirectory(
                at: baselineFile.deletingLastPathComponent(),
                withIntermediateDirectories: true)
            try text.write(to: baselineFile, atomically: true, encoding: .utf8)
            return
        }
        let baseline = try String(contentsOf: baselineFile, encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let added = Set(current).subtracting(baseline).sorted()
        let removed = Set(baseline).subtracting(current).sorted()
        #expect(
            added.isEmpty && removed.isEmpty,
            """
            \(module)'s public API differs from api/\(module).txt (if intended, run \
            HAPTICS_UPDATE_API=1 swift test --filter PublicAPITests and commit the file):
            \((added.map { "+ \($0)" } + removed.map { "- \($0)" }).joined(separator: "\n"))
            """)
    }
}

/// A module's public declarations, one line each (`kind path: declaration`), sorted, read from
/// the symbol graph `swift-symbolgraph-extract` makes of the module the tests were built with.
enum PublicSymbols {
    static func extract(module: String, packageRoot: URL) throws -> [String] {
        let build = packageRoot.appendingPathComponent(".build/debug")
        let folder = try TemporaryFolder(prefix: "haptics-api-\(module)")
        let output = folder.url
        var arguments = [
            "-module-name", module, "-target", try targetTriple(),
            "-I", build.appendingPathComponent("Modules").path,
            "-output-dir", output.path,
            "-minimum-access-level", "public", "-skip-synthesized-members",
        ]
        // The C shims' module maps, which modules that import them need to load.
        for shim in ["CALSA", "CLinuxInput", "CPulse", "CSystem", "COptionalLibraries"] {
            arguments += ["-Xcc", "-fmodule-map-file=" + build.appendingPathComponent("\(shim).build/module.modulemap").path]
        }
        let run = try HapticsProcess.runProgramSynchronously(try toolURL(), arguments)
        guard run.status == 0 else {
            throw ExtractionFailed(message: run.output + run.errorOutput)
        }
        var lines: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: output.path) where file.hasSuffix(".symbols.json") {
            let data = try Data(contentsOf: output.appendingPathComponent(file))
            guard let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                let symbols = graph["symbols"] as? [[String: Any]]
            else { continue }
            for symbol in symbols {
                let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String ?? "?"
                let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
                let declaration = (symbol["declarationFragments"] as? [[String: Any]] ?? [])
                    .compactMap { $0["spelling"] as? String }.joined()
                lines.append("\(kind.replacingOccurrences(of: "swift.", with: "")) \(path): \(declaration)")
            }
        }
        return Array(Set(lines)).sorted()
    }

    struct ExtractionFailed: Error, CustomStringConvertible {
        var message: String
        var description: String { "swift-symbolgraph-extract failed: \(message)" }
    }

    /// The extractor of the toolchain running the tests: beside `swift` on the PATH.
    static func toolURL() throws -> URL {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("swift-symbolgraph-extract")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw ExtractionFailed(message: "not found on PATH")
    }

    static func targetTriple() throws -> String {
        var name = utsname()
        uname(&name)
        let machine = withUnsafeBytes(of: name.machine) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        return "\(machine)-unknown-linux-gnu"
    }
}
