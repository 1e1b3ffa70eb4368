import Foundation
import Testing
import HapticsCore

@Suite("Lenient decoding accepts what Core Haptics accepts")
struct AHAPLenientDecodingTests {
    @Test("a full pattern decodes into the model, elements in file order")
    func decodesModel() throws {
        let json = """
            {
              "Version": 1.0,
              "Pattern": [
                { "Event": { "Time": 0.5, "EventType": "HapticContinuous", "EventDuration": 0.25,
                             "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.8 },
                                                  { "ParameterID": "Sustained", "ParameterValue": 0 } ] } },
                { "Parameter": { "ParameterID": "HapticSharpnessControl", "Time": 0.2, "ParameterValue": -0.3 } },
                { "Event": { "Time": 0.1, "EventType": "HapticTransient",
                             "EventParameters": [ { "ParameterID": "HapticSharpness", "ParameterValue": 1 } ] } },
                { "ParameterCurve": { "ParameterID": "HapticIntensityControl", "Time": 0.3,
                                      "ParameterCurveControlPoints": [ { "Time": 0, "ParameterValue": 1 },
                                                                       { "Time": 0.2, "ParameterValue": 0.25 } ] } }
              ]
            }
            """
        let document = try decode(json)
        #expect(document.diagnostics.isEmpty)
        let expected = HapticPattern(
            events: [
                HapticEvent(
                    .continuous, at: 0.5, duration: 0.25,
                    parameters: [
                        .init(.hapticIntensity, 0.8), .init(.sustained, 0),
                    ]),
                HapticEvent(.transient, at: 0.1, parameters: [.init(.hapticSharpness, 1)]),
            ],
            parameters: [HapticDynamicParameter(.hapticSharpnessControl, -0.3, at: 0.2)],
            curves: [HapticParameterCurve(.hapticIntensityControl, at: 0.3, points: [(0, 1), (0.2, 0.25)])]
        )
        #expect(document.pattern == expected)
    }

    @Test("a missing Version means 1.0, silently")
    func missingVersion() throws {
        let document = try decode("{ \"Pattern\": [ \(transient()) ] }")
        #expect(document.pattern.version == 1.0)
        #expect(document.diagnostics.isEmpty)
    }

    @Test("a Version outside 1.0...1.1 is kept with a warning")
    func unusualVersion() throws {
        let document = try decode("{ \"Version\": 2, \"Pattern\": [ \(transient()) ] }")
        #expect(document.pattern.version == 2)
        #expect(document.diagnostics.map(\.location) == ["Version"])
        #expect(document.diagnostics.first?.severity == .warning)
    }

    @Test("trailing commas load with a warning that names the line and column")
    func trailingCommas() throws {
        let json = "{\n  \"Pattern\": [\n    \(transient()),\n  ],\n}"
        let document = try decode(json)
        #expect(document.pattern.events.count == 1)
        #expect(document.diagnostics.count == 2)
        let first = try #require(document.diagnostics.first)
        #expect(first.severity == .warning)
        #expect(first.location == "Pattern")
        #expect(first.line == 3)
        #expect(first.column != nil)
        #expect(first.message.contains("trailing comma"))
    }

    @Test("unsorted events keep their file order")
    func unsortedEvents() throws {
        let document = try decode(document([transient(at: "0.9"), transient(at: "0.1"), transient(at: "0.5")].joined(separator: ",")))
        #expect(document.pattern.events.map(\.relativeTime) == [0.9, 0.1, 0.5])
        #expect(document.diagnostics.isEmpty)
    }

    @Test("unknown keys are ignored with a warning at their location, suggesting near misses")
    func unknownKeys() throws {
        let json = document(transient(extra: "\"EventDuratoin\": 1, \"Color\": \"red\""))
        let document = try decode(json)
        #expect(document.pattern.events.first?.duration == 0)
        let locations = document.diagnostics.map(\.location)
        #expect(locations == ["Pattern[0].Event.EventDuratoin", "Pattern[0].Event.Color"])
        #expect(document.diagnostics.map(\.suggestion) == ["EventDuration", nil])
        #expect(document.diagnostics.allSatisfy { $0.severity == .warning && $0.line == 1 })
    }

    @Test("Apple's prose names Duration and Value get the real key names as suggestions")
    func documentedMisnomers() throws {
        let json = document(
            "{ \"Event\": { \"Time\": 0, \"EventType\": \"HapticContinuous\", \"Duration\": 1, \"EventParameters\": [ { \"ParameterID\": \"HapticIntensity\", \"ParameterValue\": 1, \"Value\": 0.5 } ] } }"
        )
        // Without 'EventDuration' the continuous event is an error; the warnings come with it.
        let error = try #require(throws: AHAPError.self) { try decode(json) }
        #expect(error.errors.map(\.message) == ["missing 'EventDuration': a HapticContinuous event needs its length in seconds"])
        #expect(error.diagnostics.filter { $0.severity == .warning }.map(\.suggestion) == ["EventDuration", "ParameterValue"])
    }

    @Test("a misspelled element key is skipped with a warning suggesting the real one")
    func misspelledElementKey() throws {
        let json = document(transient() + ", { \"Evnt\": { \"Time\": 1, \"EventType\": \"HapticTransient\" } }, { \"ParameterCurves\": {} }")
        let document = try decode(json)
        #expect(document.pattern.events.count == 1)
        #expect(document.diagnostics.map(\.location) == ["Pattern[1].Evnt", "Pattern[2].ParameterCurves"])
        #expect(document.diagnostics.map(\.suggestion) == ["Event", "ParameterCurve"])
        #expect(document.diagnostics.allSatisfy { $0.message.contains("skipped") })
    }

    @Test("out-of-range values are clamped in the model with a warning each")
    func outOfRangeValues() throws {
        let json = document(
            """
            { "Event": { "Time": 0, "EventType": "HapticTransient", "EventParameters": [
                { "ParameterID": "HapticIntensity", "ParameterValue": 1.5 },
                { "ParameterID": "HapticSharpness", "ParameterValue": -2 },
                { "ParameterID": "AudioPan", "ParameterValue": -0.5 } ] } },
            { "Parameter": { "ParameterID": "HapticIntensityControl", "Time": 0, "ParameterValue": 3 } },
            { "ParameterCurve": { "ParameterID": "HapticSharpnessControl", "Time": 0,
                "ParameterCurveControlPoints": [ { "Time": 0, "ParameterValue": -1.5 }, { "Time": 1, "ParameterValue": 0.5 } ] } }
            """)
        let document = try decode(json)
        #expect(document.pattern.events[0].parameters.map(\.value) == [1, 0, -0.5])
        #expect(document.pattern.parameters[0].value == 1)
        #expect(document.pattern.curves[0].controlPoints.map(\.value) == [-1, 0.5])
        #expect(
            document.diagnostics.map(\.location) == [
                "Pattern[0].Event.EventParameters[0].ParameterValue",
                "Pattern[0].Event.EventParameters[1].ParameterValue",
                "Pattern[1].Parameter.ParameterValue",
                "Pattern[2].ParameterCurve.ParameterCurveControlPoints[0].ParameterValue",
            ])
        #expect(document.diagnostics[0].message == "HapticIntensity 1.5 is outside 0...1; clamped to 1")
    }

    @Test("EventWaveformPath null on haptic events is fine, without a warning")
    func nullWaveformPath() throws {
        let document = try decode(document(transient(extra: "\"EventWaveformPath\": null")))
        #expect(document.diagnostics.isEmpty)
        #expect(document.pattern.events.first?.audio == nil)
    }

    @Test("audio keys with a value on haptic events are ignored with a warning")
    func audioKeysOnHapticEvents() throws {
        let document = try decode(document(transient(extra: "\"EventWaveformPath\": \"a.wav\", \"EventWaveformLoopEnabled\": true")))
        #expect(document.pattern.events.first?.audio == nil)
        #expect(document.diagnostics.map(\.location) == ["Pattern[0].Event.EventWaveformPath", "Pattern[0].Event.EventWaveformLoopEnabled"])
    }

    @Test("EventTime and ParameterTime stand in for Time")
    func timeAliases() throws {
        let json = document(
            """
            { "Event": { "EventTime": 0.25, "EventType": "HapticTransient" } },
            { "Parameter": { "ParameterID": "HapticIntensityControl", "ParameterTime": 0.5, "ParameterValue": 0.5 } },
            { "ParameterCurve": { "ParameterID": "HapticIntensityControl", "ParameterTime": 0.75,
                                  "ParameterCurveControlPoints": [ { "Time": 0, "ParameterValue": 1 } ] } }
            """)
        let document = try decode(json)
        #expect(document.diagnostics.isEmpty)
        #expect(document.pattern.events[0].relativeTime == 0.25)
        #expect(document.pattern.parameters[0].relativeTime == 0.5)
        #expect(document.pattern.curves[0].relativeTime == 0.75)
    }

    @Test("when both Time and its alias are given, Time wins with a warning")
    func timeAndAlias() throws {
        let document = try decode(document("{ \"Event\": { \"Time\": 1, \"EventTime\": 2, \"EventType\": \"HapticTransient\" } }"))
        #expect(document.pattern.events[0].relativeTime == 1)
        #expect(document.diagnostics.map(\.location) == ["Pattern[0].Event.EventTime"])
    }

    @Test("unknown parameter IDs are skipped with a warning suggesting the real ID")
    func unknownParameterIDs() throws {
        let json = document(
            """
            { "Event": { "Time": 0, "EventType": "HapticTransient", "EventParameters": [
                { "ParameterID": "HapticIntensty", "ParameterValue": 0.3 },
                { "ParameterID": "HapticSharpness", "ParameterValue": 0.4 } ] } },
            { "Parameter": { "ParameterID": "HapticIntensity", "Time": 0, "ParameterValue": 0.5 } },
            { "ParameterCurve": { "ParameterID": "Wobble", "Time": 0, "ParameterCurveControlPoints": [ { "Time": 0, "ParameterValue": 1 } ] } }
            """)
        let document = try decode(json)
        #expect(document.pattern.events[0].parameters == [.init(.hapticSharpness, 0.4)])
        #expect(document.pattern.parameters.isEmpty)
        #expect(document.pattern.curves.isEmpty)
        #expect(
            document.diagnostics.map(\.location) == [
                "Pattern[0].Event.EventParameters[0].ParameterID",
                "Pattern[1].Parameter.ParameterID",
                "Pattern[2].ParameterCurve.ParameterID",
            ])
        #expect(document.diagnostics.map(\.suggestion) == ["HapticIntensity", "HapticIntensityControl", nil])
    }

    @Test("a parameter given twice keeps the last value, with a warning")
    func repeatedEventParameter() throws {
        let json = document(
            """
            { "Event": { "Time": 0, "EventType": "HapticTransient", "EventParameters": [
                { "ParameterID": "HapticIntensity", "ParameterValue": 0.3 },
                { "ParameterID": "HapticSharpness", "ParameterValue": 0.4 },
                { "ParameterID": "HapticIntensity", "ParameterValue": 0.9 } ] } }
            """)
        let document = try decode(json)
        #expect(document.pattern.events[0].parameters == [.init(.hapticSharpness, 0.4), .init(.hapticIntensity, 0.9)])
        #expect(document.diagnostics.map(\.location) == ["Pattern[0].Event.EventParameters[2]"])
    }

    @Test("duplicate JSON keys keep the last value, with a warning")
    func duplicateKeys() throws {
        let document = try decode(document("{ \"Event\": { \"Time\": 1, \"EventType\": \"HapticTransient\", \"Time\": 2 } }"))
        #expect(document.pattern.events[0].relativeTime == 2)
        #expect(document.diagnostics.map(\.location) == ["Pattern[0].Event.Time"])
        #expect(document.diagnostics.first?.message.contains("duplicate key 'Time'") == true)
    }

    @Test("unsorted control points are sorted, stably, with a warning")
    func unsortedControlPoints() throws {
        let json = document(
            """
            { "ParameterCurve": { "ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [
                { "Time": 0.5, "ParameterValue": 0.5 }, { "Time": 0, "ParameterValue": 1 },
                { "Time": 0.5, "ParameterValue": 0.2 }, { "Time": 0.25, "ParameterValue": 0.7 } ] } }
            """)
        let document = try decode(json)
        let points = document.pattern.curves[0].controlPoints
        #expect(points.map(\.relativeTime) == [0, 0.25, 0.5, 0.5])
        #expect(points.map(\.value) == [1, 0.7, 0.5, 0.2])
        #expect(document.diagnostics.map(\.location) == ["Pattern[0].ParameterCurve.ParameterCurveControlPoints"])
    }

    @Test("curves with more than 16 points load with a warning and keep every point")
    func longCurves() throws {
        let points = (0..<17).map { "{ \"Time\": \($0), \"ParameterValue\": 0.5 }" }.joined(separator: ",")
        let json = document(
            "{ \"ParameterCurve\": { \"ParameterID\": \"HapticIntensityControl\", \"Time\": 0, \"ParameterCurveControlPoints\": [ \(points) ] } }")
        let document = try decode(json)
        #expect(document.pattern.curves[0].controlPoints.count == 17)
        #expect(document.diagnostics.count == 1)
        #expect(document.diagnostics.first?.message.contains("16") == true)
    }

    @Test("a curve without points is skipped with a warning")
    func emptyCurve() throws {
        let json = document(
            transient() + ", { \"ParameterCurve\": { \"ParameterID\": \"HapticIntensityControl\", \"Time\": 0, \"ParameterCurveControlPoints\": [] } }")
        let document = try decode(json)
        #expect(document.pattern.curves.isEmpty)
        #expect(document.diagnostics.map(\.location) == ["Pattern[1].ParameterCurve.ParameterCurveControlPoints"])
    }

    @Test("continuous events longer than 30 s load with a warning")
    func longContinuousEvents() throws {
        let json = document(
            "{ \"Event\": { \"Time\": 0, \"EventType\": \"HapticContinuous\", \"EventDuration\": 45 } }, { \"Event\": { \"Time\": 0, \"EventType\": \"HapticContinuous\", \"EventDuration\": 30 } }"
        )
        let document = try decode(json)
        #expect(document.pattern.events.map(\.duration) == [45, 30])
        #expect(document.diagnostics.map(\.location) == ["Pattern[0].Event.EventDuration"])
        #expect(document.diagnostics.first?.message.contains("30 s") == true)
    }

    @Test("integers are accepted where floats are expected")
    func integers() throws {
        let document = try decode(
            document(
                "{ \"Event\": { \"Time\": 1, \"EventType\": \"HapticContinuous\", \"EventDuration\": 2, \"EventParameters\": [ { \"ParameterID\": \"HapticIntensity\", \"ParameterValue\": 1 } ] } }"
            ))
        #expect(document.pattern.events[0] == HapticEvent(.continuous, at: 1, duration: 2, parameters: [.init(.hapticIntensity, 1)]))
        #expect(document.diagnostics.isEmpty)
    }

    @Test("every diagnostic names the source")
    func source() throws {
        let document = try AHAPDecoder().decode(Data(document(transient(extra: "\"X\": 1")).utf8), source: "pop.ahap")
        #expect(document.diagnostics.first?.source == "pop.ahap")
        #expect(document.diagnostics.first?.description == "pop.ahap:1:88: warning: unknown key 'X' is ignored [Pattern[0].Event.X]")
    }

    @Test("HapticPattern(ahap:) decodes and drops warnings")
    func convenienceInitializer() throws {
        let pattern = try HapticPattern(ahap: Data(document(transient(at: "0.5", extra: "\"X\": 1")).utf8))
        #expect(pattern.events == [HapticEvent(.transient, at: 0.5)])
        #expect(throws: AHAPError.self) { try HapticPattern(ahap: Data(document(transient(extra: "\"X\": 1")).utf8), mode: .strict) }
    }

    @Test("keys and names with control characters are shown escaped, keeping each diagnostic on one line")
    func controlCharactersInKeys() throws {
        let document = try decode(document(transient(extra: "\"Odd\\nKey\": 1")))
        let warning = try #require(document.diagnostics.first)
        #expect(warning.location == "Pattern[0].Event.Odd\\nKey")
        #expect(warning.message == "unknown key 'Odd\\nKey' is ignored")
        #expect(!warning.description.contains { $0.isNewline })
    }
}
