import Foundation
import HapticsTestSupport
import Testing

@Suite("haptics export")
struct ExportCommandTests {
    @Test("export writes canonical AHAP to standard output")
    func canonicalOutput() async throws {
        let folder = try TemporaryFolder()
        try folder.write("sample.ahap", samplePattern)
        let result = try await HapticsProcess.run(["export", "sample.ahap"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.errorOutput.isEmpty)
        #expect(result.output.hasPrefix("{\n  \"Version\": 1.0,\n  \"Metadata\": {\n    \"Project\": \"Tests\"\n  },\n  \"Pattern\": [\n"))
        #expect(result.output.hasSuffix("  ]\n}\n"))
        // Events first in file order, then the parameter, then the curve.
        let order = ["\"HapticContinuous\"", "\"HapticTransient\"", "\"Parameter\"", "\"ParameterCurve\""].map {
            result.output.range(of: $0)?.lowerBound
        }
        #expect(order.allSatisfy { $0 != nil })
        #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted())
    }

    @Test("-o writes the file instead; warnings go to standard error")
    func outputFile() async throws {
        let folder = try TemporaryFolder()
        try folder.write("warn.ahap", patternWithWarning)
        let result = try await HapticsProcess.run(["export", "warn.ahap", "-o", "clean.ahap"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.output.isEmpty)
        #expect(result.errorLines == ["warn.ahap:1:72: warning: unknown key 'Colour' is ignored [Pattern[0].Event.Colour]"])
        let written = try String(contentsOf: folder.url.appendingPathComponent("clean.ahap"), encoding: .utf8)
        #expect(!written.contains("Colour"))
        let check = try await HapticsProcess.run(["validate", "--strict", "clean.ahap"], in: folder.url)
        #expect(check.status == 0)
    }

    @Test("an invalid pattern is one error line on standard error and exit 1")
    func invalidInput() async throws {
        let folder = try TemporaryFolder()
        try folder.write("bad.ahap", invalidPattern)
        let result = try await HapticsProcess.run(["export", "bad.ahap"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.errorLines == ["bad.ahap:2:37: error: negative time -1; a time must be 0 or more [Pattern[1].Event.Time]"])
    }

    @Test(
        "an output that cannot be created is one line naming the path and the system's reason, exit 1",
        arguments: [("folder", "Is a directory"), ("missing/x.ahap", "No such file or directory"), ("/proc/nope", "No such file or directory")])
    func unwritableOutput(output: String, reason: String) async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("folder"), withIntermediateDirectories: true)
        let result = try await HapticsProcess.run(["export", "success", "-o", output], in: folder.url, timeout: .seconds(30))
        #expect(result.status == 1)
        #expect(result.errorLines == ["haptics: \(output): cannot create the file (\(reason))"])
        #expect(result.output.isEmpty)
    }

    @Test("--help explains the canonical form with examples")
    func help() async throws {
        let result = try await HapticsProcess.run(["export", "--help"])
        #expect(result.status == 0)
        for text in ["canonical AHAP", "Examples:", "-o", "validate --strict"] {
            #expect(result.output.contains(text), "\(text)")
        }
    }
}

@Suite("Exporting the corpus", .enabled(if: Corpus.isAvailable, Corpus.absentMessage))
struct CorpusExportTests {
    @Test("`haptics export F | haptics validate --strict -` passes, and show --json reports the same duration before and after")
    func exportedCorpusIsStrict() async throws {
        let files = Corpus.files
        #expect(!files.isEmpty)
        for file in files {
            let export = try await HapticsProcess.run(["export", file.path])
            #expect(export.status == 0, "\(file.lastPathComponent): \(export.errorOutput)")
            let validate = try await HapticsProcess.run(["validate", "--strict", "-"], stdin: export.stdout)
            #expect(validate.status == 0, "\(file.lastPathComponent): \(validate.output)")
            #expect(validate.outputLines == ["-: valid"], "\(file.lastPathComponent)")

            let before = try await HapticsProcess.run(["show", "--json", file.path])
            let after = try await HapticsProcess.run(["show", "--json", "-"], stdin: export.stdout)
            #expect(before.status == 0 && after.status == 0, "\(file.lastPathComponent)")
            #expect(try ShowOutput(before.stdout).duration == ShowOutput(after.stdout).duration, "\(file.lastPathComponent)")
        }
    }
}
