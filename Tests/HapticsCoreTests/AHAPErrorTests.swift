import Foundation
import Testing
import HapticsCore

@Suite("Problems that are errors in every mode")
struct AHAPErrorTests {
    private func expectError(_ json: String, at location: String, containing text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for mode in ValidationMode.allCases {
            let found = errors(of: json, mode: mode)
            #expect(found.map(\.location) == [location], "\(mode)", sourceLocation: sourceLocation)
            #expect(found.first?.message.contains(text) == true, "\(mode): \(found.first?.message ?? "no error")", sourceLocation: sourceLocation)
        }
    }

    @Test("input that is not JSON is rejected with its line and column")
    func notJSON() {
        let found = errors(of: "Pattern:\n  - Event")
        #expect(found.count == 1)
        #expect(found.first?.message.hasPrefix("unexpected 'Pattern'") == true)
        #expect(found.first?.line == 1)
        #expect(found.first?.column == 1)
    }

    @Test("truncated JSON is rejected with the line and column where it ends")
    func truncatedJSON() {
        let json = "{\n  \"Pattern\": [\n    { \"Event\": { \"Time\": 0.5, \"EventType\": \"HapticTr"
        let found = errors(of: json)
        #expect(found.count == 1)
        #expect(found.first?.location == "Pattern[0].Event.EventType")
        #expect(found.first?.message.hasPrefix("unterminated string") == true)
        #expect(found.first?.line == 3)
        #expect(found.first?.column == 44)
    }

    @Test("the top level must be an object")
    func topLevelNotObject() {
        expectError("[ \(transient()) ]", at: "", containing: "found an array")
        expectError("42", at: "", containing: "found a number (42)")
    }

    @Test("a fragment without a Pattern array is rejected, saying the Pattern array is missing")
    func fragment() throws {
        let json = "{ \"Event\": { \"Time\": 0, \"EventType\": \"HapticTransient\" } }"
        for mode in ValidationMode.allCases {
            let error = try #require(throws: AHAPError.self) { try decode(json, mode: mode) }
            #expect(error.diagnostics.count == 1)
            #expect(error.description.contains("'Pattern' array is missing"))
            #expect(error.description.contains("single pattern element"))
        }
        expectError("{ \"Version\": 1 }", at: "Pattern", containing: "'Pattern' array is missing")
    }

    @Test("Pattern must be a non-empty array")
    func patternShape() {
        expectError("{ \"Pattern\": { \"Event\": {} } }", at: "Pattern", containing: "expected an array of pattern elements, found an object")
        expectError("{ \"Pattern\": [] }", at: "Pattern", containing: "empty")
    }

    @Test("a pattern whose every element is skipped is rejected")
    func everythingSkipped() {
        let found = errors(of: document("{ \"ParameterCurves\": {} }"))
        #expect(found.map(\.location) == ["Pattern"])
        #expect(found.first?.message.contains("no usable element") == true)
    }

    @Test("elements must be objects with exactly one known key")
    func elementShape() {
        expectError(document("[1]"), at: "Pattern[0]", containing: "found an array")
        expectError(document("{}"), at: "Pattern[0]", containing: "empty element")
        expectError(
            document(
                "{ \"Event\": { \"Time\": 0, \"EventType\": \"HapticTransient\" }, \"Parameter\": { \"ParameterID\": \"HapticIntensityControl\", \"Time\": 0, \"ParameterValue\": 1 } }"
            ),
            at: "Pattern[0]", containing: "'Event' and 'Parameter'")
    }

    @Test("a negative event time is rejected at Pattern[N].Event.Time")
    func negativeTime() {
        expectError(document(transient() + ", " + transient(at: "-0.5")), at: "Pattern[1].Event.Time", containing: "negative time -0.5")
    }

    @Test("a missing event time is rejected at Pattern[N].Event.Time")
    func missingTime() {
        expectError(document("{ \"Event\": { \"EventType\": \"HapticTransient\" } }"), at: "Pattern[0].Event.Time", containing: "missing 'Time'")
    }

    @Test("negative durations and control point times are rejected")
    func negativeDurations() {
        expectError(document(transient(extra: "\"EventDuration\": -1")), at: "Pattern[0].Event.EventDuration", containing: "negative duration")
        expectError(
            document(
                "{ \"ParameterCurve\": { \"ParameterID\": \"HapticIntensityControl\", \"Time\": 0, \"ParameterCurveControlPoints\": [ { \"Time\": -0.1, \"ParameterValue\": 1 } ] } }"
            ),
            at: "Pattern[0].ParameterCurve.ParameterCurveControlPoints[0].Time", containing: "negative time")
    }

    @Test("an unknown event type is rejected, suggesting the real one")
    func unknownEventType() throws {
        let found = errors(of: document("{ \"Event\": { \"Time\": 0, \"EventType\": \"HapticTransent\" } }"))
        #expect(found.map(\.location) == ["Pattern[0].Event.EventType"])
        #expect(found.first?.suggestion == "HapticTransient")
        expectError(document("{ \"Event\": { \"Time\": 0 } }"), at: "Pattern[0].Event.EventType", containing: "missing 'EventType'")
    }

    @Test("parameter entries need both an ID and a value")
    func incompleteParameters() {
        expectError(
            document(transient(extra: "\"EventParameters\": [ { \"ParameterValue\": 1 } ]")),
            at: "Pattern[0].Event.EventParameters[0].ParameterID", containing: "missing 'ParameterID'")
        expectError(
            document(transient(extra: "\"EventParameters\": [ { \"ParameterID\": \"HapticIntensity\" } ]")),
            at: "Pattern[0].Event.EventParameters[0].ParameterValue", containing: "missing 'ParameterValue'")
        expectError(
            document("{ \"Parameter\": { \"ParameterID\": \"HapticIntensityControl\", \"Time\": 0 } }"),
            at: "Pattern[0].Parameter.ParameterValue", containing: "missing 'ParameterValue'")
        expectError(
            document("{ \"Parameter\": { \"Time\": 0, \"ParameterValue\": 1 } }"),
            at: "Pattern[0].Parameter.ParameterID", containing: "missing 'ParameterID'")
        expectError(
            document("{ \"Parameter\": { \"ParameterID\": \"HapticIntensityControl\", \"ParameterValue\": 1 } }"),
            at: "Pattern[0].Parameter.Time", containing: "missing 'Time'")
        expectError(
            document("{ \"ParameterCurve\": { \"ParameterID\": \"HapticIntensityControl\", \"Time\": 0 } }"),
            at: "Pattern[0].ParameterCurve.ParameterCurveControlPoints", containing: "missing 'ParameterCurveControlPoints'")
        expectError(
            document(
                "{ \"ParameterCurve\": { \"ParameterID\": \"HapticIntensityControl\", \"Time\": 0, \"ParameterCurveControlPoints\": [ { \"Time\": 0 } ] } }"),
            at: "Pattern[0].ParameterCurve.ParameterCurveControlPoints[0].ParameterValue", containing: "missing 'ParameterValue'")
    }

    /// A value of the wrong JSON type at each level, where it is, and what the message says.
    static let wrongTypes: [(String, String, String)] = [
        ("{ \"Version\": \"1.0\", \"Pattern\": [ \(transient()) ] }", "Version", "expected a number, found a string (\"1.0\")"),
        ("{ \"Metadata\": [], \"Pattern\": [ \(transient()) ] }", "Metadata", "expected an object of strings, found an array"),
        ("{ \"Pattern\": \"none\" }", "Pattern", "expected an array of pattern elements, found a string"),
        (document("\"tap\""), "Pattern[0]", "expected an object holding one Event, Parameter or ParameterCurve, found a string"),
        (document("{ \"Event\": [] }"), "Pattern[0].Event", "expected an object, found an array"),
        (document(transient(at: "\"0\"")), "Pattern[0].Event.Time", "expected a number, found a string (\"0\")"),
        (document(transient(at: "null")), "Pattern[0].Event.Time", "expected a number, found null"),
        (document("{ \"Event\": { \"Time\": 0, \"EventType\": 1 } }"), "Pattern[0].Event.EventType", "expected a string, found a number (1)"),
        (document(transient(extra: "\"EventDuration\": true")), "Pattern[0].Event.EventDuration", "expected a number, found true"),
        (document(transient(extra: "\"EventParameters\": {}")), "Pattern[0].Event.EventParameters", "expected an array of parameters, found an object"),
        (
            document(transient(extra: "\"EventParameters\": [ 1 ]")), "Pattern[0].Event.EventParameters[0]",
            "expected an object with 'ParameterID' and 'ParameterValue', found a number (1)"
        ),
        (
            document(transient(extra: "\"EventParameters\": [ { \"ParameterID\": 5, \"ParameterValue\": 1 } ]")),
            "Pattern[0].Event.EventParameters[0].ParameterID", "expected a string, found a number (5)"
        ),
        (
            document(transient(extra: "\"EventParameters\": [ { \"ParameterID\": \"HapticIntensity\", \"ParameterValue\": \"high\" } ]")),
            "Pattern[0].Event.EventParameters[0].ParameterValue", "expected a number, found a string (\"high\")"
        ),
        (
            document("{ \"Event\": { \"Time\": 0, \"EventType\": \"AudioCustom\", \"EventWaveformPath\": 7 } }"), "Pattern[0].Event.EventWaveformPath",
            "expected a string, found a number (7)"
        ),
        (
            document("{ \"Event\": { \"Time\": 0, \"EventType\": \"AudioCustom\", \"EventWaveformPath\": \"a.wav\", \"EventWaveformLoopEnabled\": 1 } }"),
            "Pattern[0].Event.EventWaveformLoopEnabled", "expected true or false, found a number (1)"
        ),
        (
            document("{ \"Parameter\": { \"ParameterID\": \"HapticIntensityControl\", \"Time\": [], \"ParameterValue\": 1 } }"), "Pattern[0].Parameter.Time",
            "expected a number, found an array"
        ),
        (
            document("{ \"ParameterCurve\": { \"ParameterID\": \"HapticIntensityControl\", \"Time\": 0, \"ParameterCurveControlPoints\": {} } }"),
            "Pattern[0].ParameterCurve.ParameterCurveControlPoints", "expected an array of control points, found an object"
        ),
        (
            document("{ \"ParameterCurve\": { \"ParameterID\": \"HapticIntensityControl\", \"Time\": 0, \"ParameterCurveControlPoints\": [ [0, 1] ] } }"),
            "Pattern[0].ParameterCurve.ParameterCurveControlPoints[0]", "expected an object with 'Time' and 'ParameterValue', found an array"
        ),
        (
            document(
                "{ \"ParameterCurve\": { \"ParameterID\": \"HapticIntensityControl\", \"Time\": 0, \"ParameterCurveControlPoints\": [ { \"Time\": 0, \"ParameterValue\": false } ] } }"
            ), "Pattern[0].ParameterCurve.ParameterCurveControlPoints[0].ParameterValue", "expected a number, found false"
        ),
    ]

    @Test("a value of the wrong JSON type is rejected, saying what was expected and found", arguments: wrongTypes)
    func wrongType(_ json: String, _ location: String, _ message: String) {
        expectError(json, at: location, containing: message)
    }

    @Test("AudioCustom events need a sound file path")
    func audioCustomWithoutPath() {
        expectError(
            document("{ \"Event\": { \"Time\": 0, \"EventType\": \"AudioCustom\" } }"),
            at: "Pattern[0].Event.EventWaveformPath", containing: "missing 'EventWaveformPath'")
        expectError(
            document("{ \"Event\": { \"Time\": 0, \"EventType\": \"AudioCustom\", \"EventWaveformPath\": null } }"),
            at: "Pattern[0].Event.EventWaveformPath", containing: "missing 'EventWaveformPath'")
        expectError(
            document("{ \"Event\": { \"Time\": 0, \"EventType\": \"AudioCustom\", \"EventWaveformPath\": \"\" } }"),
            at: "Pattern[0].Event.EventWaveformPath", containing: "empty")
    }

    @Test("NaN and infinite numbers are rejected")
    func nonFinite() {
        for literal in ["NaN", "Infinity", "-Infinity", "1e309", "-1e400"] {
            let found = errors(of: document(transient(at: literal)))
            #expect(found.map(\.location) == ["Pattern[0].Event.Time"], "\(literal)")
            #expect(found.first?.message.contains("finite") == true, "\(literal)")
        }
    }

    @Test("as many problems as possible are reported at once, errors first")
    func collectsProblems() throws {
        let json = document(
            """
            { "Event": { "Time": -1, "EventType": "HapticTransient", "Colour": 1 } },
            { "Event": { "EventType": "Buzz" } },
            { "Parameter": { "ParameterID": "HapticIntensityControl", "Time": 0, "ParameterValue": 7 } }
            """)
        let error = try #require(throws: AHAPError.self) { try decode(json) }
        #expect(
            error.diagnostics.map(\.location) == [
                "Pattern[0].Event.Time",
                "Pattern[1].Event.EventType",
                "Pattern[1].Event.Time",
                "Pattern[0].Event.Colour",
                "Pattern[2].Parameter.ParameterValue",
            ])
        #expect(error.diagnostics.map(\.severity) == [.error, .error, .error, .warning, .warning])
        #expect(error.description == "test.ahap:1:53: error: negative time -1; a time must be 0 or more [Pattern[0].Event.Time]")
    }

    @Test("a flood of problems is capped, with a count of the rest")
    func manyProblems() throws {
        let elements = (0..<500).map { _ in transient(at: "-1") }.joined(separator: ",")
        let error = try #require(throws: AHAPError.self) { try decode(document(elements)) }
        #expect(error.diagnostics.count == 101)
        #expect(error.diagnostics.last?.message == "400 more errors not shown")
        #expect(error.errorCount == 500)
        #expect(error.warningCount == 0)
    }

    @Test("diagnostics carry the line and column of the offending value")
    func positions() throws {
        let json = "{\n  \"Pattern\": [\n    { \"Event\": { \"Time\": -2, \"EventType\": \"HapticTransient\" } }\n  ]\n}"
        let error = try #require(throws: AHAPError.self) { try decode(json) }
        #expect(error.diagnostics.first?.line == 3)
        #expect(error.diagnostics.first?.column == 26)
    }

    @Test("a flood of warnings does not hide the errors")
    func errorsAfterManyWarnings() throws {
        let warnings = (0..<300).map { _ in transient(extra: "\"Colr\": 1") }.joined(separator: ",")
        let error = try #require(throws: AHAPError.self) { try decode(document(warnings + ", " + transient(at: "-1"))) }
        #expect(error.diagnostics.first?.location == "Pattern[300].Event.Time")
        #expect(error.errorCount == 1)
        #expect(error.warningCount == 300)
        #expect(error.diagnostics.last?.message == "200 more warnings not shown")
    }
}
