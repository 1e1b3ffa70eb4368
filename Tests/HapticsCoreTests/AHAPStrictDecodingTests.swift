import Foundation
import HapticsTestSupport
import Testing
import HapticsCore

@Suite("Strict decoding turns every warning into an error")
struct AHAPStrictDecodingTests {
    /// Inputs lenient mode loads with exactly one warning, at the given location.
    static let questionable: [(String, String)] = [
        ("{ \"Pattern\": [ \(transient()), ] }", "Pattern"),
        ("{ \"Version\": 1.5, \"Pattern\": [ \(transient()) ] }", "Version"),
        (document(transient(extra: "\"Colour\": 1")), "Pattern[0].Event.Colour"),
        (document(transient() + ", { \"ParameterCurves\": {} }"), "Pattern[1].ParameterCurves"),
        (
            document(transient(extra: "\"EventParameters\": [ { \"ParameterID\": \"HapticIntensity\", \"ParameterValue\": 2 } ]")),
            "Pattern[0].Event.EventParameters[0].ParameterValue"
        ),
        (
            document(transient(extra: "\"EventParameters\": [ { \"ParameterID\": \"Loudness\", \"ParameterValue\": 1 } ]")),
            "Pattern[0].Event.EventParameters[0].ParameterID"
        ),
        (
            document(transient() + ", { \"Parameter\": { \"ParameterID\": \"Loudness\", \"Time\": 0, \"ParameterValue\": 1 } }"),
            "Pattern[1].Parameter.ParameterID"
        ),
        (
            document("{ \"Event\": { \"Time\": 0, \"EventType\": \"HapticContinuous\", \"EventDuration\": 31 } }"),
            "Pattern[0].Event.EventDuration"
        ),
        (
            document(
                "{ \"ParameterCurve\": { \"ParameterID\": \"HapticIntensityControl\", \"Time\": 0, \"ParameterCurveControlPoints\": [ \((0..<17).map { "{ \"Time\": \($0), \"ParameterValue\": 1 }" }.joined(separator: ",")) ] } }"
            ),
            "Pattern[0].ParameterCurve.ParameterCurveControlPoints"
        ),
        (
            document(
                "{ \"ParameterCurve\": { \"ParameterID\": \"HapticIntensityControl\", \"Time\": 0, \"ParameterCurveControlPoints\": [ { \"Time\": 1, \"ParameterValue\": 1 }, { \"Time\": 0, \"ParameterValue\": 0 } ] } }"
            ),
            "Pattern[0].ParameterCurve.ParameterCurveControlPoints"
        ),
        (document("{ \"Event\": { \"Time\": 0, \"EventType\": \"HapticTransient\", \"Time\": 1 } }"), "Pattern[0].Event.Time"),
        ("{ \"Metadata\": { \"Rating\": 5 }, \"Pattern\": [ \(transient()) ] }", "Metadata.Rating"),
    ]

    @Test("what lenient mode warns about, strict mode rejects at the same location, in strict wording", arguments: questionable)
    func warningsBecomeErrors(_ json: String, _ location: String) throws {
        let lenient = try decode(json)
        #expect(lenient.diagnostics.map(\.location) == [location])
        #expect(lenient.diagnostics.allSatisfy { $0.severity == .warning })

        let error = try #require(throws: AHAPError.self) { try decode(json, mode: .strict) }
        #expect(error.diagnostics.map(\.location) == [location])
        #expect(error.diagnostics.allSatisfy { $0.severity == .error })
        // In strict wording: the problem, without what lenient reading does about it ("; clamped
        // to 1", " is ignored"), since nothing is clamped or ignored: the file is refused.
        #expect(error.diagnostics.count == lenient.diagnostics.count)
        for (strict, lenient) in zip(error.diagnostics.map(\.message), lenient.diagnostics.map(\.message)) {
            #expect(lenient.hasPrefix(strict) && strict.count >= lenient.count / 3, "\(strict) against \(lenient)")
            // (A duplicate key keeps the JSON parser's wording, which profiles and settings share.)
            for consequence in ["clamped", "ignored", "skipped", "sorted", "kept as"] {
                #expect(!strict.contains(consequence), "\(strict) says what lenient reading does")
            }
        }
    }

    @Test("a clean file decodes the same in both modes")
    func cleanFile() throws {
        let json = document(transient(at: "0.1", extra: "\"EventParameters\": [ { \"ParameterID\": \"HapticIntensity\", \"ParameterValue\": 0.5 } ]"))
        let strict = try decode(json, mode: .strict)
        #expect(strict.diagnostics.isEmpty)
        #expect(strict.pattern == (try decode(json)).pattern)
    }

    @Test("a missing sound file is an error in strict mode")
    func missingSoundFile() throws {
        let folder = try TemporaryFolder()
        let json = document("{ \"Event\": { \"Time\": 0, \"EventType\": \"AudioCustom\", \"EventWaveformPath\": \"gone.wav\" } }")
        #expect(try decode(json, baseDirectory: folder.url).diagnostics.map(\.severity) == [.warning])
        #expect(errors(of: json, mode: .strict).isEmpty, "without a folder nothing is looked for")
        let error = try #require(throws: AHAPError.self) { try decode(json, mode: .strict, baseDirectory: folder.url) }
        #expect(error.diagnostics.map(\.location) == ["Pattern[0].Event.EventWaveformPath"])
    }
}
