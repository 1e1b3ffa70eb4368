import Foundation
import HapticsTestSupport
import Testing
import HapticsCore

@Suite("The public AHAP corpus", .enabled(if: Corpus.isAvailable, Corpus.absentMessage))
struct CorpusTests {
    static let trailingCommaFiles = [
        "apple__unityplugins__Effects__Bounce.ahap",
        "apple__unityplugins__Effects__Bouncing.ahap",
        "apple__unityplugins__Effects__Close.ahap",
        "apple__unityplugins__Effects__Jump.ahap",
        "apple__unityplugins__Effects__Open.ahap",
        "apple__unityplugins__Effects__Recharge.ahap",
        "apple__unityplugins__Effects__Spin.ahap",
    ]

    @Test("the corpus has files")
    func corpusIsNotEmpty() {
        #expect(Corpus.files.count >= 40)
    }

    @Test("every corpus file loads in lenient mode, with a non-empty pattern")
    func everyFileLoads() {
        for file in Corpus.files {
            do {
                let document = try AHAPDecoder().decode(contentsOf: file)
                #expect(!document.pattern.isEmpty, "\(file.lastPathComponent)")
                #expect(document.diagnostics.allSatisfy { $0.severity == .warning }, "\(file.lastPathComponent)")
            } catch {
                Issue.record("\(file.lastPathComponent) did not load: \(error)")
            }
        }
    }

    @Test("the misspelled ParameterCurves element yields a warning suggesting ParameterCurve")
    func invalidFields() throws {
        let file = try #require(Corpus.file("Lofelt__NiceVibrations__ios__invalid_fields.ahap"))
        let document = try AHAPDecoder().decode(contentsOf: file)
        let warning = try #require(document.diagnostics.first { $0.location == "Pattern[1].ParameterCurves" })
        #expect(warning.severity == .warning)
        #expect(warning.suggestion == "ParameterCurve")
        #expect(warning.description.hasSuffix("(did you mean 'ParameterCurve'?) [Pattern[1].ParameterCurves]"))
        #expect(document.pattern.events.count == 1)
        #expect(document.pattern.curves.isEmpty)
    }

    @Test("Apple's files with trailing commas load in lenient mode and fail in strict mode", arguments: trailingCommaFiles)
    func trailingCommas(_ name: String) throws {
        let file = try #require(Corpus.file(name))
        let lenient = try AHAPDecoder().decode(contentsOf: file)
        #expect(!lenient.diagnostics.isEmpty)
        #expect(lenient.diagnostics.allSatisfy { $0.message.contains("trailing comma") })
        let error = try #require(throws: AHAPError.self) { try AHAPDecoder(mode: .strict).decode(contentsOf: file) }
        #expect(error.errors.count == lenient.diagnostics.count)
        #expect(error.errors.allSatisfy { $0.message.contains("trailing comma") && $0.line != nil })
    }

    @Test("the canonical form of every corpus file passes strict mode and decodes to the same pattern")
    func canonicalFormIsStrict() {
        for file in Corpus.files {
            do {
                let original = try AHAPDecoder().decode(contentsOf: file).pattern
                let canonical = AHAPEncoder().encode(original)
                let document = try AHAPDecoder(mode: .strict).decode(canonical)
                #expect(document.pattern == original, "\(file.lastPathComponent)")
                #expect(document.pattern.duration == original.duration, "\(file.lastPathComponent)")
            } catch {
                Issue.record("\(file.lastPathComponent): \(error)")
            }
        }
    }

    @Test("a corpus pattern decodes to the values written in the file")
    func knownContent() throws {
        let file = try #require(Corpus.file("apple__unityplugins__Effects__Bounce.ahap"))
        let pattern = try AHAPDecoder().decode(contentsOf: file).pattern
        #expect(pattern.metadata.project == "Apple.CoreHaptics Unity Plug-in")
        #expect(
            pattern.events == [
                HapticEvent(.transient, at: 0, parameters: [.init(.hapticIntensity, 1), .init(.hapticSharpness, 0.54)]),
                HapticEvent(.continuous, at: 0.01, duration: 0.038, parameters: [.init(.hapticIntensity, 0.35), .init(.hapticSharpness, 0.2)]),
            ])
    }
}
